#!/usr/bin/env python3
"""ErrSig v3: error text (any language, any tool) -> short signature `sig` and h = sha256(sig), plus
a coarse signature (every name removed) and ch = sha256(coarse); candidates(text) lists the
signatures of every distinct line that states an error.

Reference implementation in Python 3 (stdlib only). Spec: /errsig. Gives results identical to
errsig.js for every input: the pattern table PATTERNS is the same text as ERRSIG_PATTERNS in
errsig.js (checked by the tests), lengths are counted in code points, lowercasing is never used.

Usage:  from errsig import errsig; sig, h = errsig(text)
        from errsig import errsig_levels; sig, h, coarse, ch = errsig_levels(text)
        from errsig import candidates; [(sig, h, coarse, ch, line), ...] = candidates(text, max=3)
        python3 errsig.py < out.txt      prints `<sig>\t<h>`
"""

import hashlib
import re
import sys

ERRSIG_VERSION = 3

MAX_SIG = 200     # code points in the whole sig
MAX_LINE = 4000   # code points kept of each raw line
MAX_MSG = 1000    # code points of the decisive text before normalization
MAX_LINES = 2000  # lines looked at: the first and last 1000 of longer outputs
MAX_QUOTED = 200  # code points inside one quoted value
MAX_CANDIDATES = 16  # v3: candidates() lists at most this many

# Path characters: same set as PC_JS in errsig.js; Python strings hold code points, so the astral
# planes are one range here where JS sees surrogate pairs.
PC_PY = r'A-Za-z0-9_.~@%+$\-\u0080-\u2017\u2020-\ud7ff\uf900-\U0010ffff'

VALUE_WORDS = 'user|role|password|database|relation|table|Table|column|schema|constraint|index|key|entry|thread|value|literal|near|host|hostname|parsing|string|file|File|directory|path|at'
NAME_WORDS = 'module|package|crate|library|named|from|import|command|requirement|dependency|plugin'

PATTERNS = {
    'loneSurr': r'[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]',
    'lineSplit': r'\r\n|\r|\n',
    'ansiCsi': r'\x1b\[[0-?]*[ -\/]*[@-~]',
    'ansiOsc': r'\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)',
    'ansiEsc': r'\x1b[()][A-Za-z0-9]|\x1b[@-Z\\-_]',
    'ansiLost': r'(?:\^\[)?\[[0-9]{1,3}(?:;[0-9]{1,3}){0,5}m',
    'ctrl': r'[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000]',
    'bom': r'\uFEFF',
    'pua': r'[\uE000-\uF8FF]',
    'rtrim': r' +$',
    'ltrim': r'^ +',
    'ciPrefix': r'^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?Z ?|#[0-9]+ [0-9]+\.[0-9]+ |[0-9]+\.[0-9]{3} |##\[(?:error|warning|notice|debug|group|endgroup)\]|::(?:error|warning|notice)(?: [^:]*)?::|[a-z0-9][a-z0-9_.\-]*-[0-9]+ +\| ){1,3}',
    'rustPanic': r"^thread \'[^\']*\'(?: \([0-9]+\))? panicked at ([^\n]*)$",
    'rustPanicOld': r"^\'([^\n]*)\', ([^ ]+:[0-9]+:[0-9]+)$",
    'rustPanicNew': r'^[^ ]+:[0-9]+:[0-9]+:$',
    'rustPanicLoc': r'^[^ ]+:[0-9]+:[0-9]+: ?',
    'goroutine': r'^goroutine [0-9]+ \[',
    'goPanic': r'^panic: ([^\n]*)$',
    'goFatal': r'^fatal error: ([^\n]*)$',
    'goSignal': r'^\[signal ',
    'pyTb': r'^Traceback \(most recent call last\):',
    'pyFile': r'^ *File "[^"]*", line [0-9]+',
    'pyExcAny': r'^[A-Za-z_][A-Za-z0-9_.]*(?:: |:$|$)',
    'pyExcStrict': r'^(?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*(?:Error|Exception|Exit|Interrupt|Iteration|Group)(?:: |:$|$)',
    'pytestE': r'^E +([^ ][^\n]*)$',
    'pytestSummary': r'^(?:FAILED|ERROR) [^ ]+ - ([^\n]+)$',
    'javaFrame': r'^at [A-Za-z_$][A-Za-z0-9_$.<>\/]*\((?:[^()]*\.(?:java|kt|scala|groovy|clj)(?::[0-9]+)?|Native Method|Unknown Source)\)',
    'javaThread': r'^Exception in thread "[^"]*" ',
    'javaCause': r'^Caused by: ',
    'javaExc': r'^(?:[A-Za-z_$][A-Za-z0-9_$]*\.)+[A-Za-z_$][A-Za-z0-9_$]*(?:Exception|Error|Throwable|Failure)(?:: |:$|$)',
    'tsc': r'(?:^|[^A-Za-z0-9_])error (TS[0-9]+): ([^\n]*)$',
    'rustc': r'^error\[(E[0-9]+)\]: ([^\n]*)$',
    'gcc': r'^([^ ][^\n]*?):[0-9]+(?::[0-9]+)?: (fatal error|error): ([^\n]*)$',
    'msvc': r'^([^ ][^\n]*?)\([0-9]+(?:,[0-9]+)?\) ?: (fatal error|error) ([A-Z]{1,3}[0-9]+): ([^\n]*)$',
    'msLink': r'^[^ ][^\n]*? ?: (?:fatal )?error ([A-Z]{1,7}[0-9]+): ([^\n]*)$',
    'msCodeC': r'^(?:LNK|C)[0-9]+$',
    'eslint': r'^[0-9]+:[0-9]+ +error +([^\n]*)$',
    'pyWarn': r'^[^ ][^\n]*?\.py:[0-9]+: ((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*):(?: ([^\n]*))?$',
    'eslintWarn': r'^[0-9]+:[0-9]+ +warning +([^\n]*)$',
    'spring': r'^APPLICATION FAILED TO START$',
    'springDesc': r'^Description:$',
    'goSum': r'^(verifying [^ ]+: checksum mismatch)$',
    'goBuild': r'^(?:\.\/)?([^ :]*\.go):[0-9]+(?::[0-9]+)?: ([^\n]*)$',
    'kotlin': r'^e: (?:file:\/\/)?([^ ]*\.kts?)(?::[0-9]+:[0-9]+ |: \([0-9]+, [0-9]+\): )([^\n]*)$',
    'linkUndef': r'undefined reference to ([^\n]*)$',
    'macLink': r'^Undefined symbols for architecture [^ :]+:$',
    'macSym': r'^("[^"]*"), referenced from:?$',
    'nodeFrame': r'^(?:at [^\n]*(?::[0-9]+:[0-9]+\)?|\(native\)|\(<anonymous>\))$|\u276F [^ ]+:[0-9]+:[0-9]+)',
    'nodeCtx': r'^(?:Node\.js v[0-9]|node:internal|node:[a-z_\/]+:[0-9]+$)',
    'nodeHdr': r'^(?:Uncaught (?:\(in promise\) )?)?(?:[A-Za-z_$][A-Za-z0-9_$]*\.)*(?:[A-Za-z_$][A-Za-z0-9_$]*(?:Error|Exception)|Error)(?: \[[A-Za-z0-9_]+\])?(?:: |:$|$)',
    'uncaught': r'^Uncaught (?:\(in promise\) )?',
    'nodeCause': r'^\[?cause\]?: ([^\n]*)$',
    'emptyMsg': r':$',
    'jestTitle': r'^\u25cf ',
    'pg': r'(?:^|[^A-Za-z0-9_])(ERROR|FATAL|PANIC):  (?! |Error installing |While executing gem)([^\n]*)$',
    'pgTool': r'^(?:psql|pg_dump|pg_restore|pg_ctl|createdb|dropdb): (?:error|fatal|FATAL): ',
    'mysql': r'^ERROR ([0-9]+) \(([0-9A-Z]{5})\)(?: at line [0-9]+)?: ([^\n]*)$',
    'mssql': r'^Msg ([0-9]+), Level [0-9]+, State [0-9]+',
    'oracle': r'(?:^|[^A-Za-z0-9_])(ORA-[0-9]{5}: [^\n]*)$',
    'sqliteCli': r'^(?:Error: (?:in prepare, |stepping, |near line [0-9]+: )?|Parse error(?: near line [0-9]+)?: |Runtime error(?: near line [0-9]+)?: )([^\n]*)$',
    'sqliteMsg': r'no such (?:table|column|function|module|collation)|constraint failed|syntax error|database is locked|unable to open database|readonly database|disk image is malformed|incomplete input',
    'sqliteCode': r' \([0-9]+\)$',
    'shNotFound1': r'^[^ :]+(?:: line [0-9]+)?: ([^ :][^:]*): command not found$',
    'shNotFound2': r'^(?:\/bin\/|\/usr\/bin\/)?(?:da|ba)?sh: [0-9]+: ([^\n]+): not found$',
    'shNotFound3': r'^zsh: command not found: ([^\n]+)$',
    'shNotFound4': r'^fish: Unknown command:? ([^\n]+)$',
    'shNotFound5': r"^\'([^\']+)\' is not recognized as an internal or external command",
    'shNotFound6': r"The term \'([^\']+)\' is not recognized as (?:the )?name of a cmdlet",
    'shGeneric': r'^(?:-?(?:ba|z|k|da|a)?sh|\/(?:usr\/)?bin\/(?:ba|z|k|da|a)?sh|(?:\/usr\/bin\/)?env|[^ :]+\.(?:sh|bash))(?:: line [0-9]+|: [0-9]+)?: (?!warning: )([^\n]+)$',
    'pipCtx': r"^(?:Collecting |Requirement already satisfied|Installing collected packages|Building wheels? for |Using cached |Looking in indexes|Obtaining |Preparing metadata|Getting requirements to build|Defaulting to user installation|ERROR: (?:Could not find a version|No matching distribution|ResolutionImpossible|Cannot install|Failed building wheel|Could not build wheels|Could not install packages|Invalid requirement|Double requirement|pip\'s dependency resolver)|error: (?:externally-managed-environment|subprocess-exited-with-error))",
    'pipResolver': r"^pip\'s dependency resolver does not currently take into account",
    'pipX': r'^\u00d7 ([^\n]+)$',
    'pipBlock': r'^\u2570\u2500> \[[0-9]+ lines? of output\]$',
    'pipBlockEnd': r'^\[end of output\]$',
    'npm': r'^npm (?:ERR!|error)(?: ([^\n]*))?$',
    'npmCode': r'^code ([^ ]+)$',
    'npmWrapper': r'^(?:ELIFECYCLE|[0-9]+)$',
    'npmField': r'^(?:code|errno|syscall|path|dest|file|cwd|command|signal|workspace|location|A complete log|Log files|Found: |While resolving|node_modules\/|Verbose|at |gyp info|gyp verb|Building: |$)',
    'npmGyp': r'^gyp ERR! stack (Error: [^\n]*)$',
    'npmRegistry': r'is not in this registry',
    'npm404': r'^404 +',
    'npmQuotedSpec': r"\'((?:@[^\/\' ]+\/)?[^@\' ]+)@[^\' ]*\'",
    'npmCategory': r'^[a-z0-9]+ (?=[A-Z])',
    'npmResolve': r'^Could not resolve dependency:$',
    'goTool': r'^go: (?!downloading |finding |extracting |upgraded |added |found |creating new go\.mod|to add module requirements|warning:)([^\n]+)$',
    'excHdr': r'^(?:Uncaught (?:\(in promise\) )?)?((?:[A-Za-z_$][A-Za-z0-9_$]*\.)*(?:[A-Za-z_$][A-Za-z0-9_$]*(?:Error|Exception|Exit|Interrupt|Iteration|Group)|Error|Exception)(?: \[[A-Za-z0-9_]+\])?)(?:: ([^\n]*)|:)?$',
    'rustCtx': r'^(?:--> [^ ]+\.rs:[0-9]+|Compiling [^ ]+ v[0-9]|Updating crates\.io index|Blocking waiting for file lock|location searched: |required by package \x60|= note: )|Cargo\.toml|\.rs:[0-9]+:[0-9]+|(?:^|[^A-Za-z0-9_])(?:rustc|cargo) ',
    'rustErr': r'^error: (?!could not compile|aborting due to)([^\n]+)$',
    'gradle': r'^\* What went wrong:$',
    'mvnError': r'^\[(?:ERROR|FATAL)\] ([^\n]+)$',
    'mvnInfo': r'^\[INFO\] |^\[ERROR\] (?:Failed to execute goal|BUILD FAILURE|[^\n]*\.java:\[[0-9]+,[0-9]+\])',
    'mvnJava': r'\.java:\[[0-9]+,[0-9]+\]',
    'mvnNoise': r'^(?:-> \[Help|Re-run Maven|To see the full stack|For more information about the errors|Help 1|COMPILATION ERROR :?$|$)',
    'strong': r'^(?:(?:error|Error|ERROR|fatal|Fatal|FATAL|FATAL ERROR|panic|E)(?:\[[A-Za-z0-9_ .:\/-]{0,40}\])?: |\[(?:ERROR|FATAL|error|fatal)\] |[A-Za-z0-9_.\/+-]+: (?:error|fatal|ERROR|FATAL|fatal error)(?:\[[A-Za-z0-9_ .:\/-]{0,40}\])?: |make(?:\[[0-9]+\])?: \*\*\* |\*\*\* [^\n]*\*\*\*|(?:free|malloc|realloc|calloc|munmap_chunk)\(\): |double free or corruption|==[0-9]+==ERROR: )',
    'errorish': r"(?:^|[^A-Za-z])(?:error|Error|ERROR|fatal|Fatal|FATAL|panic|exception|Exception|failed|Failed|FAILED|failure|Failure|denied|refused|not found|Not Found|cannot|Cannot|can\'t|Can\'t|couldn\'t|Couldn\'t|could not|Could not|unable|Unable|invalid|Invalid|Segmentation fault|Killed|Aborted|core dumped|No such file|Unhandled|unhandled|Uncaught|undefined|not accessible|not allowed|not permitted|forbidden|Forbidden|unauthorized|Unauthorized|does not exist|doesn\'t exist|not supported|mismatch|no matching|No matching|bad permissions|too open|incompatible|timed out|Timed out|No route to host|unreachable|Unreachable)",
    'hasLetter': r'[A-Za-z]',
    'warnish': r'^(?:[A-Za-z0-9_.\/\-]+: )?(?:Warning|warning|WARNING|WARN)(?:\[[A-Za-z0-9_ .:\/\-]{0,40}\])?:? ',
    'prompt': r'^\$ ',
    'noise': r'^(?:(?:Error: )?Process completed with exit code [0-9]+|make(?:\[[0-9]+\])?: \*\*\* [^\n]*Error [0-9]+$|ninja: build stopped|(?:error )?Command failed with exit code|npm (?:ERR!|error) |ELIFECYCLE|collect2: error: ld returned|clang(?:\+\+)?: error: linker command failed|error: could not compile|error: aborting due to|For more information about this error|The above exception was|During handling of the above|[0-9]+ errors? generated|Found [0-9]+ errors?|info Visit|Exited with code|exit status [0-9]+$|FAIL$|FAILED$|Tests?: |Test Suites: |Error: Command failed with exit code|\u2716 [0-9]+ problems? )',
    'toolC': r'^(?:[^ :]*\/)?(?:cc1(?:plus)?|gcc|g\+\+|clang(?:\+\+)?|ld|collect2|cmake|make)(?:\[[0-9]+\])?: ',
    'toolRust': r'^(?:cargo|rustc|rustup): |^Blocking waiting for file lock',
    'toolNpm': r"^(?:ERR_PNPM_[A-Z0-9_]+|error (?:An unexpected error occurred|Couldn\'t find package|Command failed)|npm (?:WARN|warn) )",
    'toolJava': r'^(?:java|javac|mvn|gradle|kotlinc): ',
    'toolNode': r'^(?:node|npx|tsx|deno|bun|JavaScript heap out of memory|FATAL ERROR: [^\n]*JavaScript heap|Module not found: )',
    'toolPy': r'^python[0-9.]*: ',
    'nodePhr': r'Cannot read propert|Cannot set propert|is not a function|is not a constructor|is not iterable|is not defined|Unexpected token|Unexpected identifier|Unexpected end of|Unexpected string|Unexpected number|Invalid or unexpected token|Cannot use import statement|Cannot destructure|Assignment to constant|circular structure|await is only valid|missing \) after|Cannot access |is not valid JSON|fetch failed|Failed to fetch|Cannot convert undefined|Invalid regular expression|has already been declared|Cannot mix BigInt|Reduce of empty array|Unexpected reserved word|Illegal return|Invalid left-hand side|Cannot redefine property',
    'pyPhr': r"unsupported operand type|positional argument|keyword argument|object is not subscriptable|object is not callable|object is not iterable|can only concatenate|can\'t multiply sequence|must be str|must be real number|unhashable type|not supported between instances|argument of type|object cannot be interpreted|invalid syntax|unexpected EOF while parsing|was never closed|unterminated string literal|expected \':\'|invalid character|unmatched|unexpected indent|Missing parentheses in call|cannot assign to|f-string|NoneType|takes [0-9]+ positional|got an unexpected keyword|object does not support",
    'protect': r'((?<![A-Za-z0-9_])(?:exit code|exit status|exited with code|exited with status|returned non-zero exit status|exit|status code|status|Errno|errno|WinError|error code|error|Error|signal|HTTP Error|HTTP\/[0-9.]+|SQLSTATE|sqlstate|Msg|ERROR|Exited)(?::? |\[| \())(-?[0-9]+|0x[0-9A-Fa-f]+|[0-9A-Z]{5}(?=\]))(?![A-Za-z0-9_]|\.[0-9])',
    'protectOpenssl': r'(?<![A-Za-z0-9_])(error:)([0-9A-F]{8})(?=:)',
    'protectHttp': r'(?<![A-Za-z0-9_.])([1-5][0-9][0-9])(?= (?:Not Found|Forbidden|Unauthorized|Bad Request|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout|Too Many Requests|Conflict|Method Not Allowed|Not Acceptable|Payload Too Large|Unprocessable Entity|Client Error|Server Error|Gone|Precondition Failed|Request Timeout|Proxy Authentication))',
    'protectSqlState': r'(?<![A-Za-z0-9_])(\([0-9A-Z]{5}\)|[0-9][0-9A-Z]{4}(?=: ))',
    'url': r'''(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]*:\/\/[^ \'"<>()\[\]{}\x60\u2018\u2019\u201c\u201d]+''',
    'urlTrail': r'[.,;:!?]+$',
    'npmReg': r'^https?:\/\/registry\.(?:npmjs\.org|yarnpkg\.com)\/((?:@[^\/]+(?:\/|%2[fF]))?[^\/@]+)',
    'pct2f': r'%2[fF]',
    'onlyShield': r'^\uE000[\uE100-\uF7FF]\uE001$',
    'email': r'(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9_\-])',
    'quote': r'''(?:((?<![A-Za-z0-9_])(?:user|role|password|database|relation|table|Table|column|schema|constraint|index|key|entry|thread|value|literal|near|host|hostname|parsing|string|file|File|directory|path|at|module|package|crate|library|named|from|import|command|requirement|dependency|plugin|name|variable) )|(= ?|@)|(: ))?(?<![A-Za-z0-9_])(?:\'(\[[^\]\n]*\])\'|\'((?:[^\'\n]|\'(?=[A-Za-z0-9_]))*)\'|"([^"\n]*)"|\x60([^\x60\'\n]*)[\x60\']|\u2018([^\u2019\n]*)\u2019|\u201c([^\u201d\n]*)\u201d)(?![A-Za-z0-9_])''',
    'quoteTrail': r'^[.?!)\]]*$',
    'strongPath': r'^(?:~?\/|\.\.?[\/\\]|[A-Za-z]:[\/\\]|\\\\)',
    'weakPathRel': r'^[^ ]*[\/\\][^ \/\\]*\.(?:py|pyi|pyx|ipynb|js|mjs|cjs|jsx|ts|tsx|mts|cts|vue|svelte|json|jsonc|json5|yaml|yml|toml|ini|cfg|conf|env|lock|txt|md|rst|csv|tsv|xml|html|htm|css|scss|sass|less|rs|go|java|kt|kts|scala|groovy|gradle|class|jar|war|c|cc|cpp|cxx|h|hh|hpp|hxx|swift|rb|php|cs|fs|sh|bash|zsh|ps1|bat|cmd|sql|db|sqlite|sqlite3|log|wasm|zip|tar|gz|tgz|whl|egg|pem|crt|proto|so|dylib|dll|exe|bin)$',
    'weakPathBare': r'^[A-Za-z0-9_@+\-][A-Za-z0-9_.@+\-]*\.(?:py|pyi|pyx|ipynb|js|mjs|cjs|jsx|ts|tsx|mts|cts|vue|svelte|json|jsonc|json5|yaml|yml|toml|ini|cfg|conf|env|lock|txt|md|rst|csv|tsv|xml|html|htm|css|scss|sass|less|rs|go|java|kt|kts|scala|groovy|gradle|class|jar|war|c|cc|cpp|cxx|h|hh|hpp|hxx|swift|rb|php|cs|fs|sh|bash|zsh|ps1|bat|cmd|sql|db|sqlite|sqlite3|log|wasm|zip|tar|gz|tgz|whl|egg|pem|crt|proto|so|dylib|dll|exe|bin)$',
    'wordChar': r'^[A-Za-z0-9_]$',
    'identLike': r'^[A-Za-z_$@.:][A-Za-z0-9_$@.\/:+<>&*()\[\]#\-]{0,99}$',
    'nested': r'^[A-Za-z][^ ]* +[^ ]+ +[^ ]',
    'path': r'(?<![{PC}\/\\\uE000-\uF8FF])(?:[A-Za-z]:[\\\/][{PC}\\\/]*|\\\\[{PC}][{PC}\\]*|\.\.?\\[{PC}][{PC}\\]*|(?:~|\.\.?)?\/[{PC}][{PC}\/]*|[{PC}]+(?:[\/\\][{PC}]+)+|[{PC}]+\.(?:py|pyi|pyx|ipynb|js|mjs|cjs|jsx|ts|tsx|mts|cts|vue|svelte|json|jsonc|json5|yaml|yml|toml|ini|cfg|conf|env|lock|txt|md|rst|csv|tsv|xml|html|htm|css|scss|sass|less|rs|go|java|kt|kts|scala|groovy|gradle|class|jar|war|c|cc|cpp|cxx|h|hh|hpp|hxx|swift|rb|php|cs|fs|sh|bash|zsh|ps1|bat|cmd|sql|db|sqlite|sqlite3|log|wasm|zip|tar|gz|tgz|whl|egg|pem|crt|proto|so|dylib|dll|exe|bin)(?:(?::[0-9]+){1,3}|\([0-9]+(?:,[0-9]+)?\)|:\[[0-9]+,[0-9]+\])(?![0-9]))(?:(?::[0-9]+){1,3}|\([0-9]+(?:,[0-9]+)?\)|:\[[0-9]+,[0-9]+\])?(?:\?[A-Za-z0-9_.~%+=&;\-]*)?',
    'pathAbs': r'^(?:~|\.\.?[\/\\]|\/|[A-Za-z]:[\/\\]|\\\\)',
    'hasLoc': r'(?:(?::[0-9]+){1,3}|\([0-9]+(?:,[0-9]+)?\)|:\[[0-9]+,[0-9]+\])$',
    'ext': r'\.(?:py|pyi|pyx|ipynb|js|mjs|cjs|jsx|ts|tsx|mts|cts|vue|svelte|json|jsonc|json5|yaml|yml|toml|ini|cfg|conf|env|lock|txt|md|rst|csv|tsv|xml|html|htm|css|scss|sass|less|rs|go|java|kt|kts|scala|groovy|gradle|class|jar|war|c|cc|cpp|cxx|h|hh|hpp|hxx|swift|rb|php|cs|fs|sh|bash|zsh|ps1|bat|cmd|sql|db|sqlite|sqlite3|log|wasm|zip|tar|gz|tgz|whl|egg|pem|crt|proto|so|dylib|dll|exe|bin)$',
    'header': r'\.(?:h|hh|hpp|hxx)$',
    'shlib': r'^lib[^\/]*\.so(?:\.[0-9]+)*$|\.(?:dll|dylib)$',
    'slashes': r'[\\\/]+',
    'trailDots': r'\.+$',
    'cargo': r'\/registry\/src\/[^\/]+\/([A-Za-z0-9_\-]+?)-[0-9]+\.[0-9]+\.[0-9]+[^\/]*(?:\/([^\n]*))?$',
    'gomod': r'\/pkg\/mod\/([^@]+)@[^\/]*(?:\/([^\n]*))?$',
    'sqlIdent1': r'(no such (?:table|column|index|savepoint): )[^ ,;]+',
    'sqlIdent2': r'(constraint failed: )[^ ,;]+(?:, [^ ,;]+)*',
    'sqlIdent3': r'(?<![A-Za-z0-9_])(table )[^ ,;]+( has no column named )[^ ,;]+',
    'sqlIdent4': r'(?<![A-Za-z0-9_])(table )[^ ,;]+( already exists)',
    'enotfound': r'(?<![A-Za-z0-9_])((?:ENOTFOUND|EAI_AGAIN) )[A-Za-z0-9.\-]+(?![A-Za-z0-9_.\-])',
    'uuid': r'(?<![A-Za-z0-9_])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![A-Za-z0-9_])',
    'tsIso': r'(?<![0-9])[0-9]{4}[\-\/][0-9]{2}[\-\/][0-9]{2}(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]+)?)?(?:Z| ?UTC| ?[+\-][0-9]{2}:?[0-9]{2})?)?(?![0-9])',
    'tsMon': r'(?<![A-Za-z0-9])(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? )?(?:[0-9]{1,2} )?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (?:[0-9]{1,2},? )?(?:[0-9]{4} )?[0-9]{1,2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]+)?)?(?: [0-9]{4})?(?: ?(?:GMT|UTC)(?:[+\-][0-9]{4})?)?(?![0-9])',
    'tsTime': r'(?<![A-Za-z0-9:.])[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]+)?Z?(?![0-9])',
    'ip6': r'(?<![A-Za-z0-9_:.])\[?(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){7}|(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){0,6})?::(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){0,6})?)(?:%[A-Za-z0-9]+)?\]?(?![A-Za-z0-9_])',
    'ip6Port': r'^[^\[]*::[^\n]*:([0-9]{2,5})$',
    'ip4': r'(?<![A-Za-z0-9_.])(?:[0-9]{1,3}\.){3}[0-9]{1,3}(?:\/[0-9]{1,2})?(?![A-Za-z0-9_]|\.[0-9])',
    'host': r'(?<![A-Za-z0-9_.@\/\-])(?:[A-Za-z0-9\-]+\.){2,}(?:com|net|org|io|dev|app|ai|cloud|internal|local|co|us|eu|de|uk|example|corp|lan|intranet|localdomain)(?![A-Za-z0-9_.\-])',
    'hex0x': r'(?<![A-Za-z0-9_])0[xX][0-9a-fA-F]+(?![A-Za-z0-9_])',
    'hexBare': r'(?<![A-Za-z0-9_])[0-9a-fA-F]{7,}(?![A-Za-z0-9_])',
    'hasDigit': r'[0-9]',
    'hasHexLetter': r'[a-fA-F]',
    'randId': r'(?<![A-Za-z0-9_\-])[A-Za-z0-9_\-]{20,}(?![A-Za-z0-9_\-])',
    'lower': r'[a-z]',
    'upper': r'[A-Z]',
    'alnumFlip': r'(?=[0-9][A-Za-z]|[A-Za-z][0-9])',
    'size': r'(?<![A-Za-z0-9_.])[0-9]+(?:\.[0-9]+)? ?(?:[KMGTP]i?B|[kKMG]B|bytes|B)(?![A-Za-z0-9_])',
    'dur': r'(?<![A-Za-z0-9_.])[0-9]+(?:\.[0-9]+)?(?:(?:ns|us|\u00b5s|ms|s|m|h)(?:[0-9]+(?:\.[0-9]+)?(?:ns|us|\u00b5s|ms|s|m|h))*| ?(?:milliseconds?|seconds?|secs?|minutes?|mins?|hours?|ms))(?![A-Za-z0-9_])',
    'ver': r'(?<![A-Za-z0-9_.])(?:v?[0-9]+\.[0-9]+\.[0-9]+(?:\.[0-9]+)*(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*|\.?(?:a|b|rc|alpha|beta|pre|post|dev)[0-9]*)?(?:\+[0-9A-Za-z.]+)?|v[0-9]+\.[0-9]+|(?<=[=@^~<>])[0-9]+\.[0-9]+)(?![A-Za-z0-9_])',
    'num': r'(?<![A-Za-z0-9_.])(?<![A-Za-z]-)[0-9]+(?:\.[0-9]+)*(?![A-Za-z0-9_])',
    'spaces': r' {2,}',
    'runs': r'(<(?:n|v|s|hex|ts|ip|uuid|id|size|dur|url|email|host|path|repo|image|module|user|container|network|volume|ref)>)(?:(?:, ?| )\1)+',
    'shieldTok': r'\uE000([\uE100-\uF7FF])\uE001',
    # v2: the line that states the error, tags of one-line outputs, names that a template carries,
    # and the coarse signature.
    'goExit': r'^exit status [0-9]+$',
    'goFatalMsg': r'^(?:all goroutines are asleep|concurrent map )',
    'cLine': r"^(?:fatal error|error): [^\n]*(?:\.(?:h|hh|hpp|hxx)[\'\u2019]?(?:: No such file or directory| file not found)|undeclared \(first use|implicit declaration of function|unknown type name|conflicting types for|has no member named|too (?:few|many) arguments to function|use of undeclared identifier|lvalue required|storage size of)",
    'javaLauncher': r'^(?:Error: )?(Could not find or load main class [^\n]*|Unable to access jarfile [^\n]*|Invalid or corrupt jarfile [^\n]*|Main method not found in class [^\n]*|LinkageError occurred while loading main class [^\n]*|JavaFX runtime components are missing[^\n]*)$',
    'webpackNF': r'^Module not found: (?:Error: )?([^\n]*)$',
    'strictTpl': r'^(?:rust:error\[E[0-9]+\]: |ts:error TS[0-9]+: |c:(?:fatal error|error)(?: C[0-9]+)?: |java:(?:error: |[^ :]*NullPointerException: )|go:(?!panic: |fatal error: |go: |verifying |"[^"]*" imported))',
    'pyNameTail': r'^ (?:is not defined|referenced before assignment|where it is not associated|is assigned to before global declaration)',
    'dockerGot': r'^Got (?=permission denied while trying to connect to the Docker daemon)',
    'httpVerb': r'(?<![A-Za-z0-9_])(?:Get|Head|Post|Put|Patch|Delete|Options) (?="[a-z][a-z0-9+.\-]*:\/\/)',
    'pctPath': r'(^|[^A-Za-z0-9_%])(?:%2[Ff][A-Za-z0-9._~\-]+)+',
    'bare1': r'(undefined: )[A-Za-z_$][A-Za-z0-9_$.]*()',
    'bare2': r'(declared and not used: )[A-Za-z_][A-Za-z0-9_]*()',
    'bare3': r'(^|[^A-Za-z0-9_.$<>])[A-Za-z_][A-Za-z0-9_.]*( declared and not used| declared but not used| redeclared in this block| undefined \(type )',
    'bare4': r'(undefined \(type )[^ ]+( has no field or method )',
    'bare5': r'(has no field or method )[A-Za-z_][A-Za-z0-9_]*()',
    'bare6': r'((?:too many|not enough) arguments in call to )[A-Za-z_][A-Za-z0-9_.]*()',
    'bare7': r'(cannot use )[^ ]+( \((?:variable|constant|value|untyped)[^)]*\) as )',
    'bare8': r'(variable )[A-Za-z_$][A-Za-z0-9_$]*( might not have been initialized| is already defined in )',
    'bare9': r'(is already defined in (?:method|class|constructor|interface) )[^ ,;]+()',
    'bare10': r'(incompatible types: )[A-Za-z_$][A-Za-z0-9_$.<>\[\],?]*( cannot be converted to )',
    'bare11': r'( cannot be converted to )[A-Za-z_$][A-Za-z0-9_$.<>\[\],?]*()',
    'bare12': r'(class )[A-Za-z_$][A-Za-z0-9_$]*( is public, should be declared in a file named )',
    'bare13': r'(should be declared in a file named )[^ ]+()',
    'bare14': r'(non-static (?:variable|method) )[^ ]+( cannot be referenced from a static context)',
    'bare15': r'(^|[^A-Za-z0-9_.$<>])[A-Za-z_$][A-Za-z0-9_$.]*( is not abstract and does not override abstract method )',
    'bare16': r'(does not override abstract method )[^ ]+( in )',
    'bare17': r'(abstract method <s> in )[A-Za-z_$][A-Za-z0-9_$.<>]*()',
    'bare18': r'(method )[A-Za-z_$][A-Za-z0-9_$]*( in (?:class|enum|interface) [^ ]+ cannot be applied to given types)',
    'bare19': r'( in (?:class|enum|interface) )[A-Za-z_$][A-Za-z0-9_$.<>]*( cannot be applied to given types)',
    'bare20': r'(main class )[A-Za-z_$][A-Za-z0-9_$.\/]*()',
    'bare21': r'((?:Unable to access|Invalid or corrupt) jarfile )[^ ]+()',
    'bare22': r'(Main method not found in class )[^ ,]+()',
    'bare23': r'(Unresolved reference:? )[A-Za-z_][A-Za-z0-9_]*()',
    'bare24': r'([Dd]id you mean:? )[^?]+(\?)',
    'coarseHead': r"^[^ \':]+(?: [^ \':]+){0,2}: ",
    'coarseQuote': r"(?<![A-Za-z0-9_])\'[^\'\n]*\'(?![A-Za-z0-9_])",
    'coarsePkg': r"((?:node_modules|site-packages|cargo|gomod|<registry>)\/)[^ ,;:)\'\]]+",
    'coarseDotted': r'(?<![A-Za-z0-9_.\-\/<@])[A-Za-z_@][A-Za-z0-9_\-]*(?:[.\/][A-Za-z0-9_\-]+)+(?![A-Za-z0-9_.\-\/])',
    'coarseAt': r'(?<![A-Za-z0-9_.\-\/])@?[A-Za-z0-9_.\-]+(?:\/[A-Za-z0-9_.\-]+)?(?=@<|[=<>~!]=<)',
    'coarseCmd': r'^(command not found: )[^ ]+',
    'coarseBare': r'((?<![A-Za-z0-9_])(?:[Uu]nable to locate package|No package|No match for argument:|Unable to find a match:|No available formula with the name|No formulae found for|[Nn]o installation candidate for|[Pp]ackage) )(?!(?:<|not |is |has |was |does |named ))[A-Za-z0-9_@][A-Za-z0-9_.+\-\/@]*(?= (?:is not available|has no installation candidate|available)|$)',
    # v3: prompts, lines that never state the error, wrappers, git and kubectl, private names.
    'promptLine': r'^(?:\([A-Za-z0-9_.\-]+\) )?(?:[A-Za-z0-9_.\-]+@[A-Za-z0-9_.\-]+(?::[^ $#]*)?[$#](?: |$)|\[[A-Za-z0-9_.\-]+@[A-Za-z0-9_.\-]+(?: [^\]]*)?\][$#](?: |$)|[A-Za-z0-9_.\-]+@[A-Za-z0-9_.\-]+ [^ %]+ %(?: |$)|PS [A-Za-z]:\\[^>]*>(?: |$)|[A-Za-z]:\\[^> ]*>(?=[A-Za-z])|\u279c +[^ ]+ (?:git:\([^)]*\) )?(?:\u2717 )?)',
    'skip': r'^(?:\$(?: |$)|> [^ ]+@[^ ]+ [^ ]+|(?:hint|Hint|HINT|tip|Tip|TIP): |(?:NAMESPACE +)?NAME +[A-Z][A-Z\-]*(?: +[A-Z][A-Z\-()]*)+$|CONTAINER ID +IMAGE|REPOSITORY +TAG|Unable to find image [^ ]+ locally$|[^ :]+: Pulling from |[0-9a-f]{12}: (?:Pulling fs layer|Waiting|Verifying Checksum|Download complete|Pull complete|Already exists|Downloading|Extracting)|Digest: sha256:|Status: (?:Downloaded newer image|Image is up to date)|(?:remote: )?(?:Enumerating|Counting|Compressing|Writing|Receiving|Resolving) (?:objects|deltas):|Delta compression using|Total [0-9]+ \(delta|(?:Uploading|Downloading) LFS objects:|[0-9]{1,3}% |\[[=#> .\-]*\] +[0-9]{1,3}%|To (?:[A-Za-z][A-Za-z0-9+.\-]*:\/\/|[^ ]+@|[^ :\/]+:)[^ ]*$|[^ ]+ +[0-9]+\/[0-9]+ +[A-Za-z][A-Za-z0-9:\/]* +[0-9]+|[0-9a-f]{12} +[^ ]+ +)',
    'wrap': r'^(?:\[(?:ERROR|FATAL|INFO)\] *)* *(?:error: failed to push some refs to |error: external filter [^\n]* failed|fatal: [^\n]*: smudge filter [^ ]+ failed|Some problems were encountered while processing the POMs:?$|The build could not read [0-9]+ projects?|The project [^\n]* has [0-9]+ errors?$|(?:ERROR: )?failed to solve: process [^\n]* did not complete successfully|ERROR: Job failed: |(?:Error: )?The process \'[^\']*\' failed with exit code [0-9]+|FAILURE: Build failed with an exception|BUILD FAIL(?:URE|ED)|(?:Error: )?Command failed: |error: [Rr]ecipe \x60[^\x60]*\x60 failed|=> ERROR \[|[^ ]+ exited with code [0-9]+$|[\u2718\u2716] Container [^ ]+ +Error|fatal: Could not read from remote repository\.?$)',
    'gitBatch': r'(?:^|: )batch response: ([^\n]+)$',
    'gitRemote': r'^remote: error: (GH[0-9]{3}: [^\n]*)$',
    'gitSmudge': r'(?:^|: )Smudge error: Error downloading [^ ]+ \([0-9a-f]+\): ([^\n]+)$',
    'gitRejected': r'^! \[((?:remote )?rejected)\] +[^ ]+ -> [^ ]+ \(([^\n]*)\)$',
    'kubeHdr': r'^NAME +READY +STATUS +RESTARTS +AGE',
    'kubeRow': r'^[^ ]+ +[0-9]+\/[0-9]+ +([A-Za-z][A-Za-z0-9:\/]*) +[0-9]+',
    'kubeOk': r'^(?:Running|Completed|Succeeded)$',
    'gitScp': r'(?<![A-Za-z0-9_.%+\-\/@:])(?:[A-Za-z0-9_.\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*:(?!\/)[A-Za-z0-9_.~\-]+\/[A-Za-z0-9_.~\/\-]*[A-Za-z0-9_\-]|[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+:(?!\/)[A-Za-z0-9_.~\-]+\/[A-Za-z0-9_.~\/\-]*\.git)(?![A-Za-z0-9_\/\-])',
    'imageReg': r'(?<![A-Za-z0-9_.\-\/@])(?:(?:[a-z0-9\-]+\.)*(?:ghcr\.io|docker\.io|quay\.io|gcr\.io|pkg\.dev|azurecr\.io|amazonaws\.com|registry\.gitlab\.com|public\.ecr\.aws)|registry(?:\.[a-z0-9\-]+)+|localhost)(?::[0-9]+)?\/[A-Za-z0-9_.\-]+(?:\/[A-Za-z0-9_.\-]+)*(?::[A-Za-z0-9_.\-]+)?(?:@sha256:[0-9a-f]+)?',
    'repoCtx': r'(?<![A-Za-z0-9_])((?:[Rr]epository|[Rr]epo|Permission to|with the name) [\'"\x60]?)[A-Za-z0-9_.\-]+\/[A-Za-z0-9_.\-]+',
    'repoGit': r'(?<![A-Za-z0-9_.%+\-\/@:])[A-Za-z0-9_.\-]+\/[A-Za-z0-9_.\-]+\.git(?![A-Za-z0-9_\-])',
    'gitRef': r'(?<![A-Za-z0-9_\/])(refs\/(?:heads|tags|remotes)\/)[A-Za-z0-9_.\/\-]*[A-Za-z0-9_\-]',
    'gitRefspec': r'(?<![A-Za-z0-9_])((?:src refspec|pathspec) [\'"]?)[A-Za-z0-9_.\/\-]*[A-Za-z0-9_\-]',
    'gitIdent': r'(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.\(none\)',
    'imageFor': r'(?<![A-Za-z0-9_])((?:pull access denied for|manifest for|No such image:) )(?!linux\/|windows\/)[a-z0-9][a-z0-9._\-]*(?:\/[a-z0-9][a-z0-9._\-]*)*(?::[A-Za-z0-9_.\-]+)?(?:@sha256:[0-9a-f]+)?(?=[ ,:]|$)',
    'imageCtx': r'(?<![A-Za-z0-9_])((?:[Ii]mage|reference|pulling|failed to solve:) [\'"]?)[a-z0-9][a-z0-9._\-]*(?:(?:\/[a-z0-9][a-z0-9._\-]*)+(?::[A-Za-z0-9_.\-]+)?|:[A-Za-z0-9_.\-]+)(?:@sha256:[0-9a-f]+)?(?![A-Za-z0-9_.\-\/])',
    'modPath': r'(?<![A-Za-z0-9_.\-\/@:])((?:[a-z0-9\-]+\.)+[a-z]{2,})(?:\/[A-Za-z0-9_.~\-]+)+',
    'modCtx': r'(?:module|package|packages|import|imports|imported by|requires?|get|install|replace|reading) [\'"\x60(]?$',
    'hostCtx': r'(?<![A-Za-z0-9_])((?:(?:[Cc]ould not|[Uu]nable to) resolve host(?:name)?:?|connect to host|[Uu]nknown host|UnknownHostException:) [\'"]?)(?=[0-9.]*[A-Za-z\-])[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*',
    'hostLookup': r'(?<![A-Za-z0-9_])(lookup )(?=[0-9.]*[A-Za-z\-])[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*(?= on |: )',
    'userDenied': r'(?<![A-Za-z0-9_])(denied to )[A-Za-z0-9_](?:[A-Za-z0-9_.\-]*[A-Za-z0-9_])?(?=[.,;:]?(?: |$))',
    'userSudo': r'^((?:sudo: )?)[A-Za-z0-9_](?:[A-Za-z0-9_.\-]*[A-Za-z0-9_])?( is not in the sudoers file)',
    'userSu': r'(?<![A-Za-z0-9_])([Uu]ser )[A-Za-z0-9_](?:[A-Za-z0-9_.\-]*[A-Za-z0-9_])?( does not exist)',
    'composeCtr': r'(?<![A-Za-z0-9_])((?:[Cc]ontainer|[Cc]ontainer name|on endpoint):? [\'"\/]*)(?=[0-9]*[a-z])[a-z0-9][a-z0-9.\-]*-[a-z0-9][a-z0-9.\-]*-[0-9]+(?![A-Za-z0-9_.\-\/])',
    'composeCtr2': r'(?<![A-Za-z0-9_.\-\/@:<])(?=[0-9]*[a-z])[a-z0-9][a-z0-9.\-]*-[a-z0-9][a-z0-9.\-]*-[0-9]+(?![A-Za-z0-9_.\-\/])(?= exited with code| is unhealthy| +Error| +(?:Started|Starting|Created|Creating|Stopped|Stopping|Running|Healthy|Waiting|Removed|Removing))',
    'composeNet': r'(?<![A-Za-z0-9_.\-\/@:<])[A-Za-z0-9][A-Za-z0-9_.\-]*_default(?![A-Za-z0-9_.\-])',
    'composeCtx': r'(?<![A-Za-z0-9_])([Nn]etwork|[Vv]olume)( [\'"]?)[A-Za-z0-9][A-Za-z0-9.]*[_\-][A-Za-z0-9_.\-]*',
}

R = {k: re.compile(v.replace('{PC}', PC_PY)) for k, v in PATTERNS.items()}

WELL_KNOWN = set(
    ('package.json package-lock.json npm-shrinkwrap.json tsconfig.json jsconfig.json yarn.lock pnpm-lock.yaml '
     '.npmrc .nvmrc .env .babelrc babel.config.js webpack.config.js vite.config.ts vite.config.js '
     'jest.config.js .eslintrc.json eslint.config.js Cargo.toml Cargo.lock go.mod go.sum pyproject.toml '
     'requirements.txt setup.py setup.cfg Pipfile Pipfile.lock poetry.lock manage.py pom.xml build.gradle '
     'build.gradle.kts settings.gradle gradlew Makefile CMakeLists.txt Dockerfile docker-compose.yml '
     'docker-compose.yaml compose.yaml Gemfile Gemfile.lock composer.json .gitignore .gitmodules').split(' '))
VALUE_SET = set(VALUE_WORDS.split('|'))
NAME_SET = set(NAME_WORDS.split('|'))
# v3: hosts whose module paths are public; a module path under any other host is <module>.
PUBLIC_HOSTS = set(
    ('github.com gitlab.com bitbucket.org golang.org google.golang.org gopkg.in go.uber.org k8s.io sigs.k8s.io '
     'cloud.google.com go.opentelemetry.io go.etcd.io honnef.co gotest.tools modernc.org gorm.io go.mongodb.org '
     'gocloud.dev mvdan.cc rsc.io filippo.io nhooyr.io entgo.io dario.cat gonum.org go.starlark.net').split(' '))
BARE = ['bare%d' % i for i in range(1, 25)]
JAVA_PREFIX = set('java javax jakarta org com io net kotlin android scala groovy'.split(' '))
NODE_ONLY = set(
    'Error RangeError ReferenceError EvalError URIError AggregateError InternalError AbortError FetchError AxiosError SqliteError DOMException ZodError'.split(' '))
PY_ONLY = set(
    ('BaseException Exception ArithmeticError AssertionError AttributeError BlockingIOError BrokenPipeError BufferError '
     'ChildProcessError ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError EOFError '
     'EnvironmentError FileExistsError FileNotFoundError FloatingPointError GeneratorExit IOError ImportError '
     'IndentationError IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError '
     'ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError OverflowError PermissionError '
     'ProcessLookupError RecursionError RuntimeError StopIteration StopAsyncIteration SystemError SystemExit TabError '
     'TimeoutError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError ValueError '
     'ZeroDivisionError ExceptionGroup BaseExceptionGroup JSONDecodeError').split(' '))
EXT_TAG = {
    'c': 'c', 'cc': 'c', 'cpp': 'c', 'cxx': 'c', 'c++': 'c', 'h': 'c', 'hh': 'c', 'hpp': 'c', 'hxx': 'c', 'm': 'c', 'mm': 'c', 'cu': 'c', 'ino': 'c',
    'java': 'java', 'kt': 'java', 'kts': 'java', 'scala': 'java', 'groovy': 'java',
    'rs': 'rust', 'go': 'go', 'ts': 'ts', 'tsx': 'ts', 'mts': 'ts', 'cts': 'ts',
    'js': 'node', 'mjs': 'node', 'cjs': 'node', 'jsx': 'node', 'py': 'py', 'pyi': 'py', 'pyx': 'py', 'sql': 'sql', 'sh': 'sh', 'bash': 'sh',
}

_SURR = re.compile('[\ud800-\udfff]')
_PAIR = re.compile('[\ud800-\udbff][\udc00-\udfff]')


def _fix_surrogates(s):
    # JS sees a high+low surrogate pair as one char; a lone surrogate becomes U+FFFD in both.
    if not _SURR.search(s):
        return s
    s = _PAIR.sub(lambda m: chr(0x10000 + ((ord(m.group(0)[0]) - 0xD800) << 10) + (ord(m.group(0)[1]) - 0xDC00)), s)
    return _SURR.sub('\ufffd', s)


def _cp_cut(s, n):
    return s if len(s) <= n else s[:n]


def _sub(name, repl, s):
    return R[name].sub(repl, s)


# ---------------------------------------------------------------------------------------------
# Step 1: lines.
# ---------------------------------------------------------------------------------------------

def _to_lines(text):
    s = _fix_surrogates(text)
    lines = R['lineSplit'].split(s)
    if len(lines) > MAX_LINES:
        lines = lines[:MAX_LINES // 2] + lines[len(lines) - MAX_LINES // 2:]
    return [l for l in (_clean_line(x) for x in lines) if l != '']


def _clean_line(l):
    l = _cp_cut(l, MAX_LINE)
    if '\x1b' in l:
        l = _sub('ansiEsc', '', _sub('ansiCsi', '', _sub('ansiOsc', '', l)))
    if 'm' in l:
        l = _sub('ansiLost', '', l)
    l = _sub('pua', '\ufffd', _sub('bom', '', _sub('ctrl', ' ', l)))
    l = R['rtrim'].sub('', l, count=1)
    l = R['ciPrefix'].sub('', l, count=1)
    # v3: a shell prompt becomes `$ `.
    return R['rtrim'].sub('', R['promptLine'].sub('$ ', l, count=1), count=1)


# ---------------------------------------------------------------------------------------------
# Step 2: the decisive line (first matching rule wins; see the spec for the order).
# ---------------------------------------------------------------------------------------------

def _next_non_empty(T, i):
    for j in range(i + 1, len(T)):
        if T[j] != '':
            return T[j]
    return ''


def _m(name, s):
    return R[name].search(s)


def _pick(L):
    T = [R['ltrim'].sub('', l, count=1) for l in L]
    n = len(T)

    # 1. Rust panic.
    for i in range(n):
        m = _m('rustPanic', T[i])
        if not m:
            continue
        rest = m.group(1)
        o = _m('rustPanicOld', rest)
        at = [i]
        if o:
            msg = o.group(1)
        elif _m('rustPanicNew', rest):
            msg = _next_non_empty(T, i)
            at = [i, i + 1]
        elif rest.startswith("'"):
            msg = rest[1:]
        else:
            msg = R['rustPanicLoc'].sub('', rest, count=1)
        return _r('rust', 'panicked: ' + msg, at)

    # 2. Go panic / runtime fatal error.
    goroutine = any(_m('goroutine', t) for t in T)
    for i in range(n):
        # v2: a Go panic alone (one line, or with only `exit status N` after it) is Go's too.
        alone = n == 1 or (n == 2 and bool(_m('goExit', T[1 - i])))
        m = _m('goPanic', T[i])
        if m and (goroutine or alone or m.group(1).startswith('runtime error: ') or _m('goSignal', _next_non_empty(T, i))):
            return _r('go', 'panic: ' + m.group(1), [i])
        m = _m('goFatal', T[i])
        if m and (goroutine or (alone and _m('goFatalMsg', m.group(1)))):
            return _r('go', 'fatal error: ' + m.group(1), [i])

    # 3. Python traceback: the exception line after the last `Traceback` header.
    last = -1
    for i in range(n):
        if _m('pyTb', T[i]):
            last = i
    if last >= 0:
        for j in range(last + 1, n):
            if L[j] == '' or L[j][0] == ' ':
                continue
            if _m('pyExcAny', T[j]):
                return _r('py', T[j], [j])
        for j in range(n - 1, last, -1):
            if _m('pyExcStrict', T[j]):
                return _r('py', T[j], [j])
    # 3b. Python without `Traceback`.
    if any(_m('pyFile', l) for l in L):
        for j in range(n - 1, -1, -1):
            if _m('pyExcStrict', T[j]):
                return _r('py', T[j], [j])
    # 4. pytest.
    for i in range(n):
        m = _m('pytestE', L[i])
        if m and _m('pyExcStrict', m.group(1)):
            return _r('py', m.group(1), [i])
    for i in range(n):
        m = _m('pytestSummary', T[i])
        if m:
            return _r('py', m.group(1), [i])

    # 5. JVM.
    java_frames = any(_m('javaFrame', t) for t in T)
    thread = -1
    cause = -1
    for i in range(n):
        if thread < 0 and _m('javaThread', T[i]):
            thread = i
        if _m('javaCause', T[i]):
            cause = i
    if thread >= 0 or (java_frames and cause >= 0):
        if cause >= 0:
            return _r('java', R['javaCause'].sub('', T[cause], count=1), [cause])
        return _r('java', R['javaThread'].sub('', T[thread], count=1), [thread])
    if java_frames:
        for i in range(n):
            if _m('javaExc', T[i]):
                return _r('java', T[i], [i])
    # 5b (v2). The JVM launcher's own errors.
    for i in range(n):
        m = _m('javaLauncher', T[i])
        if m:
            return _r('java', 'Error: ' + m.group(1), [i])

    # 6. Compiler and linker diagnostics.
    for i in range(n):
        t = T[i]
        m = _m('tsc', t)
        if m:
            return _r('ts', 'error ' + m.group(1) + ': ' + m.group(2), [i])
        m = _m('rustc', t)
        if m:
            return _r('rust', 'error[' + m.group(1) + ']: ' + m.group(2), [i])
        m = _m('gcc', t)
        if m:
            return _r(_ext_tag(m.group(1)), m.group(2) + ': ' + m.group(3), [i])
        m = _m('msvc', t)
        if m:
            return _r(_ext_tag(m.group(1)), m.group(2) + ' ' + m.group(3) + ': ' + m.group(4), [i])
        m = _m('msLink', t)
        if m:
            return _r(('c' if _m('msCodeC', m.group(1)) else 'other'), 'error ' + m.group(1) + ': ' + m.group(2), [i])
        m = _m('goBuild', t)
        if m:
            return _r('go', m.group(2), [i])
        m = _m('kotlin', t)
        if m:
            return _r('java', m.group(2), [i])
        m = _m('eslint', t)
        if m:
            return _r('node', 'error ' + m.group(1), [i])
        m = _m('linkUndef', t)
        if m:
            return _r('c', 'undefined reference to ' + m.group(1), [i])
        if _m('macLink', t):
            s = _m('macSym', _next_non_empty(T, i))
            return _r('c', 'undefined symbols' + (': ' + s.group(1) if s else ''), [i, i + 1])

    # 6b (v2). webpack / Next.js `Module not found:` states the error, not the `ERROR in` header.
    for i in range(n):
        m = _m('webpackNF', T[i])
        if m:
            return _r('node', 'Module not found: ' + m.group(1), [i])

    # 7. Node.
    node_ctx = any(_m('nodeFrame', t) or _m('nodeCtx', t) for t in T)
    if node_ctx:
        for i in range(n):
            if not _m('nodeHdr', T[i]) or _m('wrap', T[i]):
                continue
            msg = _with_next(T, i)
            at = _with_next_at(T, i)
            for j in range(i + 1, n):
                c = _m('nodeCause', T[j])
                if c and _m('nodeHdr', c.group(1)):
                    msg += ' [cause] ' + c.group(1)
                    at.append(j)
                    break
            return _r('node', msg, at)

    # 7b. jest matcher failure.
    for i in range(n):
        if not _m('jestTitle', T[i]):
            continue
        msg = _next_non_empty(T, i)
        if msg != '' and not _m('jestTitle', msg):
            return _r('node', msg, [i, i + 1])

    # 8. SQL.
    for i in range(n):
        t = T[i]
        m = _m('pg', t)
        if m:
            return _r('sql', m.group(1) + ': ' + m.group(2), [i])
        if _m('pgTool', t):
            return _r('sql', t, [i])
        m = _m('mysql', t)
        if m:
            return _r('sql', 'ERROR ' + m.group(1) + ' (' + m.group(2) + '): ' + m.group(3), [i])
        m = _m('mssql', t)
        if m:
            return _r('sql', 'Msg ' + m.group(1) + ': ' + _next_non_empty(T, i), [i, i + 1])
        m = _m('oracle', t)
        if m:
            return _r('sql', m.group(1), [i])
        m = _m('sqliteCli', t)
        if m and _m('sqliteMsg', m.group(1)):
            return _r('sql', R['sqliteCode'].sub('', m.group(1), count=1), [i])

    # 9. Shell.
    for i in range(n):
        t = T[i]
        m = (_m('shNotFound1', t) or _m('shNotFound2', t) or _m('shNotFound3', t) or _m('shNotFound4', t)
             or _m('shNotFound5', t) or _m('shNotFound6', t))
        if m:
            return _r('sh', 'command not found: ' + m.group(1), [i])
    for i in range(n):
        m = _m('shGeneric', T[i])
        if m:
            return _r('sh', m.group(1), [i])

    # 10. pip.
    if any(_m('pipCtx', t) for t in T):
        if any(t == 'error: externally-managed-environment' for t in T):
            return _r('pip', 'externally-managed-environment', [T.index('error: externally-managed-environment')])
        for i in range(n):
            if not _m('pipBlock', T[i]):
                continue
            first = ''
            first_at = -1
            j = i + 1
            while j < n and not _m('pipBlockEnd', T[j]):
                if (_m('strong', T[j]) or _m('errorish', T[j])) and not _m('noise', T[j]):
                    return _r('pip', T[j], [j])
                if first == '':
                    first = T[j]
                    first_at = j
                j += 1
            if first != '':
                return _r('pip', first, [first_at])
        for i in range(n):
            if not T[i].startswith('ERROR: '):
                continue
            msg = T[i][7:]
            if _m('pipResolver', msg):
                return _r('pip', 'dependency conflict: ' + _next_non_empty(T, i), [i, i + 1])
            return _r('pip', msg, [i])
        for i in range(n):
            if T[i] != 'error: subprocess-exited-with-error':
                continue
            for j in range(i + 1, n):
                m = _m('pipX', T[j])
                if m:
                    return _r('pip', 'subprocess-exited-with-error: ' + m.group(1), [i, j])
            return _r('pip', 'subprocess-exited-with-error', [i])

    # 11. npm.
    npm = _npm_pick(T)
    if npm and not npm[1]:
        return _r('npm', npm[0], npm[2])

    # 12. The go command.
    for i in range(n):
        m = _m('goTool', T[i])
        if m:
            return _r('go', 'go: ' + m.group(1), [i])
        m = _m('goSum', T[i])
        if m:
            return _r('go', m.group(1), [i])

    # 12b (v2). A gcc/clang diagnostic without its location.
    for i in range(n):
        if _m('cLine', T[i]):
            return _r('c', T[i], [i])

    # 13. A bare exception line.
    for i in range(n):
        m = _m('excHdr', T[i])
        if not m or _m('noise', T[i]) or _m('wrap', T[i]):
            continue
        return _r(_classify_exc(m.group(1), m.group(2) or ''), _with_next(T, i), _with_next_at(T, i))

    # 14. cargo / rustc errors without a code.
    if any(_m('rustCtx', t) for t in T):
        for i in range(n):
            m = _m('rustErr', T[i])
            if m:
                return _r('rust', 'error: ' + m.group(1), [i])

    # 15. Gradle, Maven.
    for i in range(n):
        if _m('gradle', T[i]):
            return _r('java', _next_non_empty(T, i), [i, i + 1])
    if any(_m('spring', t) for t in T):
        for i in range(n):
            if _m('springDesc', T[i]):
                return _r('java', _next_non_empty(T, i), [i, i + 1])
    if any(_m('mvnInfo', t) for t in T):
        first = None
        first_at = -1
        for i in range(n):
            m = _m('mvnError', T[i])
            if not m or _m('mvnNoise', m.group(1)) or _m('wrap', m.group(1)):
                continue
            if _m('mvnJava', m.group(1)):
                return _r('java', m.group(1), [i])
            if first is None:
                first = m.group(1)
                first_at = i
        if first is not None:
            return _r('java', first, [first_at])

    # 15b (v3). git: a Git LFS server's answer, else a rejected ref of a push.
    for name in ('gitBatch', 'gitSmudge', 'gitRemote'):
        for i in range(n):
            m = _m(name, T[i])
            if m:
                return _r('git', m.group(1), [i])
    for i in range(n):
        m = _m('gitRejected', T[i])
        if m:
            return _r('git', '! [' + m.group(1) + '] <ref> -> <ref> (' + m.group(2) + ')', [i])

    # 15c (v3). kubectl's pod table: the status of the first pod that is not running.
    if any(_m('kubeHdr', t) for t in T):
        for i in range(n):
            m = _m('kubeRow', T[i])
            if m and not _m('kubeOk', m.group(1)):
                return _r('k8s', 'pod status ' + m.group(1), [i])

    # 16. npm script failure wrapper.
    if npm:
        return _r('npm', npm[0], npm[2])

    # 16b. Python warnings.
    for i in range(n):
        m = _m('pyWarn', T[i])
        if m:
            return _r('py', m.group(1) + ': ' + (m.group(2) or _next_non_empty(T, i)), [i] if m.group(2) else [i, i + 1])
        m = _m('eslintWarn', T[i])
        if m:
            return _r('node', 'warning ' + m.group(1), [i])

    # 17. Generic. v3: prompts, progress, tables, hints (`skip`) never state the error, and
    # wrappers (`noise`, `wrap`) only when no other line does.
    skip = [bool(_m('skip', t)) for t in T]
    wrap = [bool(_m('noise', t) or _m('wrap', t)) for t in T]
    at = -1
    weak = False
    for i in range(n):
        if _m('strong', T[i]) and not wrap[i] and not skip[i]:
            at = i
            break
    if at < 0:
        for i in range(n):
            if _m('errorish', T[i]) and not wrap[i] and not skip[i] and not _m('prompt', T[i]):
                at = i
                break
    if at < 0:
        weak = True
        for i in range(n):
            if _m('warnish', T[i]) and not skip[i]:
                at = i
                break
    if at < 0:
        for i in range(n):
            if wrap[i]:
                at = i
                break
    if at < 0:
        for i in range(n):
            if not skip[i] and not _m('prompt', T[i]) and _m('hasLetter', T[i]):
                at = i
                break
    if at < 0 and n > 0:
        at = 0
    line = T[at] if at >= 0 else ''
    tag = 'other'
    if _m('toolC', line):
        tag = 'c'
    elif _m('toolRust', line):
        tag = 'rust'
    elif _m('toolJava', line):
        tag = 'java'
    elif _m('toolNpm', line):
        tag = 'npm'
    elif _m('toolNode', line) or node_ctx:
        tag = 'node'
    elif _m('toolPy', line):
        tag = 'py'
    return _r(tag, line, [at] if at >= 0 else [], weak)


def _with_next(T, i):
    line = R['uncaught'].sub('', T[i], count=1)
    return line + ' ' + _next_non_empty(T, i) if _m('emptyMsg', line) else line


def _with_next_at(T, i):
    return [i, i + 1] if _m('emptyMsg', R['uncaught'].sub('', T[i], count=1)) and i + 1 < len(T) else [i]


def _r(tag, msg, at, weak=False):
    # A pick: tag, decisive text, the indexes of the lines it was read from, and whether it came
    # from a weak tier of rule 17 (a warning, a wrapper or any line).
    return tag, msg, at, weak


def _ext_tag(file):
    dot = file.rfind('.')
    ext = file[dot + 1:] if dot >= 0 else ''
    return EXT_TAG.get(ext, 'other')


def _npm_pick(T):
    rest = []
    at = []
    for i, t in enumerate(T):
        m = _m('npm', t)
        if m:
            rest.append(R['ltrim'].sub('', m.group(1) or '', count=1))
            at.append(i)
    if not rest:
        return None
    code = ''
    for r in rest:
        m = _m('npmCode', r)
        if m:
            code = m.group(1)
            break
    line = ''
    if code == 'E404':
        for r in rest:
            if _m('npmRegistry', r):
                line = R['npmQuotedSpec'].sub(lambda mm: "'" + mm.group(1) + "'", R['npm404'].sub('', r, count=1))
    elif code == 'ERESOLVE':
        line = 'unable to resolve dependency tree'
        for i in range(len(rest) - 1):
            if _m('npmResolve', rest[i]):
                line += '; ' + rest[i + 1]
    if line == '' and code and _m('npmWrapper', code):
        for r in rest:
            g = _m('npmGyp', r)
            if g:
                line = 'gyp ' + g.group(1)
                break
    if line == '' and code:
        for r in rest:
            k = r.find(code + ': ')
            if k >= 0:
                line = r[k:]
                break
    if line == '':
        for r in rest:
            if r == '' or _m('npmField', r):
                continue
            line = R['npmCategory'].sub('', r, count=1)
            break
    msg = line
    if code and not (line.startswith(code + ':') or line.startswith(code + ' ')):
        msg = code + ' ' + line if line else code
    return msg, (not code) or bool(_m('npmWrapper', code)), at


def _classify_exc(name, msg):
    if ' [' in name:
        return 'node'
    if '.' in name:
        first = name[:name.index('.')]
        if first in JAVA_PREFIX:
            return 'java'
        if first == 'System' or first == 'Microsoft':
            return 'other'
        return 'py'
    if name in NODE_ONLY:
        return 'node'
    if name in PY_ONLY:
        return 'py'
    if name == 'TypeError' or name == 'SyntaxError':
        if _m('pyPhr', msg):
            return 'py'
        if _m('nodePhr', msg):
            return 'node'
    return 'other'


# ---------------------------------------------------------------------------------------------
# Step 3: normalize the decisive text.
# ---------------------------------------------------------------------------------------------

class _Shield:
    """Shielded spans are final: later passes skip them (private-use markers)."""

    def __init__(self):
        self.spans = []

    def put(self, s):
        self.spans.append(s)
        return '\ue000' + chr(0xE100 + len(self.spans) - 1) + '\ue001'

    def open(self, s):
        def back(m):
            k = ord(m.group(1)) - 0xE100
            return self.spans[k] if k < len(self.spans) else ''
        for _ in range(2):
            if '\ue000' not in s:
                break
            s = R['shieldTok'].sub(back, s)
        return s


def _normalize(msg, strict, go=False):
    sh = _Shield()
    s = _cp_cut(msg, MAX_MSG)
    s = R['dockerGot'].sub('', s, count=1)
    s = R['protect'].sub(lambda m: m.group(1) + sh.put(m.group(2)), s)
    s = R['protectOpenssl'].sub(lambda m: m.group(1) + sh.put(m.group(2)), s)
    s = R['protectHttp'].sub(lambda m: sh.put(m.group(1)), s)
    s = R['protectSqlState'].sub(lambda m: sh.put(m.group(1)), s)

    def url(m):
        u0 = m.group(0)
        t = R['urlTrail'].search(u0)
        trail = t.group(0) if t else ''
        u = u0[:len(u0) - len(trail)]
        reg = R['npmReg'].search(u)
        return sh.put('<registry>/' + R['pct2f'].sub('/', reg.group(1)) if reg else '<url>') + trail
    s = R['httpVerb'].sub('', s)
    s = R['url'].sub(url, s)
    s = _privacy(s, sh, go)
    s = R['pctPath'].sub(lambda m: m.group(1) + sh.put('<path>'), s)
    s = _quotes(s, 0, sh, strict)
    s = R['path'].sub(lambda m: _path_match(m.group(0), sh), s)
    s = R['sqlIdent1'].sub(lambda m: m.group(1) + '<s>', s)
    s = R['sqlIdent2'].sub(lambda m: m.group(1) + '<s>', s)
    s = R['sqlIdent3'].sub(lambda m: m.group(1) + '<s>' + m.group(2) + '<s>', s)
    s = R['sqlIdent4'].sub(lambda m: m.group(1) + '<s>' + m.group(2), s)
    for k in BARE:
        s = R[k].sub(lambda m: m.group(1) + '<s>' + m.group(2), s)
    s = _tokens(s)
    s = sh.open(s)
    s = R['spaces'].sub(' ', s)
    s = R['ltrim'].sub('', s, count=1)
    s = R['rtrim'].sub('', s, count=1)
    s = R['runs'].sub(lambda m: m.group(1), s)
    return s


def _privacy(s, sh, go):
    # v3: names that belong to someone: git remotes, e-mail, container images, private module
    # paths, hosts that failed to resolve or connect, users a permission was denied to.
    s = R['gitScp'].sub(lambda m: sh.put('<repo>'), s)
    s = R['email'].sub(lambda m: sh.put('<email>'), s)
    s = R['imageReg'].sub(lambda m: sh.put('<image>'), s)
    s = R['repoCtx'].sub(lambda m: m.group(1) + sh.put('<repo>'), s)
    s = R['repoGit'].sub(lambda m: sh.put('<repo>'), s)
    s = R['gitRef'].sub(lambda m: m.group(1) + sh.put('<ref>'), s)
    s = R['gitRefspec'].sub(lambda m: m.group(1) + sh.put('<ref>'), s)
    s = R['gitIdent'].sub(lambda m: sh.put('<email>'), s)
    s = R['imageFor'].sub(lambda m: m.group(1) + sh.put('<image>'), s)
    s = R['imageCtx'].sub(lambda m: m.group(1) + sh.put('<image>'), s)
    def mod(m):
        if m.group(1) in PUBLIC_HOSTS or _m('ext', m.group(1)):
            return m.group(0)
        if not (go or s[m.end():m.end() + 1] == '@' or _m('modCtx', s[:m.start()])):
            return m.group(0)
        return sh.put('<module>')
    s = R['modPath'].sub(mod, s)
    s = R['hostCtx'].sub(lambda m: m.group(1) + sh.put('<host>'), s)
    s = R['hostLookup'].sub(lambda m: m.group(1) + sh.put('<host>'), s)
    s = R['userDenied'].sub(lambda m: m.group(1) + sh.put('<user>'), s)
    s = R['userSudo'].sub(lambda m: m.group(1) + sh.put('<user>') + m.group(2), s)
    s = R['userSu'].sub(lambda m: m.group(1) + sh.put('<user>') + m.group(2), s)
    return s


def _quotes(s, depth, sh, strict):
    first_colon = s.find(': ')

    def cb(m):
        g1, g2, g3 = m.group(1), m.group(2), m.group(3)
        pre = g1 or g2 or g3 or ''
        c = next(x for x in (m.group(4), m.group(5), m.group(6), m.group(7), m.group(8), m.group(9)) if x is not None)
        offset = m.start()
        after = s[m.end():]
        word = g1[:-1] if g1 else ''
        ln = len(c)
        is_value = (word in VALUE_SET or bool(g2) or bool(g3 and 0 <= first_colon < offset and _m('quoteTrail', after))
                    or (word in ('name', 'variable') and bool(_m('pyNameTail', after))))
        if ln <= 1:
            out = sh.put('<s>' if ((is_value or strict) and _m('wordChar', c)) or g2 == '@' else "'" + c + "'")
        elif _m('onlyShield', c):
            out = c
        elif ln > MAX_QUOTED:
            out = sh.put('<s>')
        elif _m('strongPath', c):
            out = sh.put(_norm_path(c))
        elif word in NAME_SET and (not strict or word != 'named') and _m('identLike', c):
            out = sh.put("'" + _tokens(c) + "'")
        elif _m('weakPathRel', c) or _m('weakPathBare', c) or c in WELL_KNOWN:
            out = sh.put("'" + c + "'" if _m('header', c) else _norm_path(c))
        elif is_value or strict:
            out = sh.put('<s>')
        elif _m('identLike', c):
            out = sh.put("'" + _tokens(c) + "'")
        elif depth < 2 and _m('nested', c):
            out = "'" + _quotes(c, depth + 1, sh, False) + "'"
        else:
            out = sh.put('<s>')
        return pre + out
    return R['quote'].sub(cb, s)


def _path_match(m, sh):
    core = R['trailDots'].sub('', m, count=1)
    tail = m[len(core):]
    if core == '':
        return m
    if not _m('pathAbs', core):
        base = _base_name(_strip_loc(core))
        if not _m('hasLoc', core) and (not _m('ext', base) or _m('header', base)):
            return m
    return sh.put(_norm_path(core)) + tail


def _strip_loc(p):
    return R['hasLoc'].sub('', p, count=1)


def _base_name(p):
    q = R['slashes'].sub('/', p)
    return q[q.rfind('/') + 1:]


def _norm_path(p):
    q = R['slashes'].sub('/', _strip_loc(p))
    nm = q.rfind('node_modules/')
    if nm >= 0 and (nm == 0 or q[nm - 1] == '/'):
        return 'node_modules/' + q[nm + 13:]
    sp = max(q.rfind('/site-packages/'), q.rfind('/dist-packages/'))
    if sp >= 0:
        return 'site-packages/' + q[sp + 15:]
    m = _m('cargo', q)
    if m:
        return 'cargo/' + m.group(1) + ('/' + m.group(2) if m.group(2) else '')
    m = _m('gomod', q)
    if m:
        return 'gomod/' + (m.group(1) if _public_module(m.group(1)) else '<module>') + ('/' + m.group(2) if m.group(2) else '')
    base = q[q.rfind('/') + 1:]
    if base in WELL_KNOWN or _m('header', base) or _m('shlib', base):
        return base
    return '<path>'


def _public_module(mod):
    k = mod.find('/')
    return (mod[:k] if k >= 0 else mod) in PUBLIC_HOSTS


def _tokens(s):
    s = R['enotfound'].sub(lambda m: m.group(1) + '<host>', s)
    s = R['uuid'].sub('<uuid>', s)
    s = R['tsIso'].sub('<ts>', s)
    s = R['tsMon'].sub('<ts>', s)
    s = R['tsTime'].sub('<ts>', s)
    # v3: Docker Compose names.
    s = R['composeCtr'].sub(lambda m: m.group(1) + '<container>', s)
    s = R['composeCtr2'].sub('<container>', s)
    s = R['composeNet'].sub('<network>', s)
    s = R['composeCtx'].sub(lambda m: m.group(1) + m.group(2) + ('<network>' if m.group(1) in ('network', 'Network') else '<volume>'), s)
    def ip6(m):
        p = _m('ip6Port', m.group(0))
        return '<ip>:' + p.group(1) if p else '<ip>'
    s = R['ip6'].sub(ip6, s)
    s = R['ip4'].sub('<ip>', s)
    s = R['host'].sub('<host>', s)
    s = R['hex0x'].sub('<hex>', s)
    s = R['hexBare'].sub(lambda m: '<hex>' if _m('hasDigit', m.group(0)) and _m('hasHexLetter', m.group(0)) else m.group(0), s)
    s = R['randId'].sub(lambda m: '<id>' if _m('lower', m.group(0)) and _m('upper', m.group(0)) and len(R['alnumFlip'].findall(m.group(0))) >= 4 else m.group(0), s)
    s = R['size'].sub('<size>', s)
    s = R['dur'].sub('<dur>', s)
    s = R['ver'].sub('<v>', s)
    s = R['num'].sub('<n>', s)
    return s


# ---------------------------------------------------------------------------------------------
# The function.
# ---------------------------------------------------------------------------------------------

def errsig(text):
    """ErrSig v3 of raw error output: returns (sig, h)."""
    sig, h, _c, _ch = errsig_levels(text)
    return sig, h


def _text(text):
    if isinstance(text, (bytes, bytearray)):
        return bytes(text).decode('utf-8', 'replace')
    if text is None:
        return ''
    if not isinstance(text, str):
        return str(text)
    return text


def errsig_levels(text):
    """ErrSig v3 of raw error output, both levels: returns (sig, h, coarse, ch)."""
    return _sign(_pick(_to_lines(_text(text))))


def candidates(text, max=3):
    """v3: the signatures of the distinct lines that state an error, best first, at most `max` (the
    first is errsig_levels(text)): a list of (sig, h, coarse, ch, line)."""
    try:
        k = float(max)
    except (TypeError, ValueError, OverflowError):
        return []
    if not (k >= 1):
        return []
    k = int(min(k, MAX_CANDIDATES) // 1)
    L = _to_lines(_text(text))
    out = []
    seen = set()
    tries = 0
    while len(out) < k and tries < 4 * k:
        tries += 1
        p = _pick(L)
        tag, msg, at, weak = p
        if out and (weak or not at):
            break
        sig, h, c, ch = _sign(p)
        if sig not in seen:
            seen.add(sig)
            out.append((sig, h, c, ch, R['ltrim'].sub('', L[at[0]], count=1) if at else ''))
        if not at:
            break
        drop = {L[i] for i in at}
        L = [l for l in L if l not in drop]
        if not L:
            break
    return out


def _sign(p):
    tag, msg = p[0], p[1]
    sig = tag + ':' + _normalize(msg, bool(_m('strictTpl', tag + ':' + msg)), tag == 'go')
    if len(sig) > MAX_SIG:
        sig = R['rtrim'].sub('', sig[:MAX_SIG], count=1)
    c = coarse(sig)
    return sig, _sha(sig), c, _sha(c)


def _sha(s):
    return hashlib.sha256(s.encode('utf-8')).hexdigest()


def coarse(sig):
    """The coarse signature of a fine one: tag, code or type, template without names."""
    colon = sig.find(':')
    tag = sig[:colon + 1]
    text = sig[colon + 1:]
    hm = _m('coarseHead', text)
    head = hm.group(0) if hm else ''
    rest = text[len(head):]
    rest = R['coarseQuote'].sub('<s>', rest)
    rest = R['coarsePkg'].sub(lambda m: m.group(1) + '<s>', rest)
    rest = R['coarseDotted'].sub('<s>', rest)
    rest = R['coarseAt'].sub('<s>', rest)
    rest = R['coarseBare'].sub(lambda m: m.group(1) + '<s>', rest)
    c = R['coarseCmd'].sub(lambda m: m.group(1) + '<s>', head + rest, count=1)
    c = tag + R['runs'].sub(lambda m: m.group(1), R['spaces'].sub(' ', c))
    if len(c) > MAX_SIG:
        c = c[:MAX_SIG]
    return R['rtrim'].sub('', c, count=1)


def main():
    data = sys.stdin.buffer.read()
    sig, h = errsig(data.decode('utf-8', 'replace'))
    sys.stdout.buffer.write((sig + '\t' + h + '\n').encode('utf-8'))


if __name__ == '__main__':
    main()
