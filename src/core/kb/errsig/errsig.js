// ErrSig v3: error text (any language, any tool) -> short signature `sig` and h = sha256(sig), plus
// a coarse signature `coarse` (every name removed) and ch = sha256(coarse); candidates(text) lists
// the signatures of every distinct line that states an error. v3 skips prompts, progress, tables,
// hints and wrapper lines, and removes private names (repositories, images, hosts, users …).
// Reference implementation, standalone ES module, no imports. Spec: /errsig. The server runs this
// very file and serves it at /errsig.js; errsig.py must give identical results for every input.
//
// Parity rules (JS regex without the u flag vs Python `re`): every pattern below is text that is
// byte-identical in errsig.py. Only explicit ASCII classes (no \s \w \d \b, no `.`, no i flag),
// fixed-width lookbehind, no bounded quantifier over a class that can match a non-ASCII char
// (JS counts UTF-16 units, Python code points), lengths counted in code points.
//
// Usage: import { errsig } from './errsig.js'; errsig(text) -> { sig, h, coarse, ch }
//        candidates(text, max = 3) -> [{ sig, h, coarse, ch, line }, …] (the first is errsig(text))
//        node errsig.js < out.txt   prints `<sig>\t<h>`

/** @typedef {{ sig: string, h: string, coarse: string, ch: string }} ErrSig */
/** @typedef {{ tag: string, msg: string, at: number[], weak: boolean }} Pick */

export const ERRSIG_VERSION = 3;

const MAX_SIG = 200; // code points in the whole sig
const MAX_LINE = 4000; // code points kept of each raw line
const MAX_MSG = 1000; // code points of the decisive text before normalization
const MAX_LINES = 2000; // lines looked at: the first and last 1000 of longer outputs
const MAX_QUOTED = 200; // code points inside one quoted value
const MAX_CANDIDATES = 16; // v3: candidates() lists at most this many

// ---------------------------------------------------------------------------------------------
// Pattern sources. Identical text in errsig.py; {PC} is the one per-language substitution.
// ---------------------------------------------------------------------------------------------

// Path characters: ASCII name chars plus any non-ASCII char except typographic quotes and the
// private-use block used for shielding. JS sees astral chars as two surrogates, both in range.
const PC_JS = String.raw`A-Za-z0-9_.~@%+$\-\u0080-\u2017\u2020-\uDFFF\uF900-\uFFFF`;
const EXT = String.raw`(?:py|pyi|pyx|ipynb|js|mjs|cjs|jsx|ts|tsx|mts|cts|vue|svelte|json|jsonc|json5|yaml|yml|toml|ini|cfg|conf|env|lock|txt|md|rst|csv|tsv|xml|html|htm|css|scss|sass|less|rs|go|java|kt|kts|scala|groovy|gradle|class|jar|war|c|cc|cpp|cxx|h|hh|hpp|hxx|swift|rb|php|cs|fs|sh|bash|zsh|ps1|bat|cmd|sql|db|sqlite|sqlite3|log|wasm|zip|tar|gz|tgz|whl|egg|pem|crt|proto|so|dylib|dll|exe|bin)`;
const LOC = String.raw`(?:(?::[0-9]+){1,3}|\([0-9]+(?:,[0-9]+)?\)|:\[[0-9]+,[0-9]+\])`;
const NB = String.raw`(?<![{PC}\/\\\uE000-\uF8FF])`; // no path char, slash or shield before: matches start at token starts only

const VALUE_WORDS = 'user|role|password|database|relation|table|Table|column|schema|constraint|index|key|entry|thread|value|literal|near|host|hostname|parsing|string|file|File|directory|path|at';
const NAME_WORDS = 'module|package|crate|library|named|from|import|command|requirement|dependency|plugin';

const S = {
  loneSurr: String.raw`[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]`,
  lineSplit: String.raw`\r\n|\r|\n`,
  ansiCsi: String.raw`\x1b\[[0-?]*[ -\/]*[@-~]`,
  ansiOsc: String.raw`\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)`,
  ansiEsc: String.raw`\x1b[()][A-Za-z0-9]|\x1b[@-Z\\-_]`,
  ansiLost: String.raw`(?:\^\[)?\[[0-9]{1,3}(?:;[0-9]{1,3}){0,5}m`,
  ctrl: String.raw`[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000]`,
  bom: String.raw`\uFEFF`,
  pua: String.raw`[\uE000-\uF8FF]`,
  rtrim: String.raw` +$`,
  ltrim: String.raw`^ +`,
  ciPrefix: String.raw`^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?Z ?|#[0-9]+ [0-9]+\.[0-9]+ |[0-9]+\.[0-9]{3} |##\[(?:error|warning|notice|debug|group|endgroup)\]|::(?:error|warning|notice)(?: [^:]*)?::|[a-z0-9][a-z0-9_.\-]*-[0-9]+ +\| ){1,3}`,

  // decisive-line detectors (run on left-trimmed lines unless noted)
  rustPanic: String.raw`^thread \'[^\']*\'(?: \([0-9]+\))? panicked at ([^\n]*)$`,
  rustPanicOld: String.raw`^\'([^\n]*)\', ([^ ]+:[0-9]+:[0-9]+)$`,
  rustPanicNew: String.raw`^[^ ]+:[0-9]+:[0-9]+:$`,
  rustPanicLoc: String.raw`^[^ ]+:[0-9]+:[0-9]+: ?`,
  goroutine: String.raw`^goroutine [0-9]+ \[`,
  goPanic: String.raw`^panic: ([^\n]*)$`,
  goFatal: String.raw`^fatal error: ([^\n]*)$`,
  goSignal: String.raw`^\[signal `,
  pyTb: String.raw`^Traceback \(most recent call last\):`,
  pyFile: String.raw`^ *File "[^"]*", line [0-9]+`,
  pyExcAny: String.raw`^[A-Za-z_][A-Za-z0-9_.]*(?:: |:$|$)`,
  pyExcStrict: String.raw`^(?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*(?:Error|Exception|Exit|Interrupt|Iteration|Group)(?:: |:$|$)`,
  pytestE: String.raw`^E +([^ ][^\n]*)$`,
  pytestSummary: String.raw`^(?:FAILED|ERROR) [^ ]+ - ([^\n]+)$`,
  javaFrame: String.raw`^at [A-Za-z_$][A-Za-z0-9_$.<>\/]*\((?:[^()]*\.(?:java|kt|scala|groovy|clj)(?::[0-9]+)?|Native Method|Unknown Source)\)`,
  javaThread: String.raw`^Exception in thread "[^"]*" `,
  javaCause: String.raw`^Caused by: `,
  javaExc: String.raw`^(?:[A-Za-z_$][A-Za-z0-9_$]*\.)+[A-Za-z_$][A-Za-z0-9_$]*(?:Exception|Error|Throwable|Failure)(?:: |:$|$)`,
  tsc: String.raw`(?:^|[^A-Za-z0-9_])error (TS[0-9]+): ([^\n]*)$`,
  rustc: String.raw`^error\[(E[0-9]+)\]: ([^\n]*)$`,
  gcc: String.raw`^([^ ][^\n]*?):[0-9]+(?::[0-9]+)?: (fatal error|error): ([^\n]*)$`,
  msvc: String.raw`^([^ ][^\n]*?)\([0-9]+(?:,[0-9]+)?\) ?: (fatal error|error) ([A-Z]{1,3}[0-9]+): ([^\n]*)$`,
  msLink: String.raw`^[^ ][^\n]*? ?: (?:fatal )?error ([A-Z]{1,7}[0-9]+): ([^\n]*)$`,
  msCodeC: String.raw`^(?:LNK|C)[0-9]+$`,
  eslint: String.raw`^[0-9]+:[0-9]+ +error +([^\n]*)$`,
  pyWarn: String.raw`^[^ ][^\n]*?\.py:[0-9]+: ((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*):(?: ([^\n]*))?$`,
  eslintWarn: String.raw`^[0-9]+:[0-9]+ +warning +([^\n]*)$`,
  spring: String.raw`^APPLICATION FAILED TO START$`,
  springDesc: String.raw`^Description:$`,
  goSum: String.raw`^(verifying [^ ]+: checksum mismatch)$`,
  goBuild: String.raw`^(?:\.\/)?([^ :]*\.go):[0-9]+(?::[0-9]+)?: ([^\n]*)$`,
  kotlin: String.raw`^e: (?:file:\/\/)?([^ ]*\.kts?)(?::[0-9]+:[0-9]+ |: \([0-9]+, [0-9]+\): )([^\n]*)$`,
  linkUndef: String.raw`undefined reference to ([^\n]*)$`,
  macLink: String.raw`^Undefined symbols for architecture [^ :]+:$`,
  macSym: String.raw`^("[^"]*"), referenced from:?$`,
  nodeFrame: String.raw`^(?:at [^\n]*(?::[0-9]+:[0-9]+\)?|\(native\)|\(<anonymous>\))$|\u276F [^ ]+:[0-9]+:[0-9]+)`,
  nodeCtx: String.raw`^(?:Node\.js v[0-9]|node:internal|node:[a-z_\/]+:[0-9]+$)`,
  nodeHdr: String.raw`^(?:Uncaught (?:\(in promise\) )?)?(?:[A-Za-z_$][A-Za-z0-9_$]*\.)*(?:[A-Za-z_$][A-Za-z0-9_$]*(?:Error|Exception)|Error)(?: \[[A-Za-z0-9_]+\])?(?:: |:$|$)`,
  uncaught: String.raw`^Uncaught (?:\(in promise\) )?`,
  nodeCause: String.raw`^\[?cause\]?: ([^\n]*)$`,
  emptyMsg: String.raw`:$`,
  jestTitle: String.raw`^\u25cf `,
  pg: String.raw`(?:^|[^A-Za-z0-9_])(ERROR|FATAL|PANIC):  (?! |Error installing |While executing gem)([^\n]*)$`,
  pgTool: String.raw`^(?:psql|pg_dump|pg_restore|pg_ctl|createdb|dropdb): (?:error|fatal|FATAL): `,
  mysql: String.raw`^ERROR ([0-9]+) \(([0-9A-Z]{5})\)(?: at line [0-9]+)?: ([^\n]*)$`,
  mssql: String.raw`^Msg ([0-9]+), Level [0-9]+, State [0-9]+`,
  oracle: String.raw`(?:^|[^A-Za-z0-9_])(ORA-[0-9]{5}: [^\n]*)$`,
  sqliteCli: String.raw`^(?:Error: (?:in prepare, |stepping, |near line [0-9]+: )?|Parse error(?: near line [0-9]+)?: |Runtime error(?: near line [0-9]+)?: )([^\n]*)$`,
  sqliteMsg: String.raw`no such (?:table|column|function|module|collation)|constraint failed|syntax error|database is locked|unable to open database|readonly database|disk image is malformed|incomplete input`,
  sqliteCode: String.raw` \([0-9]+\)$`,
  shNotFound1: String.raw`^[^ :]+(?:: line [0-9]+)?: ([^ :][^:]*): command not found$`,
  shNotFound2: String.raw`^(?:\/bin\/|\/usr\/bin\/)?(?:da|ba)?sh: [0-9]+: ([^\n]+): not found$`,
  shNotFound3: String.raw`^zsh: command not found: ([^\n]+)$`,
  shNotFound4: String.raw`^fish: Unknown command:? ([^\n]+)$`,
  shNotFound5: String.raw`^\'([^\']+)\' is not recognized as an internal or external command`,
  shNotFound6: String.raw`The term \'([^\']+)\' is not recognized as (?:the )?name of a cmdlet`,
  shGeneric: String.raw`^(?:-?(?:ba|z|k|da|a)?sh|\/(?:usr\/)?bin\/(?:ba|z|k|da|a)?sh|(?:\/usr\/bin\/)?env|[^ :]+\.(?:sh|bash))(?:: line [0-9]+|: [0-9]+)?: (?!warning: )([^\n]+)$`,
  pipCtx: String.raw`^(?:Collecting |Requirement already satisfied|Installing collected packages|Building wheels? for |Using cached |Looking in indexes|Obtaining |Preparing metadata|Getting requirements to build|Defaulting to user installation|ERROR: (?:Could not find a version|No matching distribution|ResolutionImpossible|Cannot install|Failed building wheel|Could not build wheels|Could not install packages|Invalid requirement|Double requirement|pip\'s dependency resolver)|error: (?:externally-managed-environment|subprocess-exited-with-error))`,
  pipResolver: String.raw`^pip\'s dependency resolver does not currently take into account`,
  pipX: String.raw`^\u00d7 ([^\n]+)$`,
  pipBlock: String.raw`^\u2570\u2500> \[[0-9]+ lines? of output\]$`,
  pipBlockEnd: String.raw`^\[end of output\]$`,
  npm: String.raw`^npm (?:ERR!|error)(?: ([^\n]*))?$`,
  npmCode: String.raw`^code ([^ ]+)$`,
  npmWrapper: String.raw`^(?:ELIFECYCLE|[0-9]+)$`,
  npmField: String.raw`^(?:code|errno|syscall|path|dest|file|cwd|command|signal|workspace|location|A complete log|Log files|Found: |While resolving|node_modules\/|Verbose|at |gyp info|gyp verb|Building: |$)`,
  npmGyp: String.raw`^gyp ERR! stack (Error: [^\n]*)$`,
  npmRegistry: String.raw`is not in this registry`,
  npm404: String.raw`^404 +`,
  npmQuotedSpec: String.raw`\'((?:@[^\/\' ]+\/)?[^@\' ]+)@[^\' ]*\'`,
  npmCategory: String.raw`^[a-z0-9]+ (?=[A-Z])`,
  npmResolve: String.raw`^Could not resolve dependency:$`,
  goTool: String.raw`^go: (?!downloading |finding |extracting |upgraded |added |found |creating new go\.mod|to add module requirements|warning:)([^\n]+)$`,
  excHdr: String.raw`^(?:Uncaught (?:\(in promise\) )?)?((?:[A-Za-z_$][A-Za-z0-9_$]*\.)*(?:[A-Za-z_$][A-Za-z0-9_$]*(?:Error|Exception|Exit|Interrupt|Iteration|Group)|Error|Exception)(?: \[[A-Za-z0-9_]+\])?)(?:: ([^\n]*)|:)?$`,
  rustCtx: String.raw`^(?:--> [^ ]+\.rs:[0-9]+|Compiling [^ ]+ v[0-9]|Updating crates\.io index|Blocking waiting for file lock|location searched: |required by package \x60|= note: )|Cargo\.toml|\.rs:[0-9]+:[0-9]+|(?:^|[^A-Za-z0-9_])(?:rustc|cargo) `,
  rustErr: String.raw`^error: (?!could not compile|aborting due to)([^\n]+)$`,
  gradle: String.raw`^\* What went wrong:$`,
  mvnError: String.raw`^\[(?:ERROR|FATAL)\] ([^\n]+)$`,
  mvnInfo: String.raw`^\[INFO\] |^\[ERROR\] (?:Failed to execute goal|BUILD FAILURE|[^\n]*\.java:\[[0-9]+,[0-9]+\])`,
  mvnJava: String.raw`\.java:\[[0-9]+,[0-9]+\]`,
  mvnNoise: String.raw`^(?:-> \[Help|Re-run Maven|To see the full stack|For more information about the errors|Help 1|COMPILATION ERROR :?$|$)`,
  strong: String.raw`^(?:(?:error|Error|ERROR|fatal|Fatal|FATAL|FATAL ERROR|panic|E)(?:\[[A-Za-z0-9_ .:\/-]{0,40}\])?: |\[(?:ERROR|FATAL|error|fatal)\] |[A-Za-z0-9_.\/+-]+: (?:error|fatal|ERROR|FATAL|fatal error)(?:\[[A-Za-z0-9_ .:\/-]{0,40}\])?: |make(?:\[[0-9]+\])?: \*\*\* |\*\*\* [^\n]*\*\*\*|(?:free|malloc|realloc|calloc|munmap_chunk)\(\): |double free or corruption|==[0-9]+==ERROR: )`,
  errorish: String.raw`(?:^|[^A-Za-z])(?:error|Error|ERROR|fatal|Fatal|FATAL|panic|exception|Exception|failed|Failed|FAILED|failure|Failure|denied|refused|not found|Not Found|cannot|Cannot|can\'t|Can\'t|couldn\'t|Couldn\'t|could not|Could not|unable|Unable|invalid|Invalid|Segmentation fault|Killed|Aborted|core dumped|No such file|Unhandled|unhandled|Uncaught|undefined|not accessible|not allowed|not permitted|forbidden|Forbidden|unauthorized|Unauthorized|does not exist|doesn\'t exist|not supported|mismatch|no matching|No matching|bad permissions|too open|incompatible|timed out|Timed out|No route to host|unreachable|Unreachable)`,
  hasLetter: String.raw`[A-Za-z]`,
  warnish: String.raw`^(?:[A-Za-z0-9_.\/\-]+: )?(?:Warning|warning|WARNING|WARN)(?:\[[A-Za-z0-9_ .:\/\-]{0,40}\])?:? `,
  prompt: String.raw`^\$ `,
  noise: String.raw`^(?:(?:Error: )?Process completed with exit code [0-9]+|make(?:\[[0-9]+\])?: \*\*\* [^\n]*Error [0-9]+$|ninja: build stopped|(?:error )?Command failed with exit code|npm (?:ERR!|error) |ELIFECYCLE|collect2: error: ld returned|clang(?:\+\+)?: error: linker command failed|error: could not compile|error: aborting due to|For more information about this error|The above exception was|During handling of the above|[0-9]+ errors? generated|Found [0-9]+ errors?|info Visit|Exited with code|exit status [0-9]+$|FAIL$|FAILED$|Tests?: |Test Suites: |Error: Command failed with exit code|\u2716 [0-9]+ problems? )`,
  toolC: String.raw`^(?:[^ :]*\/)?(?:cc1(?:plus)?|gcc|g\+\+|clang(?:\+\+)?|ld|collect2|cmake|make)(?:\[[0-9]+\])?: `,
  toolRust: String.raw`^(?:cargo|rustc|rustup): |^Blocking waiting for file lock`,
  toolNpm: String.raw`^(?:ERR_PNPM_[A-Z0-9_]+|error (?:An unexpected error occurred|Couldn\'t find package|Command failed)|npm (?:WARN|warn) )`,
  toolJava: String.raw`^(?:java|javac|mvn|gradle|kotlinc): `,
  toolNode: String.raw`^(?:node|npx|tsx|deno|bun|JavaScript heap out of memory|FATAL ERROR: [^\n]*JavaScript heap|Module not found: )`,
  toolPy: String.raw`^python[0-9.]*: `,
  nodePhr: String.raw`Cannot read propert|Cannot set propert|is not a function|is not a constructor|is not iterable|is not defined|Unexpected token|Unexpected identifier|Unexpected end of|Unexpected string|Unexpected number|Invalid or unexpected token|Cannot use import statement|Cannot destructure|Assignment to constant|circular structure|await is only valid|missing \) after|Cannot access |is not valid JSON|fetch failed|Failed to fetch|Cannot convert undefined|Invalid regular expression|has already been declared|Cannot mix BigInt|Reduce of empty array|Unexpected reserved word|Illegal return|Invalid left-hand side|Cannot redefine property`,
  pyPhr: String.raw`unsupported operand type|positional argument|keyword argument|object is not subscriptable|object is not callable|object is not iterable|can only concatenate|can\'t multiply sequence|must be str|must be real number|unhashable type|not supported between instances|argument of type|object cannot be interpreted|invalid syntax|unexpected EOF while parsing|was never closed|unterminated string literal|expected \':\'|invalid character|unmatched|unexpected indent|Missing parentheses in call|cannot assign to|f-string|NoneType|takes [0-9]+ positional|got an unexpected keyword|object does not support`,

  // normalization
  protect: String.raw`((?<![A-Za-z0-9_])(?:exit code|exit status|exited with code|exited with status|returned non-zero exit status|exit|status code|status|Errno|errno|WinError|error code|error|Error|signal|HTTP Error|HTTP\/[0-9.]+|SQLSTATE|sqlstate|Msg|ERROR|Exited)(?::? |\[| \())(-?[0-9]+|0x[0-9A-Fa-f]+|[0-9A-Z]{5}(?=\]))(?![A-Za-z0-9_]|\.[0-9])`,
  protectOpenssl: String.raw`(?<![A-Za-z0-9_])(error:)([0-9A-F]{8})(?=:)`,
  protectHttp: String.raw`(?<![A-Za-z0-9_.])([1-5][0-9][0-9])(?= (?:Not Found|Forbidden|Unauthorized|Bad Request|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout|Too Many Requests|Conflict|Method Not Allowed|Not Acceptable|Payload Too Large|Unprocessable Entity|Client Error|Server Error|Gone|Precondition Failed|Request Timeout|Proxy Authentication))`,
  protectSqlState: String.raw`(?<![A-Za-z0-9_])(\([0-9A-Z]{5}\)|[0-9][0-9A-Z]{4}(?=: ))`,
  url: String.raw`(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]*:\/\/[^ \'"<>()\[\]{}\x60\u2018\u2019\u201c\u201d]+`,
  urlTrail: String.raw`[.,;:!?]+$`,
  npmReg: String.raw`^https?:\/\/registry\.(?:npmjs\.org|yarnpkg\.com)\/((?:@[^\/]+(?:\/|%2[fF]))?[^\/@]+)`,
  pct2f: String.raw`%2[fF]`,
  onlyShield: String.raw`^\uE000[\uE100-\uF7FF]\uE001$`,
  email: String.raw`(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9_\-])`,
  quote: String.raw`(?:((?<![A-Za-z0-9_])(?:` + VALUE_WORDS + '|' + NAME_WORDS + String.raw`|name|variable) )|(= ?|@)|(: ))?(?<![A-Za-z0-9_])(?:\'(\[[^\]\n]*\])\'|\'((?:[^\'\n]|\'(?=[A-Za-z0-9_]))*)\'|"([^"\n]*)"|\x60([^\x60\'\n]*)[\x60\']|\u2018([^\u2019\n]*)\u2019|\u201c([^\u201d\n]*)\u201d)(?![A-Za-z0-9_])`,
  quoteTrail: String.raw`^[.?!)\]]*$`,
  strongPath: String.raw`^(?:~?\/|\.\.?[\/\\]|[A-Za-z]:[\/\\]|\\\\)`,
  weakPathRel: String.raw`^[^ ]*[\/\\][^ \/\\]*\.` + EXT + '$',
  weakPathBare: String.raw`^[A-Za-z0-9_@+\-][A-Za-z0-9_.@+\-]*\.` + EXT + '$',
  wordChar: String.raw`^[A-Za-z0-9_]$`,
  identLike: String.raw`^[A-Za-z_$@.:][A-Za-z0-9_$@.\/:+<>&*()\[\]#\-]{0,99}$`,
  nested: String.raw`^[A-Za-z][^ ]* +[^ ]+ +[^ ]`,
  path: NB + String.raw`(?:[A-Za-z]:[\\\/][{PC}\\\/]*|\\\\[{PC}][{PC}\\]*|\.\.?\\[{PC}][{PC}\\]*|(?:~|\.\.?)?\/[{PC}][{PC}\/]*|[{PC}]+(?:[\/\\][{PC}]+)+|[{PC}]+\.` + EXT + LOC + String.raw`(?![0-9]))` + LOC + String.raw`?(?:\?[A-Za-z0-9_.~%+=&;\-]*)?`,
  pathAbs: String.raw`^(?:~|\.\.?[\/\\]|\/|[A-Za-z]:[\/\\]|\\\\)`,
  hasLoc: LOC + '$',
  ext: String.raw`\.` + EXT + '$',
  header: String.raw`\.(?:h|hh|hpp|hxx)$`,
  shlib: String.raw`^lib[^\/]*\.so(?:\.[0-9]+)*$|\.(?:dll|dylib)$`,
  slashes: String.raw`[\\\/]+`,
  trailDots: String.raw`\.+$`,
  cargo: String.raw`\/registry\/src\/[^\/]+\/([A-Za-z0-9_\-]+?)-[0-9]+\.[0-9]+\.[0-9]+[^\/]*(?:\/([^\n]*))?$`,
  gomod: String.raw`\/pkg\/mod\/([^@]+)@[^\/]*(?:\/([^\n]*))?$`,
  sqlIdent1: String.raw`(no such (?:table|column|index|savepoint): )[^ ,;]+`,
  sqlIdent2: String.raw`(constraint failed: )[^ ,;]+(?:, [^ ,;]+)*`,
  sqlIdent3: String.raw`(?<![A-Za-z0-9_])(table )[^ ,;]+( has no column named )[^ ,;]+`,
  sqlIdent4: String.raw`(?<![A-Za-z0-9_])(table )[^ ,;]+( already exists)`,
  enotfound: String.raw`(?<![A-Za-z0-9_])((?:ENOTFOUND|EAI_AGAIN) )[A-Za-z0-9.\-]+(?![A-Za-z0-9_.\-])`,
  uuid: String.raw`(?<![A-Za-z0-9_])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![A-Za-z0-9_])`,
  tsIso: String.raw`(?<![0-9])[0-9]{4}[\-\/][0-9]{2}[\-\/][0-9]{2}(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]+)?)?(?:Z| ?UTC| ?[+\-][0-9]{2}:?[0-9]{2})?)?(?![0-9])`,
  tsMon: String.raw`(?<![A-Za-z0-9])(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? )?(?:[0-9]{1,2} )?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (?:[0-9]{1,2},? )?(?:[0-9]{4} )?[0-9]{1,2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]+)?)?(?: [0-9]{4})?(?: ?(?:GMT|UTC)(?:[+\-][0-9]{4})?)?(?![0-9])`,
  tsTime: String.raw`(?<![A-Za-z0-9:.])[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]+)?Z?(?![0-9])`,
  ip6: String.raw`(?<![A-Za-z0-9_:.])\[?(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){7}|(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){0,6})?::(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){0,6})?)(?:%[A-Za-z0-9]+)?\]?(?![A-Za-z0-9_])`,
  ip6Port: String.raw`^[^\[]*::[^\n]*:([0-9]{2,5})$`,
  ip4: String.raw`(?<![A-Za-z0-9_.])(?:[0-9]{1,3}\.){3}[0-9]{1,3}(?:\/[0-9]{1,2})?(?![A-Za-z0-9_]|\.[0-9])`,
  host: String.raw`(?<![A-Za-z0-9_.@\/\-])(?:[A-Za-z0-9\-]+\.){2,}(?:com|net|org|io|dev|app|ai|cloud|internal|local|co|us|eu|de|uk|example|corp|lan|intranet|localdomain)(?![A-Za-z0-9_.\-])`,
  hex0x: String.raw`(?<![A-Za-z0-9_])0[xX][0-9a-fA-F]+(?![A-Za-z0-9_])`,
  hexBare: String.raw`(?<![A-Za-z0-9_])[0-9a-fA-F]{7,}(?![A-Za-z0-9_])`,
  hasDigit: String.raw`[0-9]`,
  hasHexLetter: String.raw`[a-fA-F]`,
  randId: String.raw`(?<![A-Za-z0-9_\-])[A-Za-z0-9_\-]{20,}(?![A-Za-z0-9_\-])`,
  lower: String.raw`[a-z]`,
  upper: String.raw`[A-Z]`,
  alnumFlip: String.raw`(?=[0-9][A-Za-z]|[A-Za-z][0-9])`,
  size: String.raw`(?<![A-Za-z0-9_.])[0-9]+(?:\.[0-9]+)? ?(?:[KMGTP]i?B|[kKMG]B|bytes|B)(?![A-Za-z0-9_])`,
  dur: String.raw`(?<![A-Za-z0-9_.])[0-9]+(?:\.[0-9]+)?(?:(?:ns|us|\u00b5s|ms|s|m|h)(?:[0-9]+(?:\.[0-9]+)?(?:ns|us|\u00b5s|ms|s|m|h))*| ?(?:milliseconds?|seconds?|secs?|minutes?|mins?|hours?|ms))(?![A-Za-z0-9_])`,
  ver: String.raw`(?<![A-Za-z0-9_.])(?:v?[0-9]+\.[0-9]+\.[0-9]+(?:\.[0-9]+)*(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*|\.?(?:a|b|rc|alpha|beta|pre|post|dev)[0-9]*)?(?:\+[0-9A-Za-z.]+)?|v[0-9]+\.[0-9]+|(?<=[=@^~<>])[0-9]+\.[0-9]+)(?![A-Za-z0-9_])`,
  num: String.raw`(?<![A-Za-z0-9_.])(?<![A-Za-z]-)[0-9]+(?:\.[0-9]+)*(?![A-Za-z0-9_])`,
  spaces: String.raw` {2,}`,
  runs: String.raw`(<(?:n|v|s|hex|ts|ip|uuid|id|size|dur|url|email|host|path|repo|image|module|user|container|network|volume|ref)>)(?:(?:, ?| )\1)+`,
  shieldTok: String.raw`\uE000([\uE100-\uF7FF])\uE001`,
  // v2: the line that states the error, tags of one-line outputs, and names that a template carries.
  goExit: String.raw`^exit status [0-9]+$`,
  goFatalMsg: String.raw`^(?:all goroutines are asleep|concurrent map )`,
  cLine: String.raw`^(?:fatal error|error): [^\n]*(?:\.(?:h|hh|hpp|hxx)[\'\u2019]?(?:: No such file or directory| file not found)|undeclared \(first use|implicit declaration of function|unknown type name|conflicting types for|has no member named|too (?:few|many) arguments to function|use of undeclared identifier|lvalue required|storage size of)`,
  javaLauncher: String.raw`^(?:Error: )?(Could not find or load main class [^\n]*|Unable to access jarfile [^\n]*|Invalid or corrupt jarfile [^\n]*|Main method not found in class [^\n]*|LinkageError occurred while loading main class [^\n]*|JavaFX runtime components are missing[^\n]*)$`,
  webpackNF: String.raw`^Module not found: (?:Error: )?([^\n]*)$`,
  strictTpl: String.raw`^(?:rust:error\[E[0-9]+\]: |ts:error TS[0-9]+: |c:(?:fatal error|error)(?: C[0-9]+)?: |java:(?:error: |[^ :]*NullPointerException: )|go:(?!panic: |fatal error: |go: |verifying |"[^"]*" imported))`,
  pyNameTail: String.raw`^ (?:is not defined|referenced before assignment|where it is not associated|is assigned to before global declaration)`,
  dockerGot: String.raw`^Got (?=permission denied while trying to connect to the Docker daemon)`,
  httpVerb: String.raw`(?<![A-Za-z0-9_])(?:Get|Head|Post|Put|Patch|Delete|Options) (?="[a-z][a-z0-9+.\-]*:\/\/)`,
  pctPath: String.raw`(^|[^A-Za-z0-9_%])(?:%2[Ff][A-Za-z0-9._~\-]+)+`,
  bare1: String.raw`(undefined: )[A-Za-z_$][A-Za-z0-9_$.]*()`,
  bare2: String.raw`(declared and not used: )[A-Za-z_][A-Za-z0-9_]*()`,
  bare3: String.raw`(^|[^A-Za-z0-9_.$<>])[A-Za-z_][A-Za-z0-9_.]*( declared and not used| declared but not used| redeclared in this block| undefined \(type )`,
  bare4: String.raw`(undefined \(type )[^ ]+( has no field or method )`,
  bare5: String.raw`(has no field or method )[A-Za-z_][A-Za-z0-9_]*()`,
  bare6: String.raw`((?:too many|not enough) arguments in call to )[A-Za-z_][A-Za-z0-9_.]*()`,
  bare7: String.raw`(cannot use )[^ ]+( \((?:variable|constant|value|untyped)[^)]*\) as )`,
  bare8: String.raw`(variable )[A-Za-z_$][A-Za-z0-9_$]*( might not have been initialized| is already defined in )`,
  bare9: String.raw`(is already defined in (?:method|class|constructor|interface) )[^ ,;]+()`,
  bare10: String.raw`(incompatible types: )[A-Za-z_$][A-Za-z0-9_$.<>\[\],?]*( cannot be converted to )`,
  bare11: String.raw`( cannot be converted to )[A-Za-z_$][A-Za-z0-9_$.<>\[\],?]*()`,
  bare12: String.raw`(class )[A-Za-z_$][A-Za-z0-9_$]*( is public, should be declared in a file named )`,
  bare13: String.raw`(should be declared in a file named )[^ ]+()`,
  bare14: String.raw`(non-static (?:variable|method) )[^ ]+( cannot be referenced from a static context)`,
  bare15: String.raw`(^|[^A-Za-z0-9_.$<>])[A-Za-z_$][A-Za-z0-9_$.]*( is not abstract and does not override abstract method )`,
  bare16: String.raw`(does not override abstract method )[^ ]+( in )`,
  bare17: String.raw`(abstract method <s> in )[A-Za-z_$][A-Za-z0-9_$.<>]*()`,
  bare18: String.raw`(method )[A-Za-z_$][A-Za-z0-9_$]*( in (?:class|enum|interface) [^ ]+ cannot be applied to given types)`,
  bare19: String.raw`( in (?:class|enum|interface) )[A-Za-z_$][A-Za-z0-9_$.<>]*( cannot be applied to given types)`,
  bare20: String.raw`(main class )[A-Za-z_$][A-Za-z0-9_$.\/]*()`,
  bare21: String.raw`((?:Unable to access|Invalid or corrupt) jarfile )[^ ]+()`,
  bare22: String.raw`(Main method not found in class )[^ ,]+()`,
  bare23: String.raw`(Unresolved reference:? )[A-Za-z_][A-Za-z0-9_]*()`,
  bare24: String.raw`([Dd]id you mean:? )[^?]+(\?)`,
  // v2: the coarse signature (ecosystem + code or type + template, every name removed).
  coarseHead: String.raw`^[^ \':]+(?: [^ \':]+){0,2}: `,
  coarseQuote: String.raw`(?<![A-Za-z0-9_])\'[^\'\n]*\'(?![A-Za-z0-9_])`,
  coarsePkg: String.raw`((?:node_modules|site-packages|cargo|gomod|<registry>)\/)[^ ,;:)\'\]]+`,
  coarseDotted: String.raw`(?<![A-Za-z0-9_.\-\/<@])[A-Za-z_@][A-Za-z0-9_\-]*(?:[.\/][A-Za-z0-9_\-]+)+(?![A-Za-z0-9_.\-\/])`,
  coarseAt: String.raw`(?<![A-Za-z0-9_.\-\/])@?[A-Za-z0-9_.\-]+(?:\/[A-Za-z0-9_.\-]+)?(?=@<|[=<>~!]=<)`,
  coarseCmd: String.raw`^(command not found: )[^ ]+`,
  coarseBare: String.raw`((?<![A-Za-z0-9_])(?:[Uu]nable to locate package|No package|No match for argument:|Unable to find a match:|No available formula with the name|No formulae found for|[Nn]o installation candidate for|[Pp]ackage) )(?!(?:<|not |is |has |was |does |named ))[A-Za-z0-9_@][A-Za-z0-9_.+\-\/@]*(?= (?:is not available|has no installation candidate|available)|$)`,
  // v3: prompts, lines that never state the error, wrappers, git and kubectl, private names.
  promptLine: String.raw`^(?:\([A-Za-z0-9_.\-]+\) )?(?:[A-Za-z0-9_.\-]+@[A-Za-z0-9_.\-]+(?::[^ $#]*)?[$#](?: |$)|\[[A-Za-z0-9_.\-]+@[A-Za-z0-9_.\-]+(?: [^\]]*)?\][$#](?: |$)|[A-Za-z0-9_.\-]+@[A-Za-z0-9_.\-]+ [^ %]+ %(?: |$)|PS [A-Za-z]:\\[^>]*>(?: |$)|[A-Za-z]:\\[^> ]*>(?=[A-Za-z])|\u279c +[^ ]+ (?:git:\([^)]*\) )?(?:\u2717 )?)`,
  skip: String.raw`^(?:\$(?: |$)|> [^ ]+@[^ ]+ [^ ]+|(?:hint|Hint|HINT|tip|Tip|TIP): |(?:NAMESPACE +)?NAME +[A-Z][A-Z\-]*(?: +[A-Z][A-Z\-()]*)+$|CONTAINER ID +IMAGE|REPOSITORY +TAG|Unable to find image [^ ]+ locally$|[^ :]+: Pulling from |[0-9a-f]{12}: (?:Pulling fs layer|Waiting|Verifying Checksum|Download complete|Pull complete|Already exists|Downloading|Extracting)|Digest: sha256:|Status: (?:Downloaded newer image|Image is up to date)|(?:remote: )?(?:Enumerating|Counting|Compressing|Writing|Receiving|Resolving) (?:objects|deltas):|Delta compression using|Total [0-9]+ \(delta|(?:Uploading|Downloading) LFS objects:|[0-9]{1,3}% |\[[=#> .\-]*\] +[0-9]{1,3}%|To (?:[A-Za-z][A-Za-z0-9+.\-]*:\/\/|[^ ]+@|[^ :\/]+:)[^ ]*$|[^ ]+ +[0-9]+\/[0-9]+ +[A-Za-z][A-Za-z0-9:\/]* +[0-9]+|[0-9a-f]{12} +[^ ]+ +)`,
  wrap: String.raw`^(?:\[(?:ERROR|FATAL|INFO)\] *)* *(?:error: failed to push some refs to |error: external filter [^\n]* failed|fatal: [^\n]*: smudge filter [^ ]+ failed|Some problems were encountered while processing the POMs:?$|The build could not read [0-9]+ projects?|The project [^\n]* has [0-9]+ errors?$|(?:ERROR: )?failed to solve: process [^\n]* did not complete successfully|ERROR: Job failed: |(?:Error: )?The process \'[^\']*\' failed with exit code [0-9]+|FAILURE: Build failed with an exception|BUILD FAIL(?:URE|ED)|(?:Error: )?Command failed: |error: [Rr]ecipe \x60[^\x60]*\x60 failed|=> ERROR \[|[^ ]+ exited with code [0-9]+$|[\u2718\u2716] Container [^ ]+ +Error|fatal: Could not read from remote repository\.?$)`,
  gitBatch: String.raw`(?:^|: )batch response: ([^\n]+)$`,
  gitRemote: String.raw`^remote: error: (GH[0-9]{3}: [^\n]*)$`,
  gitSmudge: String.raw`(?:^|: )Smudge error: Error downloading [^ ]+ \([0-9a-f]+\): ([^\n]+)$`,
  gitRejected: String.raw`^! \[((?:remote )?rejected)\] +[^ ]+ -> [^ ]+ \(([^\n]*)\)$`,
  kubeHdr: String.raw`^NAME +READY +STATUS +RESTARTS +AGE`,
  kubeRow: String.raw`^[^ ]+ +[0-9]+\/[0-9]+ +([A-Za-z][A-Za-z0-9:\/]*) +[0-9]+`,
  kubeOk: String.raw`^(?:Running|Completed|Succeeded)$`,
  gitScp: String.raw`(?<![A-Za-z0-9_.%+\-\/@:])(?:[A-Za-z0-9_.\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*:(?!\/)[A-Za-z0-9_.~\-]+\/[A-Za-z0-9_.~\/\-]*[A-Za-z0-9_\-]|[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+:(?!\/)[A-Za-z0-9_.~\-]+\/[A-Za-z0-9_.~\/\-]*\.git)(?![A-Za-z0-9_\/\-])`,
  imageReg: String.raw`(?<![A-Za-z0-9_.\-\/@])(?:(?:[a-z0-9\-]+\.)*(?:ghcr\.io|docker\.io|quay\.io|gcr\.io|pkg\.dev|azurecr\.io|amazonaws\.com|registry\.gitlab\.com|public\.ecr\.aws)|registry(?:\.[a-z0-9\-]+)+|localhost)(?::[0-9]+)?\/[A-Za-z0-9_.\-]+(?:\/[A-Za-z0-9_.\-]+)*(?::[A-Za-z0-9_.\-]+)?(?:@sha256:[0-9a-f]+)?`,
  repoCtx: String.raw`(?<![A-Za-z0-9_])((?:[Rr]epository|[Rr]epo|Permission to|with the name) [\'"\x60]?)[A-Za-z0-9_.\-]+\/[A-Za-z0-9_.\-]+`,
  repoGit: String.raw`(?<![A-Za-z0-9_.%+\-\/@:])[A-Za-z0-9_.\-]+\/[A-Za-z0-9_.\-]+\.git(?![A-Za-z0-9_\-])`,
  gitRef: String.raw`(?<![A-Za-z0-9_\/])(refs\/(?:heads|tags|remotes)\/)[A-Za-z0-9_.\/\-]*[A-Za-z0-9_\-]`,
  gitRefspec: String.raw`(?<![A-Za-z0-9_])((?:src refspec|pathspec) [\'"]?)[A-Za-z0-9_.\/\-]*[A-Za-z0-9_\-]`,
  gitIdent: String.raw`(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.\(none\)`,
  imageFor: String.raw`(?<![A-Za-z0-9_])((?:pull access denied for|manifest for|No such image:) )(?!linux\/|windows\/)[a-z0-9][a-z0-9._\-]*(?:\/[a-z0-9][a-z0-9._\-]*)*(?::[A-Za-z0-9_.\-]+)?(?:@sha256:[0-9a-f]+)?(?=[ ,:]|$)`,
  imageCtx: String.raw`(?<![A-Za-z0-9_])((?:[Ii]mage|reference|pulling|failed to solve:) [\'"]?)[a-z0-9][a-z0-9._\-]*(?:(?:\/[a-z0-9][a-z0-9._\-]*)+(?::[A-Za-z0-9_.\-]+)?|:[A-Za-z0-9_.\-]+)(?:@sha256:[0-9a-f]+)?(?![A-Za-z0-9_.\-\/])`,
  modPath: String.raw`(?<![A-Za-z0-9_.\-\/@:])((?:[a-z0-9\-]+\.)+[a-z]{2,})(?:\/[A-Za-z0-9_.~\-]+)+`,
  modCtx: String.raw`(?:module|package|packages|import|imports|imported by|requires?|get|install|replace|reading) [\'"\x60(]?$`,
  hostCtx: String.raw`(?<![A-Za-z0-9_])((?:(?:[Cc]ould not|[Uu]nable to) resolve host(?:name)?:?|connect to host|[Uu]nknown host|UnknownHostException:) [\'"]?)(?=[0-9.]*[A-Za-z\-])[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*`,
  hostLookup: String.raw`(?<![A-Za-z0-9_])(lookup )(?=[0-9.]*[A-Za-z\-])[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*(?= on |: )`,
  userDenied: String.raw`(?<![A-Za-z0-9_])(denied to )[A-Za-z0-9_](?:[A-Za-z0-9_.\-]*[A-Za-z0-9_])?(?=[.,;:]?(?: |$))`,
  userSudo: String.raw`^((?:sudo: )?)[A-Za-z0-9_](?:[A-Za-z0-9_.\-]*[A-Za-z0-9_])?( is not in the sudoers file)`,
  userSu: String.raw`(?<![A-Za-z0-9_])([Uu]ser )[A-Za-z0-9_](?:[A-Za-z0-9_.\-]*[A-Za-z0-9_])?( does not exist)`,
  composeCtr: String.raw`(?<![A-Za-z0-9_])((?:[Cc]ontainer|[Cc]ontainer name|on endpoint):? [\'"\/]*)(?=[0-9]*[a-z])[a-z0-9][a-z0-9.\-]*-[a-z0-9][a-z0-9.\-]*-[0-9]+(?![A-Za-z0-9_.\-\/])`,
  composeCtr2: String.raw`(?<![A-Za-z0-9_.\-\/@:<])(?=[0-9]*[a-z])[a-z0-9][a-z0-9.\-]*-[a-z0-9][a-z0-9.\-]*-[0-9]+(?![A-Za-z0-9_.\-\/])(?= exited with code| is unhealthy| +Error| +(?:Started|Starting|Created|Creating|Stopped|Stopping|Running|Healthy|Waiting|Removed|Removing))`,
  composeNet: String.raw`(?<![A-Za-z0-9_.\-\/@:<])[A-Za-z0-9][A-Za-z0-9_.\-]*_default(?![A-Za-z0-9_.\-])`,
  composeCtx: String.raw`(?<![A-Za-z0-9_])([Nn]etwork|[Vv]olume)( [\'"]?)[A-Za-z0-9][A-Za-z0-9.]*[_\-][A-Za-z0-9_.\-]*`,
};

/** @param {string} name @param {string} [flags] */
const re = (name, flags = '') => new RegExp(S[name].split('{PC}').join(PC_JS), flags);
/** The pattern table (before {PC} substitution), exported so tests can check errsig.py uses the same text. */
export const ERRSIG_PATTERNS = Object.freeze({ ...S });
const R = /** @type {Record<string, RegExp>} */ ({});
const G = /** @type {Record<string, RegExp>} */ ({});
for (const k of Object.keys(S)) {
  R[k] = re(k);
  G[k] = re(k, 'g');
}

// Prechecks: not part of the pattern table (ports may leave them out). Each one only skips a pass
// or a rule that cannot match without it, so results are the same with or without them; they
// save most of the time, since most patterns apply to few outputs.
const NOT_PRINTABLE = /[^\x20-\x7e]/; // ctrl, bom and pua need such a character
const QUOTE_CHAR = /['"\x60\u2018\u201c]/; // the opening quote of every style in `quote`
const PATH_HINT = /[\/\\]|\.[a-z0-9]+[:(]/; // `path` needs a slash, or `.ext` then a location
const HOST_HINT = /\.(?:com|net|org|io|dev|app|ai|cloud|internal|local|co|us|eu|de|uk|example|corp|lan|intranet|localdomain)(?![A-Za-z0-9_.\-])/; // how `host` ends
const TIME_HINT = /[0-9]:[0-9]/; // tsMon and tsTime hold `h:mm`
const NUM_DOT = /[0-9]\.[0-9]/; // ip4 and every `ver` form hold `digit.digit`

const WELL_KNOWN = new Set(
  ('package.json package-lock.json npm-shrinkwrap.json tsconfig.json jsconfig.json yarn.lock pnpm-lock.yaml ' +
    '.npmrc .nvmrc .env .babelrc babel.config.js webpack.config.js vite.config.ts vite.config.js ' +
    'jest.config.js .eslintrc.json eslint.config.js Cargo.toml Cargo.lock go.mod go.sum pyproject.toml ' +
    'requirements.txt setup.py setup.cfg Pipfile Pipfile.lock poetry.lock manage.py pom.xml build.gradle ' +
    'build.gradle.kts settings.gradle gradlew Makefile CMakeLists.txt Dockerfile docker-compose.yml ' +
    'docker-compose.yaml compose.yaml Gemfile Gemfile.lock composer.json .gitignore .gitmodules').split(' '),
);
const VALUE_SET = new Set(VALUE_WORDS.split('|'));
// v3: hosts whose module paths are public (Go modules, repositories); a module path under any other
// host is <module>.
const PUBLIC_HOSTS = new Set(
  ('github.com gitlab.com bitbucket.org golang.org google.golang.org gopkg.in go.uber.org k8s.io sigs.k8s.io ' +
    'cloud.google.com go.opentelemetry.io go.etcd.io honnef.co gotest.tools modernc.org gorm.io go.mongodb.org ' +
    'gocloud.dev mvdan.cc rsc.io filippo.io nhooyr.io entgo.io dario.cat gonum.org go.starlark.net').split(' '),
);
const NAME_SET = new Set(NAME_WORDS.split('|'));
// The bare-name patterns in order, each with the texts it cannot match without (a precheck).
/** @type {Array<[string, string[]]>} */
const BARE = [
  ['bare1', ['undefined: ']],
  ['bare2', ['declared and not used: ']],
  ['bare3', ['declared ', ' undefined (type ']],
  ['bare4', ['undefined (type ']],
  ['bare5', ['has no field or method ']],
  ['bare6', [' arguments in call to ']],
  ['bare7', ['cannot use ']],
  ['bare8', ['variable ']],
  ['bare9', ['is already defined in ']],
  ['bare10', ['incompatible types: ']],
  ['bare11', [' cannot be converted to ']],
  ['bare12', [' is public, should be declared in a file named ']],
  ['bare13', ['should be declared in a file named ']],
  ['bare14', ['non-static ']],
  ['bare15', [' is not abstract and does not override abstract method ']],
  ['bare16', ['does not override abstract method ']],
  ['bare17', ['abstract method <s> in ']],
  ['bare18', [' cannot be applied to given types']],
  ['bare19', [' cannot be applied to given types']],
  ['bare20', ['main class ']],
  ['bare21', [' jarfile ']],
  ['bare22', ['Main method not found in class ']],
  ['bare23', ['Unresolved reference']],
  ['bare24', ['id you mean']],
];
// Any of those texts (one scan instead of a search per pattern: most messages hold none).
const BARE_HINT = new RegExp([...new Set(BARE.flatMap(([, needs]) => needs))].map((x) => x.replace(/[()]/g, '\\$&')).join('|'));
const JAVA_PREFIX = new Set('java javax jakarta org com io net kotlin android scala groovy'.split(' '));
const NODE_ONLY = new Set(
  'Error RangeError ReferenceError EvalError URIError AggregateError InternalError AbortError FetchError AxiosError SqliteError DOMException ZodError'.split(' '),
);
const PY_ONLY = new Set(
  ('BaseException Exception ArithmeticError AssertionError AttributeError BlockingIOError BrokenPipeError BufferError ' +
    'ChildProcessError ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError EOFError ' +
    'EnvironmentError FileExistsError FileNotFoundError FloatingPointError GeneratorExit IOError ImportError ' +
    'IndentationError IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError ' +
    'ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError OverflowError PermissionError ' +
    'ProcessLookupError RecursionError RuntimeError StopIteration StopAsyncIteration SystemError SystemExit TabError ' +
    'TimeoutError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError ValueError ' +
    'ZeroDivisionError ExceptionGroup BaseExceptionGroup JSONDecodeError').split(' '),
);
const EXT_TAG = /** @type {Record<string, string>} */ ({
  c: 'c', cc: 'c', cpp: 'c', cxx: 'c', 'c++': 'c', h: 'c', hh: 'c', hpp: 'c', hxx: 'c', m: 'c', mm: 'c', cu: 'c', ino: 'c',
  java: 'java', kt: 'java', kts: 'java', scala: 'java', groovy: 'java',
  rs: 'rust', go: 'go', ts: 'ts', tsx: 'ts', mts: 'ts', cts: 'ts',
  js: 'node', mjs: 'node', cjs: 'node', jsx: 'node', py: 'py', pyi: 'py', pyx: 'py', sql: 'sql', sh: 'sh', bash: 'sh',
});

// ---------------------------------------------------------------------------------------------
// Code-point helpers (JS strings are UTF-16; Python counts code points).
// ---------------------------------------------------------------------------------------------

/** Cut to at most n code points. @param {string} s @param {number} n */
function cpCut(s, n) {
  if (s.length <= n) return s;
  let i = 0;
  let c = 0;
  while (i < s.length && c < n) {
    const u = s.charCodeAt(i);
    i += u >= 0xd800 && u <= 0xdbff && i + 1 < s.length ? 2 : 1;
    c++;
  }
  return s.slice(0, i);
}

/** @param {string} s */
function cpLen(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdbff) n--;
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Step 1: lines.
// ---------------------------------------------------------------------------------------------

/** @param {string} text */
function toLines(text) {
  let s = text;
  if (/[\uD800-\uDFFF]/.test(s)) s = s.replace(G.loneSurr, '\uFFFD');
  // Speed only: without a CR, splitting on LF alone gives the same lines as the regex split.
  let lines = s.indexOf('\r') < 0 ? s.split('\n') : s.split(R.lineSplit);
  if (lines.length > MAX_LINES) lines = lines.slice(0, MAX_LINES / 2).concat(lines.slice(lines.length - MAX_LINES / 2));
  // Empty lines carry no signal for any rule; dropping them keeps newline floods cheap.
  return lines.map(cleanLine).filter((l) => l !== '');
}

/** @param {string} l */
function cleanLine(l) {
  // The `if`s only skip passes that cannot change the line (each pattern needs that character).
  l = cpCut(l, MAX_LINE);
  if (l.indexOf('\x1b') >= 0) l = l.replace(G.ansiOsc, '').replace(G.ansiCsi, '').replace(G.ansiEsc, '');
  if (l.indexOf('m') >= 0 && l.indexOf('[') >= 0) l = l.replace(G.ansiLost, '');
  // ctrl, bom and pua only match characters outside printable ASCII.
  if (NOT_PRINTABLE.test(l)) l = l.replace(G.ctrl, ' ').replace(G.bom, '').replace(G.pua, '\uFFFD');
  if (l.charCodeAt(l.length - 1) === 32) l = l.replace(R.rtrim, '');
  l = l.replace(R.ciPrefix, '');
  // v3: a shell prompt (user, host, directory) becomes `$ `, so an echoed command reads as one.
  // Every prompt form holds one of these characters.
  if (l.indexOf('@') >= 0 || l.indexOf('>') >= 0 || l.indexOf('\u279c') >= 0) {
    const p = l.replace(R.promptLine, '$ ');
    if (p !== l) l = p.charCodeAt(p.length - 1) === 32 ? p.replace(R.rtrim, '') : p;
  }
  return l;
}

// ---------------------------------------------------------------------------------------------
// Step 2: the decisive line (first matching rule wins; see the spec for the order).
// ---------------------------------------------------------------------------------------------

/** @param {string[]} T @param {number} i */
function nextNonEmpty(T, i) {
  for (let j = i + 1; j < T.length; j++) if (T[j] !== '') return T[j];
  return '';
}

/**
 * Some line holds x (x holds no \n but may start with one). J.text is every line after a \n, so a
 * line starts with y when J.text holds '\n' + y; J.firsts has bit (c & 31) set for the first
 * character c of each line, which rules most of those searches out without searching.
 * @param {{ text: string, firsts: number }} J @param {string} x
 */
function has(J, x) {
  if (x.charCodeAt(0) === 10 && (J.firsts & (1 << (x.charCodeAt(1) & 31))) === 0) return false;
  return J.text.indexOf(x) >= 0;
}

/** @param {string[]} L @returns {Pick} */
function pick(L) {
  // Built by push, not map: map's result is sometimes a holey array, and a loop that has only seen
  // one kind deoptimizes pick when it meets the other (rules rarely run, so that went on for long).
  /** @type {string[]} */
  const T = [];
  for (const l of L) T.push(l.charCodeAt(0) === 32 ? l.replace(R.ltrim, '') : l);
  const n = T.length;
  // Prechecks: a rule runs over the lines only when the text it needs is on some line (`has`: one
  // search of J instead of a regex per line; '\nx': a line starts with x). They never change which
  // rule wins.
  let firsts = 0;
  for (let i = 0; i < n; i++) firsts |= 1 << (T[i].charCodeAt(0) & 31);
  const J = { text: '\n' + T.join('\n'), firsts };
  /** @type {RegExpExecArray | null} */
  let m;

  // 1. Rust panic: old `panicked at 'msg', file:l:c`, new (>= 1.73) `panicked at file:l:c:` + msg line.
  if (has(J, 'panicked at ')) for (let i = 0; i < n; i++) {
    if (!(m = R.rustPanic.exec(T[i]))) continue;
    const rest = m[1];
    let msg;
    let o;
    let at = [i];
    if ((o = R.rustPanicOld.exec(rest))) msg = o[1];
    else if (R.rustPanicNew.test(rest)) {
      msg = nextNonEmpty(T, i);
      at = [i, i + 1];
    }
    else if (rest.startsWith("'")) msg = rest.slice(1);
    else msg = rest.replace(R.rustPanicLoc, '');
    return r('rust', 'panicked: ' + msg, at);
  }

  // 2. Go panic / runtime fatal error.
  const goPanic = has(J, '\npanic: ');
  const goFatal = has(J, '\nfatal error: ');
  if (goPanic || goFatal) {
    const goroutine = has(J, '\ngoroutine ') && T.some((t) => R.goroutine.test(t));
    for (let i = 0; i < n; i++) {
      // v2: a Go panic alone (one line, or with only `exit status N` after it) is Go's too.
      const alone = n === 1 || (n === 2 && R.goExit.test(T[1 - i]));
      if (goPanic && (m = R.goPanic.exec(T[i])) && (goroutine || alone || m[1].startsWith('runtime error: ') || R.goSignal.test(nextNonEmpty(T, i))))
        return r('go', 'panic: ' + m[1], [i]);
      if (goFatal && (m = R.goFatal.exec(T[i])) && (goroutine || (alone && R.goFatalMsg.test(m[1])))) return r('go', 'fatal error: ' + m[1], [i]);
    }
  }

  // 3. Python traceback: the exception line after the last `Traceback` header (the one that ended the run).
  let last = -1;
  if (has(J, 'Traceback (most recent call last):')) for (let i = 0; i < n; i++) if (R.pyTb.test(T[i])) last = i;
  if (last >= 0) {
    for (let j = last + 1; j < n; j++) {
      if (L[j] === '' || L[j].charCodeAt(0) === 32) continue;
      if (R.pyExcAny.test(T[j])) return r('py', T[j], [j]);
    }
    for (let j = n - 1; j > last; j--) if (R.pyExcStrict.test(T[j])) return r('py', T[j], [j]);
  }
  // 3b. Python without `Traceback` (SyntaxError at compile time): `File "x", line N` context.
  if (has(J, 'File "') && L.some((l) => R.pyFile.test(l))) {
    for (let j = n - 1; j >= 0; j--) if (R.pyExcStrict.test(T[j])) return r('py', T[j], [j]);
  }
  // 4. pytest: first `E   XError: ...` line, else the short summary `FAILED x::t - msg`.
  if (has(J, '\nE ')) for (let i = 0; i < n; i++) if ((m = R.pytestE.exec(L[i])) && R.pyExcStrict.test(m[1])) return r('py', m[1], [i]);
  if (has(J, 'FAILED ') || has(J, 'ERROR ')) for (let i = 0; i < n; i++) if ((m = R.pytestSummary.exec(T[i]))) return r('py', m[1], [i]);

  // 5. JVM: root cause (last `Caused by:`), else the `Exception in thread` line, else the first exception line.
  const javaFrames = has(J, '\nat ') && T.some((t) => R.javaFrame.test(t));
  let thread = -1;
  let cause = -1;
  if (has(J, 'Exception in thread "') || has(J, 'Caused by: ')) {
    for (let i = 0; i < n; i++) {
      if (thread < 0 && R.javaThread.test(T[i])) thread = i;
      if (R.javaCause.test(T[i])) cause = i;
    }
  }
  if (thread >= 0 || (javaFrames && cause >= 0)) {
    if (cause >= 0) return r('java', T[cause].replace(R.javaCause, ''), [cause]);
    return r('java', T[thread].replace(R.javaThread, ''), [thread]);
  }
  if (javaFrames) for (let i = 0; i < n; i++) if (R.javaExc.test(T[i])) return r('java', T[i], [i]);
  // 5b (v2). The JVM launcher's own errors (no exception, no frames).
  if (has(J, 'main class ') || has(J, 'jarfile ') || has(J, 'Main method not found in class ') || has(J, 'JavaFX runtime components are missing'))
    for (let i = 0; i < n; i++) if ((m = R.javaLauncher.exec(T[i]))) return r('java', 'Error: ' + m[1], [i]);

  // 6. Compiler and linker diagnostics: the first one in the output.
  const tsc = has(J, 'error TS');
  const rustc = has(J, '\nerror[E');
  const gcc = has(J, ': error: ') || has(J, ': fatal error: ');
  const msvc = has(J, ': error ') || has(J, ': fatal error '); // and msLink
  const goBuild = has(J, '.go:');
  const kotlin = has(J, '\ne: ');
  const eslint = has(J, ' error ');
  const linkUndef = has(J, 'undefined reference to ');
  const macLink = has(J, '\nUndefined symbols for architecture ');
  if (tsc || rustc || gcc || msvc || goBuild || kotlin || eslint || linkUndef || macLink) {
    for (let i = 0; i < n; i++) {
      const t = T[i];
      if (tsc && (m = R.tsc.exec(t))) return r('ts', 'error ' + m[1] + ': ' + m[2], [i]);
      if (rustc && (m = R.rustc.exec(t))) return r('rust', 'error[' + m[1] + ']: ' + m[2], [i]);
      if (gcc && (m = R.gcc.exec(t))) return r(extTag(m[1]), m[2] + ': ' + m[3], [i]);
      if (msvc && (m = R.msvc.exec(t))) return r(extTag(m[1]), m[2] + ' ' + m[3] + ': ' + m[4], [i]);
      if (msvc && (m = R.msLink.exec(t))) return r(R.msCodeC.test(m[1]) ? 'c' : 'other', 'error ' + m[1] + ': ' + m[2], [i]);
      if (goBuild && (m = R.goBuild.exec(t))) return r('go', m[2], [i]);
      if (kotlin && (m = R.kotlin.exec(t))) return r('java', m[2], [i]);
      if (eslint && (m = R.eslint.exec(t))) return r('node', 'error ' + m[1], [i]);
      if (linkUndef && (m = R.linkUndef.exec(t))) return r('c', 'undefined reference to ' + m[1], [i]);
      if (macLink && R.macLink.test(t)) {
        const s = R.macSym.exec(nextNonEmpty(T, i));
        return r('c', 'undefined symbols' + (s ? ': ' + s[1] : ''), [i, i + 1]);
      }
    }
  }

  // 6b (v2). webpack / Next.js: `Module not found: Error: Can't resolve 'x' in '/dir'` states the
  // error; the `ERROR in ./src/file.js 3:0-28` header above it only says where.
  if (has(J, '\nModule not found: ')) for (let i = 0; i < n; i++) if ((m = R.webpackNF.exec(T[i]))) return r('node', 'Module not found: ' + m[1], [i]);

  // 7. Node: the first `XError: msg` line of a stack, plus its first `[cause]`.
  const nodeCtx =
    (has(J, '\nat ') || has(J, '\n\u276F ') || has(J, '\nNode.js v') || has(J, '\nnode:')) && T.some((t) => R.nodeFrame.test(t) || R.nodeCtx.test(t));
  if (nodeCtx) {
    for (let i = 0; i < n; i++) {
      if (!R.nodeHdr.test(T[i]) || R.wrap.test(T[i])) continue;
      let msg = withNext(T, i);
      const at = withNextAt(T, i);
      for (let j = i + 1; j < n; j++) {
        const c = R.nodeCause.exec(T[j]);
        if (c && R.nodeHdr.test(c[1])) {
          msg += ' [cause] ' + c[1];
          at.push(j);
          break;
        }
      }
      return r('node', msg, at);
    }
  }

  // 7b. jest: a matcher failure has no `Error:` line; the line after the `● test title` is the message.
  if (has(J, '\n\u25cf ')) for (let i = 0; i < n; i++) {
    if (!R.jestTitle.test(T[i])) continue;
    const msg = nextNonEmpty(T, i);
    if (msg !== '' && !R.jestTitle.test(msg)) return r('node', msg, [i, i + 1]);
  }

  // 8. SQL: PostgreSQL (`ERROR:  ` with two spaces), psql, MySQL, SQL Server, Oracle, sqlite3 CLI.
  const pg = has(J, ':  ');
  const pgTool = has(J, ': error: ') || has(J, ': fatal: ') || has(J, ': FATAL: ');
  const mysql = has(J, '\nERROR ');
  const mssql = has(J, '\nMsg ');
  const oracle = has(J, 'ORA-');
  const sqliteCli = has(J, '\nError: ') || has(J, '\nParse error') || has(J, '\nRuntime error');
  if (pg || pgTool || mysql || mssql || oracle || sqliteCli) {
    for (let i = 0; i < n; i++) {
      const t = T[i];
      if (pg && (m = R.pg.exec(t))) return r('sql', m[1] + ': ' + m[2], [i]);
      if (pgTool && R.pgTool.test(t)) return r('sql', t, [i]);
      if (mysql && (m = R.mysql.exec(t))) return r('sql', 'ERROR ' + m[1] + ' (' + m[2] + '): ' + m[3], [i]);
      if (mssql && (m = R.mssql.exec(t))) return r('sql', 'Msg ' + m[1] + ': ' + nextNonEmpty(T, i), [i, i + 1]);
      if (oracle && (m = R.oracle.exec(t))) return r('sql', m[1], [i]);
      if (sqliteCli && (m = R.sqliteCli.exec(t)) && R.sqliteMsg.test(m[1])) return r('sql', m[1].replace(R.sqliteCode, ''), [i]);
    }
  }

  // 9. Shell: every shell's "command not found" becomes one form; other shell errors lose the shell name.
  // Every "not found" form holds one of these texts.
  if (has(J, 'not found') || has(J, 'Unknown command') || has(J, 'is not recognized as')) for (let i = 0; i < n; i++) {
    const t = T[i];
    if ((m = R.shNotFound1.exec(t) || R.shNotFound2.exec(t) || R.shNotFound3.exec(t) || R.shNotFound4.exec(t) || R.shNotFound5.exec(t) || R.shNotFound6.exec(t)))
      return r('sh', 'command not found: ' + m[1], [i]);
  }
  // The shell prefix (`…sh`, `env`) is followed by `: `, maybe after `: line N` / `: N`.
  if (has(J, 'sh: ') || has(J, 'env: ')) for (let i = 0; i < n; i++) if ((m = R.shGeneric.exec(T[i]))) return r('sh', m[1], [i]);

  // 10. pip.
  if (T.some((t) => R.pipCtx.test(t))) {
    if (T.some((t) => t === 'error: externally-managed-environment')) return r('pip', 'externally-managed-environment', [T.indexOf('error: externally-managed-environment')]);
    // A build backend's own output sits in the `╰─> [N lines of output]` block: its first error
    // line (else its first line) is the cause; pip's ERROR lines only name the package.
    for (let i = 0; i < n; i++) {
      if (!R.pipBlock.test(T[i])) continue;
      let first = '';
      let firstAt = -1;
      for (let j = i + 1; j < n && !R.pipBlockEnd.test(T[j]); j++) {
        if ((R.strong.test(T[j]) || R.errorish.test(T[j])) && !R.noise.test(T[j])) return r('pip', T[j], [j]);
        if (first === '') {
          first = T[j];
          firstAt = j;
        }
      }
      if (first !== '') return r('pip', first, [firstAt]);
    }
    for (let i = 0; i < n; i++) {
      if (!T[i].startsWith('ERROR: ')) continue;
      const msg = T[i].slice(7);
      if (R.pipResolver.test(msg)) return r('pip', 'dependency conflict: ' + nextNonEmpty(T, i), [i, i + 1]);
      return r('pip', msg, [i]);
    }
    for (let i = 0; i < n; i++) {
      if (T[i] !== 'error: subprocess-exited-with-error') continue;
      for (let j = i + 1; j < n; j++) if ((m = R.pipX.exec(T[j]))) return r('pip', 'subprocess-exited-with-error: ' + m[1], [i, j]);
      return r('pip', 'subprocess-exited-with-error', [i]);
    }
  }

  // 11. npm (>= 10 prints `npm error`, older `npm ERR!`). Script failures only wrap another tool's
  // error, so they come last (rule 16) and only when nothing more specific is found.
  const npm = has(J, '\nnpm ') ? npmPick(T) : null;
  if (npm && !npm.wrapper) return r('npm', npm.msg, npm.at);

  // 12. The go command.
  if (has(J, '\ngo: ') || has(J, '\nverifying ')) for (let i = 0; i < n; i++) {
    if ((m = R.goTool.exec(T[i]))) return r('go', 'go: ' + m[1], [i]);
    if ((m = R.goSum.exec(T[i]))) return r('go', m[1], [i]);
  }

  // 12b (v2). A gcc/clang diagnostic without its location (one line): its template tells C.
  if (has(J, '\nerror: ') || has(J, '\nfatal error: ')) for (let i = 0; i < n; i++) if (R.cLine.test(T[i])) return r('c', T[i], [i]);

  // 13. A bare exception line `XError: msg` without a stack: the name (and message) tell the runtime.
  for (let i = 0; i < n; i++) {
    if (!(m = R.excHdr.exec(T[i])) || R.noise.test(T[i]) || R.wrap.test(T[i])) continue;
    return r(classifyExc(m[1], m[2] || ''), withNext(T, i), withNextAt(T, i));
  }

  // 14. cargo / rustc errors without a code.
  if (has(J, '\nerror: ') && T.some((t) => R.rustCtx.test(t))) for (let i = 0; i < n; i++) if ((m = R.rustErr.exec(T[i]))) return r('rust', 'error: ' + m[1], [i]);

  // 15. Gradle `* What went wrong:`, Maven `[ERROR]` (a javac location line first).
  if (has(J, '\n* What went wrong:')) for (let i = 0; i < n; i++) if (R.gradle.test(T[i])) return r('java', nextNonEmpty(T, i), [i, i + 1]);
  // Spring Boot's failure analyzer: the line after `Description:`.
  if (has(J, '\nAPPLICATION FAILED TO START') && T.some((t) => R.spring.test(t))) for (let i = 0; i < n; i++) if (R.springDesc.test(T[i])) return r('java', nextNonEmpty(T, i), [i, i + 1]);
  if (has(J, '\n[ERROR] ') && T.some((t) => R.mvnInfo.test(t))) {
    /** @type {string | null} */
    let first = null;
    let firstAt = -1;
    for (let i = 0; i < n; i++) {
      if (!(m = R.mvnError.exec(T[i])) || R.mvnNoise.test(m[1]) || R.wrap.test(m[1])) continue;
      if (R.mvnJava.test(m[1])) return r('java', m[1], [i]);
      if (first === null) {
        first = m[1];
        firstAt = i;
      }
    }
    if (first !== null) return r('java', first, [firstAt]);
  }

  // 15b (v3). git: a Git LFS server's answer (`batch response: …`, a smudge error's cause), GitHub's
  // `remote: error: GH…` code line, else a rejected ref of a push
  // (`! [rejected] main -> main (non-fast-forward)`), not the `failed to push some refs` wrapper.
  if (has(J, 'batch response: ')) for (let i = 0; i < n; i++) if ((m = R.gitBatch.exec(T[i]))) return r('git', m[1], [i]);
  if (has(J, 'Smudge error: ')) for (let i = 0; i < n; i++) if ((m = R.gitSmudge.exec(T[i]))) return r('git', m[1], [i]);
  if (has(J, '\nremote: error: GH')) for (let i = 0; i < n; i++) if ((m = R.gitRemote.exec(T[i]))) return r('git', m[1], [i]);
  if (has(J, '\n! [')) for (let i = 0; i < n; i++) if ((m = R.gitRejected.exec(T[i]))) return r('git', '! [' + m[1] + '] <ref> -> <ref> (' + m[2] + ')', [i]);

  // 15c (v3). kubectl's pod table: the status of the first pod that is not running (the header
  // and the pod names say nothing about the error).
  if (has(J, '\nNAME ') && T.some((t) => R.kubeHdr.test(t)))
    for (let i = 0; i < n; i++) if ((m = R.kubeRow.exec(T[i])) && !R.kubeOk.test(m[1])) return r('k8s', 'pod status ' + m[1], [i]);

  // 16. npm script failure wrapper.
  if (npm) return r('npm', npm.msg, npm.at);

  // 16b. Warnings when there is no error: Python `file.py:12: XWarning: msg` (the message may be
  // on the next line), ESLint `12:5  warning  msg  rule`.
  const pyWarn = has(J, '.py:');
  const eslintWarn = has(J, ' warning ');
  if (pyWarn || eslintWarn) for (let i = 0; i < n; i++) {
    if (pyWarn && (m = R.pyWarn.exec(T[i]))) return r('py', m[1] + ': ' + (m[2] || nextNonEmpty(T, i)), m[2] ? [i] : [i, i + 1]);
    if (eslintWarn && (m = R.eslintWarn.exec(T[i]))) return r('node', 'warning ' + m[1], [i]);
  }

  // 17. Generic: the first strong error line, else error-ish line, else warning, else wrapper line,
  // else the first line (echoed `$ command` lines skipped).
  // v3: prompts, progress, tables, hints (`skip`) never state the error, and wrappers (`noise`,
  // `wrap`) only when no other line does.
  const skip = T.map((t) => R.skip.test(t));
  const wrap = T.map((t) => R.noise.test(t) || R.wrap.test(t));
  let at = -1;
  let weak = false;
  for (let i = 0; i < n && at < 0; i++) if (R.strong.test(T[i]) && !wrap[i] && !skip[i]) at = i;
  for (let i = 0; i < n && at < 0; i++) if (R.errorish.test(T[i]) && !wrap[i] && !skip[i] && !R.prompt.test(T[i])) at = i;
  if (at < 0) weak = true;
  for (let i = 0; i < n && at < 0; i++) if (R.warnish.test(T[i]) && !skip[i]) at = i;
  for (let i = 0; i < n && at < 0; i++) if (wrap[i]) at = i;
  for (let i = 0; i < n && at < 0; i++) if (!skip[i] && !R.prompt.test(T[i]) && R.hasLetter.test(T[i])) at = i;
  if (at < 0 && n > 0) at = 0;
  const line = at >= 0 ? T[at] : '';
  let tag = 'other';
  if (R.toolC.test(line)) tag = 'c';
  else if (R.toolRust.test(line)) tag = 'rust';
  else if (R.toolJava.test(line)) tag = 'java';
  else if (R.toolNpm.test(line)) tag = 'npm';
  else if (R.toolNode.test(line) || nodeCtx) tag = 'node';
  else if (R.toolPy.test(line)) tag = 'py';
  return r(tag, line, at >= 0 ? [at] : [], weak);
}

/** An exception line whose message is empty (`Error:`) takes the next line as its message. @param {string[]} T @param {number} i */
function withNext(T, i) {
  const line = T[i].replace(R.uncaught, '');
  return R.emptyMsg.test(line) ? line + ' ' + nextNonEmpty(T, i) : line;
}

/** The lines withNext(T, i) reads. @param {string[]} T @param {number} i */
function withNextAt(T, i) {
  return R.emptyMsg.test(T[i].replace(R.uncaught, '')) && i + 1 < T.length ? [i, i + 1] : [i];
}

/**
 * A pick: the tag, the decisive text, the indexes of the lines it was read from, and whether it
 * came from a weak tier of rule 17 (a warning, a wrapper or any line: no line states an error).
 * @param {string} tag @param {string} msg @param {number[]} at @param {boolean} [weak]
 * @returns {Pick}
 */
function r(tag, msg, at, weak = false) {
  return { tag, msg, at, weak };
}

/** @param {string} file */
function extTag(file) {
  const dot = file.lastIndexOf('.');
  const ext = dot >= 0 ? file.slice(dot + 1) : '';
  return Object.prototype.hasOwnProperty.call(EXT_TAG, ext) ? EXT_TAG[ext] : 'other';
}

/** @param {string[]} T @returns {{ msg: string, wrapper: boolean, at: number[] } | null} */
function npmPick(T) {
  /** @type {string[]} */
  const rest = [];
  /** @type {number[]} */
  const at = [];
  for (let i = 0; i < T.length; i++) {
    const m = R.npm.exec(T[i]);
    if (m) {
      rest.push((m[1] || '').replace(R.ltrim, ''));
      at.push(i);
    }
  }
  if (rest.length === 0) return null;
  let code = '';
  for (const r of rest) {
    const m = R.npmCode.exec(r);
    if (m) {
      code = m[1];
      break;
    }
  }
  let line = '';
  if (code === 'E404') {
    for (const r of rest) if (R.npmRegistry.test(r)) line = r.replace(R.npm404, '').replace(G.npmQuotedSpec, (_m, p) => "'" + p + "'");
  } else if (code === 'ERESOLVE') {
    line = 'unable to resolve dependency tree';
    for (let i = 0; i < rest.length - 1; i++) if (R.npmResolve.test(rest[i])) line += '; ' + rest[i + 1];
  }
  if (line === '' && code && R.npmWrapper.test(code)) {
    // node-gyp failures inside a script: the stack's Error line names the cause.
    for (const r of rest) {
      const g = R.npmGyp.exec(r);
      if (g) {
        line = 'gyp ' + g[1];
        break;
      }
    }
  }
  if (line === '' && code) {
    // `ENOENT: ...` may sit after a prefix that differs between npm versions.
    for (const r of rest) {
      const k = r.indexOf(code + ': ');
      if (k >= 0) {
        line = r.slice(k);
        break;
      }
    }
  }
  if (line === '') {
    for (const r of rest) {
      if (r === '' || R.npmField.test(r)) continue;
      line = r.replace(R.npmCategory, '');
      break;
    }
  }
  let msg = line;
  if (code && !(line.startsWith(code + ':') || line.startsWith(code + ' '))) msg = line ? code + ' ' + line : code;
  return { msg, wrapper: !code || R.npmWrapper.test(code), at };
}

/** @param {string} name @param {string} msg */
function classifyExc(name, msg) {
  if (name.indexOf(' [') >= 0) return 'node';
  if (name.indexOf('.') >= 0) {
    const first = name.slice(0, name.indexOf('.'));
    if (JAVA_PREFIX.has(first)) return 'java';
    if (first === 'System' || first === 'Microsoft') return 'other';
    return 'py';
  }
  if (NODE_ONLY.has(name)) return 'node';
  if (PY_ONLY.has(name)) return 'py';
  if (name === 'TypeError' || name === 'SyntaxError') {
    if (R.pyPhr.test(msg)) return 'py';
    if (R.nodePhr.test(msg)) return 'node';
  }
  return 'other';
}

// ---------------------------------------------------------------------------------------------
// Step 3: normalize the decisive text.
// ---------------------------------------------------------------------------------------------

/** Shielded spans are final: later passes skip them (private-use markers). */
class Shield {
  constructor() {
    /** @type {string[]} */
    this.spans = [];
  }
  /** @param {string} s */
  put(s) {
    this.spans.push(s);
    return '\uE000' + String.fromCharCode(0xe100 + this.spans.length - 1) + '\uE001';
  }
  /** @param {string} s */
  open(s) {
    for (let k = 0; k < 2 && s.indexOf('\uE000') >= 0; k++) {
      s = s.replace(G.shieldTok, (_m, c) => {
        const v = this.spans[c.charCodeAt(0) - 0xe100];
        return v === undefined ? '' : v;
      });
    }
    return s;
  }
}

/** @param {string} msg @param {boolean} strict quoted names are values (a compiler template, v2) @param {boolean} go the tag is go (v3) */
function normalize(msg, strict, go) {
  const sh = new Shield();
  let s = cpCut(msg, MAX_MSG);
  // The `if`s are prechecks: each skips a pass whose pattern needs the text tested (see its
  // source). No pass adds a digit, so `digit` stays true of every later s when it is false.
  const digit = R.hasDigit.test(s);
  if (s.startsWith('Got ')) s = s.replace(R.dockerGot, '');
  // Codes that identify the error are kept verbatim: exit codes, errno, HTTP status, SQLSTATE.
  if (digit || s.indexOf(']') >= 0) s = s.replace(G.protect, (_m, pre, num) => pre + sh.put(num));
  if (s.indexOf('error:') >= 0) s = s.replace(G.protectOpenssl, (_m, pre, code) => pre + sh.put(code));
  if (digit) s = s.replace(G.protectHttp, (_m, num) => sh.put(num));
  if (digit || s.indexOf('(') >= 0) s = s.replace(G.protectSqlState, (_m, st) => sh.put(st));
  if (s.indexOf('://') >= 0) {
    s = s.replace(G.httpVerb, '');
    s = s.replace(G.url, (m) => {
      const trail = (R.urlTrail.exec(m) || [''])[0];
      const u = m.slice(0, m.length - trail.length);
      const reg = R.npmReg.exec(u);
      return sh.put(reg ? '<registry>/' + reg[1].replace(G.pct2f, '/') : '<url>') + trail;
    });
  }
  s = privacy(s, sh, go);
  if (s.indexOf('%2') >= 0) s = s.replace(G.pctPath, (_m, a) => a + sh.put('<path>'));
  s = quotes(s, 0, sh, strict);
  if (PATH_HINT.test(s)) s = s.replace(G.path, (m) => pathMatch(m, sh));
  if (s.indexOf('no such ') >= 0) s = s.replace(G.sqlIdent1, (_m, a) => a + '<s>');
  if (s.indexOf('constraint failed: ') >= 0) s = s.replace(G.sqlIdent2, (_m, a) => a + '<s>');
  if (s.indexOf(' has no column named ') >= 0) s = s.replace(G.sqlIdent3, (_m, a, b) => a + '<s>' + b + '<s>');
  if (s.indexOf(' already exists') >= 0) s = s.replace(G.sqlIdent4, (_m, a, b) => a + '<s>' + b);
  if (BARE_HINT.test(s)) for (const [k, needs] of BARE) if (needs.some((x) => s.indexOf(x) >= 0)) s = s.replace(G[k], (_m, a, b) => a + '<s>' + b);
  s = tokens(s);
  s = sh.open(s);
  if (s.indexOf('  ') >= 0) s = s.replace(G.spaces, ' ');
  if (s.charCodeAt(0) === 32) s = s.replace(R.ltrim, '');
  if (s.charCodeAt(s.length - 1) === 32) s = s.replace(R.rtrim, '');
  if (s.indexOf('<') >= 0) s = s.replace(G.runs, (_m, p) => p);
  return s;
}

/**
 * v3: names that belong to someone (before the quote step, so quoted ones go too): git remotes
 * (`git@host:owner/repo.git`, `owner/repo.git`, `repository owner/repo`) → <repo>; e-mail → <email>;
 * container images (a registry host's path, `pull access denied for x`, `image x:tag`) → <image>;
 * module paths under a host that is not a well-known public one → <module>; the host a name
 * lookup or a connection failed for → <host>; the user a permission was denied to → <user>.
 * Module paths count under the go tag, before `@` and after words such as `module`, `package`, `imports`.
 * @param {string} s @param {Shield} sh @param {boolean} go
 */
function privacy(s, sh, go) {
  // Prechecks: each pattern needs the text tested.
  const slash = s.indexOf('/') >= 0;
  if (slash && s.indexOf(':') >= 0) s = s.replace(G.gitScp, () => sh.put('<repo>'));
  if (s.indexOf('@') >= 0) s = s.replace(G.email, () => sh.put('<email>'));
  if (slash) {
    s = s.replace(G.imageReg, () => sh.put('<image>'));
    if (s.indexOf('epo') >= 0 || s.indexOf('Permission to ') >= 0 || s.indexOf('with the name ') >= 0) s = s.replace(G.repoCtx, (_m, a) => a + sh.put('<repo>'));
    if (s.indexOf('.git') >= 0) s = s.replace(G.repoGit, () => sh.put('<repo>'));
    if (s.indexOf('refs/') >= 0) s = s.replace(G.gitRef, (_m, a) => a + sh.put('<ref>'));
  }
  if (s.indexOf('refspec ') >= 0 || s.indexOf('pathspec ') >= 0) s = s.replace(G.gitRefspec, (_m, a) => a + sh.put('<ref>'));
  if (s.indexOf('.(none)') >= 0) s = s.replace(G.gitIdent, () => sh.put('<email>'));
  if (s.indexOf('pull access denied for ') >= 0 || s.indexOf('manifest for ') >= 0 || s.indexOf('No such image: ') >= 0) s = s.replace(G.imageFor, (_m, a) => a + sh.put('<image>'));
  if (s.indexOf('mage ') >= 0 || s.indexOf('reference ') >= 0 || s.indexOf('pulling ') >= 0 || s.indexOf('failed to solve: ') >= 0) s = s.replace(G.imageCtx, (_m, a) => a + sh.put('<image>'));
  if (slash)
    s = s.replace(G.modPath, (m, host, off) =>
      PUBLIC_HOSTS.has(host) || R.ext.test(host) || !(go || s.charCodeAt(off + m.length) === 64 || R.modCtx.test(s.slice(0, off))) ? m : sh.put('<module>'),
    );
  if (s.indexOf('host') >= 0 || s.indexOf('Host') >= 0) s = s.replace(G.hostCtx, (_m, a) => a + sh.put('<host>'));
  if (s.indexOf('lookup ') >= 0) s = s.replace(G.hostLookup, (_m, a) => a + sh.put('<host>'));
  if (s.indexOf('denied to ') >= 0) s = s.replace(G.userDenied, (_m, a) => a + sh.put('<user>'));
  if (s.indexOf(' is not in the sudoers file') >= 0) s = s.replace(G.userSudo, (_m, a, b) => a + sh.put('<user>') + b);
  if (s.indexOf(' does not exist') >= 0) s = s.replace(G.userSu, (_m, a, b) => a + sh.put('<user>') + b);
  return s;
}

/**
 * Quoted segments: kept when they name something (a module, a type, a key), replaced by <s> when
 * they are values (after `=`, after a trailing `: `, after words like `user`, `table`, or not
 * identifier-like), turned into <path> when they are paths. Quote style is canonicalized to '.
 * v2: in a compiler template (strict) every quoted name is a value, except after module, crate,
 * package, import ... and paths; Python's `name 'x' is not defined` and `local variable 'x'
 * referenced before assignment` name a variable; a one-character value after `@` is a value.
 * @param {string} s @param {number} depth @param {Shield} sh @param {boolean} strict
 */
function quotes(s, depth, sh, strict) {
  if (!QUOTE_CHAR.test(s)) return s; // precheck: every quote style starts with one of these
  const firstColon = s.indexOf(': ');
  return s.replace(G.quote, (m, g1, g2, g3, c0, c1, c2, c3, c4, c5, offset) => {
    const pre = g1 || g2 || g3 || '';
    // c0: a quoted list repr such as Python's Command '['npm', 'ci']'; c1..c5: the quote styles.
    const c = [c0, c1, c2, c3, c4, c5].find((x) => x !== undefined) ?? '';
    const after = s.slice(offset + m.length);
    const word = g1 ? g1.slice(0, -1) : '';
    const len = cpLen(c);
    const isValue =
      VALUE_SET.has(word) || !!g2 || (!!g3 && firstColon >= 0 && firstColon < offset && R.quoteTrail.test(after)) || ((word === 'name' || word === 'variable') && R.pyNameTail.test(after));
    let out;
    if (len <= 1) out = sh.put(((isValue || strict) && R.wordChar.test(c)) || g2 === '@' ? '<s>' : "'" + c + "'");
    else if (R.onlyShield.test(c)) out = c;
    else if (len > MAX_QUOTED) out = sh.put('<s>');
    else if (R.strongPath.test(c)) out = sh.put(normPath(c));
    else if (NAME_SET.has(word) && (!strict || word !== 'named') && R.identLike.test(c)) out = sh.put("'" + tokens(c) + "'");
    else if (R.weakPathRel.test(c) || R.weakPathBare.test(c) || WELL_KNOWN.has(c)) out = sh.put(R.header.test(c) ? "'" + c + "'" : normPath(c));
    else if (isValue || strict) out = sh.put('<s>');
    else if (R.identLike.test(c)) out = sh.put("'" + tokens(c) + "'");
    else if (depth < 2 && R.nested.test(c)) out = "'" + quotes(c, depth + 1, sh, false) + "'";
    else out = sh.put('<s>');
    return pre + out;
  });
}

/** @param {string} m @param {Shield} sh */
function pathMatch(m, sh) {
  const core = m.replace(R.trailDots, '');
  const tail = m.slice(core.length);
  if (core === '') return m;
  if (!R.pathAbs.test(core)) {
    const base = baseName(stripLoc(core));
    // A relative token is a file path only with a location or a known extension; module paths
    // (github.com/x/y, @types/node), MIME types and relative header includes stay as they are.
    if (!R.hasLoc.test(core) && (!R.ext.test(base) || R.header.test(base))) return m;
  }
  return sh.put(normPath(core)) + tail;
}

/** @param {string} p */
function stripLoc(p) {
  return p.replace(R.hasLoc, '');
}

/** @param {string} p */
function baseName(p) {
  const q = p.replace(G.slashes, '/');
  return q.slice(q.lastIndexOf('/') + 1);
}

/**
 * A path becomes <path>, except: the package part under node_modules / site-packages / the cargo
 * registry / the Go module cache is kept (without versions), and well-known file names (manifests,
 * headers, shared libraries) are kept as their base name.
 * @param {string} p
 */
function normPath(p) {
  const q = stripLoc(p).replace(G.slashes, '/');
  const nm = q.lastIndexOf('node_modules/');
  if (nm >= 0 && (nm === 0 || q[nm - 1] === '/')) return 'node_modules/' + q.slice(nm + 13);
  const sp = Math.max(q.lastIndexOf('/site-packages/'), q.lastIndexOf('/dist-packages/'));
  if (sp >= 0) return 'site-packages/' + q.slice(sp + 15);
  let m;
  if ((m = R.cargo.exec(q))) return 'cargo/' + m[1] + (m[2] ? '/' + m[2] : '');
  if ((m = R.gomod.exec(q))) return 'gomod/' + (publicModule(m[1]) ? m[1] : '<module>') + (m[2] ? '/' + m[2] : '');
  const base = q.slice(q.lastIndexOf('/') + 1);
  if (WELL_KNOWN.has(base) || R.header.test(base) || R.shlib.test(base)) return base;
  return '<path>';
}

/** A Go module path under a well-known public host (v3: others are <module>). @param {string} mod */
function publicModule(mod) {
  const k = mod.indexOf('/');
  return PUBLIC_HOSTS.has(k >= 0 ? mod.slice(0, k) : mod);
}

/** Volatile tokens, in order. @param {string} s */
function tokens(s) {
  // Prechecks, as in normalize: the timestamp, IPv4, size, duration, version and number patterns
  // need a digit, and hexBare and randId replace only runs holding one; no pass adds a digit.
  const digit = R.hasDigit.test(s);
  if (s.indexOf('ENOTFOUND ') >= 0 || s.indexOf('EAI_AGAIN ') >= 0) s = s.replace(G.enotfound, (_m, a) => a + '<host>');
  if (s.indexOf('-') >= 0) s = s.replace(G.uuid, '<uuid>');
  if (digit) {
    s = s.replace(G.tsIso, '<ts>');
    if (TIME_HINT.test(s)) {
      s = s.replace(G.tsMon, '<ts>');
      s = s.replace(G.tsTime, '<ts>');
    }
  }
  // v3: Docker Compose names (project-service-N containers, project_default networks, named
  // networks and volumes) are the user's.
  if (digit && s.indexOf('-') >= 0) {
    if (s.indexOf('ontainer') >= 0 || s.indexOf('endpoint') >= 0) s = s.replace(G.composeCtr, (_m, a) => a + '<container>');
    s = s.replace(G.composeCtr2, '<container>');
  }
  if (s.indexOf('_default') >= 0) s = s.replace(G.composeNet, '<network>');
  if (s.indexOf('etwork ') >= 0 || s.indexOf('olume ') >= 0) s = s.replace(G.composeCtx, (_m, w, a) => w + a + (w === 'network' || w === 'Network' ? '<network>' : '<volume>'));
  // `::1:5432`: a compressed IPv6 address followed by a port reads as one address; take the port back.
  // (An address holds `::` or seven colons.)
  if (s.indexOf('::') >= 0 || atLeast(s, ':', 7)) {
    s = s.replace(G.ip6, (m) => {
      const p = R.ip6Port.exec(m);
      return p ? '<ip>:' + p[1] : '<ip>';
    });
  }
  if (digit && NUM_DOT.test(s)) s = s.replace(G.ip4, '<ip>');
  if (HOST_HINT.test(s)) s = s.replace(G.host, '<host>');
  if (s.indexOf('0x') >= 0 || s.indexOf('0X') >= 0) s = s.replace(G.hex0x, '<hex>');
  if (!digit) return s;
  s = s.replace(G.hexBare, (m) => (R.hasDigit.test(m) && R.hasHexLetter.test(m) ? '<hex>' : m));
  // Random ids (keys, request ids) switch between letters and digits often; CamelCase names with a
  // version suffix (PydanticDeprecatedSince20) do not.
  s = s.replace(G.randId, (m) => (R.lower.test(m) && R.upper.test(m) && (m.match(G.alnumFlip) || []).length >= 4 ? '<id>' : m));
  s = s.replace(G.size, '<size>');
  s = s.replace(G.dur, '<dur>');
  if (NUM_DOT.test(s)) s = s.replace(G.ver, '<v>');
  s = s.replace(G.num, '<n>');
  return s;
}

/** s holds ch at least k times. @param {string} s @param {string} ch @param {number} k */
function atLeast(s, ch, k) {
  for (let i = s.indexOf(ch); i >= 0; i = s.indexOf(ch, i + 1)) if (--k === 0) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// The function.
// ---------------------------------------------------------------------------------------------

/**
 * ErrSig v3 of raw error output: the fine signature and the coarse one.
 * @param {string} text
 * @returns {ErrSig}
 */
export function errsig(text) {
  const s = typeof text === 'string' ? text : text == null ? '' : String(text);
  return sign(pick(toLines(s)));
}

/** @param {Pick} p @returns {ErrSig} */
function sign({ tag, msg }) {
  // strictTpl starts with one of these tags (the test skips joining a long msg for the others).
  const strict = (tag === 'rust' || tag === 'ts' || tag === 'c' || tag === 'java' || tag === 'go') && R.strictTpl.test(tag + ':' + msg);
  let sig = tag + ':' + normalize(msg, strict, tag === 'go');
  if (sig.length > MAX_SIG) sig = cpCut(sig, MAX_SIG).replace(R.rtrim, '');
  const c = coarse(sig);
  const h = sha256Hex(sig);
  return { sig, h, coarse: c, ch: c === sig ? h : sha256Hex(c) };
}

/**
 * v3: the signatures of the distinct lines that state an error, best first, at most `max` (the
 * first is errsig(text)). After each pick its lines are removed and the rules run again on the
 * rest; it stops when no line is left, when only a weak line (a warning, a wrapper, any line)
 * would be picked, or after 4 × max picks; max is at most 16. `line` is the key line (left-trimmed, as step 1 leaves it).
 * @param {string} text @param {number} [max]
 * @returns {Array<ErrSig & { line: string }>}
 */
export function candidates(text, max = 3) {
  const s = typeof text === 'string' ? text : text == null ? '' : String(text);
  let k = Number(max);
  if (!(k >= 1)) return [];
  k = Math.floor(Math.min(k, MAX_CANDIDATES));
  let L = toLines(s);
  /** @type {Array<ErrSig & { line: string }>} */
  const out = [];
  const seen = new Set();
  for (let tries = 0; out.length < k && tries < 4 * k; tries++) {
    const p = pick(L);
    if (out.length > 0 && (p.weak || p.at.length === 0)) break;
    const e = sign(p);
    if (!seen.has(e.sig)) {
      seen.add(e.sig);
      out.push({ ...e, line: p.at.length > 0 ? L[p.at[0]].replace(R.ltrim, '') : '' });
    }
    if (p.at.length === 0) break;
    // The pick's lines go, and every line equal to one of them (it would only be picked again).
    const drop = new Set(p.at.map((i) => L[i]));
    L = L.filter((l) => !drop.has(l));
    if (L.length === 0) break;
  }
  return out;
}

/**
 * The coarse signature of a fine one: the tag, the error code or type (the head up to the first
 * `: ` when it is at most three words), and the template with every remaining name removed:
 * quoted names, package paths, dotted and slashed names, `name@<v>`, the command not found.
 * @param {string} sig
 */
export function coarse(sig) {
  const colon = sig.indexOf(':');
  const tag = sig.slice(0, colon + 1);
  const text = sig.slice(colon + 1);
  const hm = R.coarseHead.exec(text);
  const head = hm ? hm[0] : '';
  let rest = text.slice(head.length);
  // Prechecks (as in normalize): each pattern needs the text tested.
  if (rest.indexOf("'") >= 0) rest = rest.replace(G.coarseQuote, '<s>');
  if (rest.indexOf('/') >= 0) rest = rest.replace(G.coarsePkg, (_m, a) => a + '<s>');
  if (rest.indexOf('.') >= 0 || rest.indexOf('/') >= 0) rest = rest.replace(G.coarseDotted, '<s>');
  if (rest.indexOf('@<') >= 0 || rest.indexOf('=<') >= 0) rest = rest.replace(G.coarseAt, '<s>');
  // v3: a system package name (apt, dnf, yum, Homebrew) left bare.
  if (rest.indexOf('ackage ') >= 0 || rest.indexOf('No match for argument: ') >= 0 || rest.indexOf('Unable to find a match: ') >= 0 || rest.indexOf('formula') >= 0)
    rest = rest.replace(G.coarseBare, (_m, a) => a + '<s>');
  let t = head + rest;
  if (t.startsWith('command not found: ')) t = t.replace(G.coarseCmd, (_m, a) => a + '<s>');
  if (t.indexOf('  ') >= 0) t = t.replace(G.spaces, ' ');
  if (t.indexOf('<') >= 0) t = t.replace(G.runs, (_m, p) => p);
  let c = tag + t;
  if (c.length > MAX_SIG) c = cpCut(c, MAX_SIG);
  return c.charCodeAt(c.length - 1) === 32 ? c.replace(R.rtrim, '') : c;
}

// ---------------------------------------------------------------------------------------------
// SHA-256 (FIPS 180-4) of the UTF-8 bytes of a string; synchronous so errsig() stays synchronous.
// ---------------------------------------------------------------------------------------------

const K256 = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** @param {string} s @returns {number[]} */
function utf8(s) {
  /** @type {number[]} */
  const b = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      } else c = 0xfffd;
    } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) b.push(c);
    else if (c < 0x800) b.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) b.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else b.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return b;
}

// Node (20.16 and later) lends its native SHA-256 synchronously; elsewhere (browsers, Deno, older
// Node) the pure-JS one below runs. Same bytes in (UTF-8, a lone surrogate as U+FFFD), same hex out.
/** @type {{ createHash(a: string): { update(s: string, e: string): { digest(e: string): string } }, hash?: (a: string, s: string) => string } | null} */
const NODE_CRYPTO = (() => {
  try {
    // @ts-ignore: getBuiltinModule is not in every @types/node
    const g = typeof process !== 'undefined' && process && typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule('node:crypto') : null;
    return g && typeof g.createHash === 'function' ? g : null;
  } catch {
    return null;
  }
})();
// crypto.hash (one call, hex by default) is about 3x cheaper than createHash().update().digest().
const NODE_HASH = NODE_CRYPTO && typeof NODE_CRYPTO.hash === 'function' ? NODE_CRYPTO.hash : null;

/**
 * 64 lowercase hex of SHA-256 of the UTF-8 of s.
 * @param {string} s
 */
export function sha256Hex(s) {
  if (NODE_HASH) return NODE_HASH('sha256', s);
  if (NODE_CRYPTO) return NODE_CRYPTO.createHash('sha256').update(s, 'utf8').digest('hex');
  return sha256Js(s);
}

/**
 * The same, in pure JavaScript (FIPS 180-4).
 * @param {string} s
 */
export function sha256Js(s) {
  const bytes = utf8(s);
  const len = bytes.length;
  const total = (((len + 8) >> 6) + 1) << 6;
  const buf = new Uint8Array(total);
  buf.set(bytes);
  buf[len] = 0x80;
  const bits = len * 8;
  const dv = new DataView(buf.buffer);
  dv.setUint32(total - 8, Math.floor(bits / 0x100000000));
  dv.setUint32(total - 4, bits >>> 0);
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  for (let off = 0; off < total; off += 64) {
    for (let t = 0; t < 16; t++) w[t] = dv.getUint32(off + t * 4);
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15];
      const b = w[t - 2];
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
    }
    let a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + K256[t] + w[t]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += h;
  }
  let out = '';
  for (let i = 0; i < 8; i++) out += H[i].toString(16).padStart(8, '0');
  return out;
}

// ---------------------------------------------------------------------------------------------
// Command: `node errsig.js < out.txt` prints `<sig>\t<h>`.
// ---------------------------------------------------------------------------------------------

function isMain() {
  if (typeof process === 'undefined' || !process.argv || typeof process.argv[1] !== 'string') return false;
  try {
    const self = decodeURIComponent(new URL(import.meta.url).pathname);
    let arg = process.argv[1].replace(/\\/g, '/');
    if (!arg.startsWith('/')) arg = '/' + arg; // Windows: file:///C:/x -> /C:/x
    return self === arg;
  } catch {
    return false;
  }
}

if (isMain()) {
  /** @type {Uint8Array[]} */
  const chunks = [];
  process.stdin.on('data', (c) => chunks.push(c));
  process.stdin.on('end', () => {
    let n = 0;
    for (const c of chunks) n += c.length;
    const all = new Uint8Array(n);
    let o = 0;
    for (const c of chunks) {
      all.set(c, o);
      o += c.length;
    }
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(all);
    const { sig, h } = errsig(text);
    process.stdout.write(sig + '\t' + h + '\n');
  });
}
