// The answer path of POST /e (and /e/{msg}, MCP kb_e, A2A kb.e): one candidate list for the whole
// output, re-ranked by one documented score, and a confidence said out loud.
//
// 1. Key lines. ErrSig's signature of the whole output (its decisive line) comes first; up to
//    KEY_LINES more lines that state an error are signed alone, so an output whose decisive line
//    ErrSig misjudged still finds its entry. Wrapper lines that many errors share never lead.
// 2. Stages. Each key line's fine hash (exact), then its coarse hash (same code and template, other
//    names), then, only when no stage found an exact entry, text retrieval over the entries'
//    title, error, fix and tags (FTS5 bm25 / tsvector ts_rank) with the key lines' words.
// 3. One score per candidate entry (`keySim`, 0..1): the agreement of its signature with the best
//    key line: the words of both (Dice), the error codes and exception classes (a different code
//    is a different error), the tag (language or tool); plus small terms for the ecosystem and
//    libraries the output names, and for outcomes other agents reported. docs/decisions.md.
// 4. Confidence. `exact`: the output's first key line has one entry (the hot path: one read), or
//    a key line's own signature has entries, one reads clearly more like the output than the next,
//    and `sure` is SURE or more. `near`: another candidate whose `confidence` (its key-line
//    agreement, how its error text reads against the output, and how many of its key line's words
//    the output has) is RELATED_MIN or more, its key-line and text agreements are over their floors
//    and `sure` is SURE (SURE_COARSE for a coarse one) or more; or, under the floors, `sure` is
//    SURE_PAST_FLOORS. `sure` is a small logistic model of the best candidate's agreements and its
//    leads over the next one, calibrated on the main part of test/kb/eval, never the held-out part
//    (docs/decisions.md). An output that repeats an entry's error word for word (READS_AS) claims
//    it. `related`: candidates worth a look (RELATED or more), no fix. None: a miss.
import { remembered } from '../kernel/remember.js';
import { errsig } from './errsig/errsig.js';
import { libsInText } from './libs.js';
import type { KbHit, KbRepo } from './ports.js';

/**
 * Confidence of a candidate that is not exact: (4 sim + 4 detail + cover) / 9. Below RELATED_MIN
 * the best candidate is no answer; at or above it, `sure` decides between near and related.
 */
export const confidence = (c: Pick<Candidate, 'sim' | 'detail' | 'cover'>) => (4 * c.sim + 4 * c.detail + c.cover) / 9;
/**
 * Below this confidence the best candidate is no answer at all: a miss (404 on REST). At 0.35 (0.45
 * before) 193 more of the 9,514 main outputs are answered: 15 right fixes, 59 `related` lists that
 * name the right entry among three, 31 that do not, 87 for errors the KB does not hold (no fix),
 * 1 fix for such an error; docs/decisions.md.
 */
export const RELATED_MIN = 0.35;
/** Candidates below this agreement are not named at all. */
export const RELATED = 0.3;
/** Entries of one signature: the best one's detail agreement must lead the next one's by this (half of it on the score, where detail weighs half). */
export const DETAIL_MARGIN = 0.04;
/** Lines signed on their own besides the whole output's decisive line. */
export const KEY_LINES = 4;
/** Candidates kept per stage and key line. */
const PER_STAGE = 5;
/** Entries read of one exact signature: a common template (TS2339) has dozens, told apart by detail. */
const PER_SIG = 32;

export type Stage = 'exact' | 'coarse' | 'text';
export type Confidence = 'exact' | 'near' | 'related' | 'none';

export interface KeyLine {
  sig: string;
  h: string;
  ch: string;
  /** ErrSig chose a wrapper line (one that many errors print): its own entries are no answer. */
  wrapper: boolean;
  /** The line states an error (a banner or a progress line does not). */
  errorish: boolean;
  /** The whole output signed with its log prefixes on (ErrSig's line, stamped): never the answer's shown signature. */
  stamped?: true;
}

export interface Candidate {
  hit: KbHit;
  stage: Stage;
  /** keySim of the entry's signature with the best key line, 0..1. */
  sim: number;
  /** Agreement of the whole output with the entry's error text and title, 0..1 (detailSim). */
  detail: number;
  /** Share of the words of the entry's key line that the output has (a name it lacks: another error). */
  cover: number;
  /** The final score (sim plus the small terms), what the list is ordered by. */
  score: number;
  /** Why it was picked, one short phrase. */
  why: string;
  /** The entry's error or title quotes a value the output's error lines quote ('skimage', 'xcb'). */
  value?: boolean;
  /** The entry's key line holds a key line of the output whole. */
  holds?: boolean;
  /** Share of the telling words of the entry's title (its `Tool:` lead off) that the output has. */
  tcov?: number;
  /** Share of the words of the output's key lines that the entry's title and error have. */
  rcov?: number;
  /** The output's error lines and the entry's, word for word: the smaller of the shares each has of the other's (1: the entry's own error). */
  echo?: number;
  /** The same, read on the whole output and the whole error (its commands and context lines too). */
  echoAll?: number;
  /** The share of the output's quoted values its title and error lines name (when it names one). */
  vshare?: number;
  /** keySim of the entry's title, read as a line of its error, with the best key line (orders and names; claims nothing). */
  tsim?: number;
}

export interface Answer {
  key: KeyLine;
  match: Confidence;
  candidates: Candidate[];
  /** The second candidate before the named ones were filtered (what `sure` compared with; for calibration). */
  runnerUp?: Candidate;
}

// ---- key lines ----

/**
 * A line that states an error (a cheap test: the key line is signed only when it passes), including
 * errors that say no "error" (`intern is not in the sudoers file`, `Haste module naming collision`,
 * `warning CS8618`). One regular expression: it runs on the hot path's key line.
 */
const ERRORISH =
  /\b(error|exception|fatal|failed|failure|panic|panicked|denied|refused|not found|no such|cannot|can't|could not|couldn't|unable|invalid|undefined|not defined|unresolved|missing|timed? ?out|killed|abort(?:ed)?|segmentation|traceback|E\d{4}|TS\d{4}|ERR!|errno|not available|collision|conflicts?|unknown|unsupported|not supported|not allowed|forbidden|unauthori[sz]ed|incompatible|mismatch|does not match|CS\d{4}|violat\w+|illegal|overflow|out of memory|rejected|expired|deadlock|corrupt\w*|no space|not permitted|too many|exceeded|not in the|not loaded|not recognized|not registered|not configured|is not a valid|is required|are required)\b|[a-z](?:Error|Exception)\b|\[-W[\w+-]+=?\]|\[type=[a-z_]+[,\]]|\([a-z_]+\.[EW]\d{3}\)/i;
const errorish = (l: string) => ERRORISH.test(l);

/**
 * Lines that many different errors print around the one that states theirs: never a key line of
 * their own when the output has another (docs/decisions.md lists them with examples).
 */
export const WRAPPERS: readonly RegExp[] = [
  /^error: failed to push some refs to\b/i,
  /^error: external filter .* failed/i,
  /^error: failed to (?:run custom build command|compile)\b/i,
  /^npm ERR! (?:A complete log of this run can be found in|code E?[A-Z0-9_]*$|errno -?\d+$|Lifecycle script .* failed|command failed|path )/i,
  /^npm error (?:A complete log|code |errno |command failed|path )/i,
  /^\[ERROR\] (?:Failed to execute goal .*?: Compilation failure$|-> \[Help 1\]|Re-run Maven|To see the full stack trace|For more information about the errors|$)/i,
  /^\[ERROR\] Some problems were encountered while processing the POMs:?$/i,
  /^FAILURE: Build failed with an exception\.?$/i,
  /^\* What went wrong:$/i,
  /^Error: Process completed with exit code \d+\.?$/i,
  /^make(?:\[\d+\])?: \*\*\* .*Error \d+/i,
  /^error: command .* failed with exit (?:code|status) \d+/i,
  /^(?:ERROR: failed to solve: )?(?:ERROR: )?process .* did not complete successfully: exit code: (?:\d+|<n>)$/i,
  /^Unable to find image .* locally$/i,
  /^error: (?:Recipe|script) .* (?:failed|returned)/i,
  /^subprocess-exited-with-error$/i,
  /^╰─> See above for output\.?$/,
  /^Error: Command failed with exit code \d+/i,
  /^exit status \d+$/i,
  /^Job for \S+ failed because the control process exited with error code\.?$/i,
  /^(?:Traceback \(most recent call last\):|During handling of the above exception, another exception occurred:)$/,
  /^[\w.-]+@[\w.-]+:[^\s]*[$#] /,
  /^NAME\s+READY\s+STATUS\b/,
  /^ELIFECYCLE\b|^ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL\b/,
  // Process ends and summaries: what failed is said above them.
  /^Aborted(?: \(core dumped\))?$/,
  /^(?:clang|gcc|g\+\+|c\+\+|cc)(?:-[\d.]+)?: error: linker command failed with exit code \d+/i,
  /^collect2: error: ld returned \d+ exit status$/,
  /^=+ ?(?:ERRORS|FAILURES) ?=+$/,
  /^Failed to compile\.?$/i,
  /^Found (?:\d+|<n>) errors?\b.*$/i,
  /^Failures:$/,
  /^Error making API request\.?$/,
  /^nginx: configuration file .* test failed$/,
  /^Gem::Ext::BuildError: ERROR: Failed to build gem native extension\.?$/,
  /^\*\*\* extconf\.rb failed \*\*\*$/,
  // Build tools' headers over their cause: Gradle, CMake, gcloud, the gh API.
  /^(?:> )?Could not resolve all (?:files|dependencies|artifacts) for configuration\b/i,
  /^(?:> )?Execution failed for task '[^']*'\.?$/,
  /^(?:> )?Could not determine the dependencies of task '[^']*'\.?$/,
  /^CMake Error at \S+ \([\w]+\):$/,
  /^-- Configuring incomplete, errors occurred!$/,
  /^(?:\d+|<n>) warnings? found \(use docker --debug to expand\):$/,
  /^ERROR: \(gcloud\.[\w.-]+\) Could not fetch resource:$/,
  /^HTTP (?:\d+|<n>): Validation Failed\b/,
  // Test runners' and CI servers' section lines: pytest's `___ ERROR at setup of test_x ___`,
  // Jenkins' closing lines, Django's debug page location.
  /^_{3,} (?:ERROR (?:at (?:setup|teardown) of|collecting) .*|\S+) _{3,}$/,
  /^(?:Build step '.*' marked build as failure|Finished: FAILURE)$/,
  /^Exception Location: /,
  // Headers whose error is stated on the lines under them: a generic exception class alone on its
  // line (Laravel's and Symfony's consoles print the class, then the message), pydantic's count of
  // errors, Django's system check, EF Core's failed-command log line, kubectl
  // describe's status, crontab's refusal.
  /^(?:[\w\\]+\\)?(?:LogicException|InvalidArgumentException|BadMethodCallException|RuntimeException|UnexpectedValueException|DomainException|ErrorException|Exception|Error)$/,
  /^(?:[\w.]+\.)?ValidationError: (?:\d+|<n>) validation errors? for \S+$/,
  /^Failed executing DbCommand \(/,
  /^Status:\s+Failed$/,
  /^(?:errors in crontab file, can't install\.?|Do you want to retry the same edit\? \(y\/n\)|crontab: installing new crontab)$/,
  /^(?:[\w.]+\.)?SystemCheckError: System check identified some issues:/,
  // Compilers' and consoles' location headers over the line that states the error: gcc's `In
  // function 'main':` and `At top level:`, Symfony's console `In ParameterBag.php line 93:`.
  /^(?:\S+: )?In (?:static |member |)(?:function|constructor|destructor|lambda function|instantiation of)\b.*:$/,
  /^(?:\S+: )?At (?:top level|global scope):$/,
  /^In [\w.-]+\.php line (?:\d+|<n>):$/,
  // Composer's header over its numbered problems, and the numbers: the problem lines say what is wrong.
  /^Your (?:lock file does not contain a compatible set of packages|requirements could not be resolved to an installable set of packages)\b/,
  /^Problem (?:\d+|<n>)$/,
  // Banners, progress and request logs: no error of their own.
  /^\S*\s*minikube v?(?:[\d.]+|<v>) on /,
  /^Watching for file changes with StatReloader$/,
  /^\[\+\] Building /,
  /^Hold on, I am eager loading the application\.?$/,
  /^Installing dependencies from lock file\b/,
  /^➤ YN0000: /,
  /^(?:<ip>|\d{1,3}(?:\.\d{1,3}){3}) - - \[/,
  // A line that is only a path or a URL.
  /^(?:<path>|<url>|https?:\/\/\S+|\/[\w./@-]+)$/,
];

/** WRAPPERS as two expressions, by case (one test each instead of one per wrapper: isWrapper runs on every line of an output). */
const anyOf = (ws: readonly RegExp[], flags: string) => new RegExp(ws.map((w) => `(?:${w.source})`).join('|') || '(?!)', flags);
const WRAPPER_I = anyOf(
  WRAPPERS.filter((w) => w.flags.includes('i')),
  'i',
);
const WRAPPER_CASE = anyOf(
  WRAPPERS.filter((w) => !w.flags.includes('i')),
  '',
);
export const isWrapper = (line: string): boolean => {
  const t = line.trim();
  return WRAPPER_I.test(t) || WRAPPER_CASE.test(t);
};

/**
 * Log prefixes in front of a tool's own line: CI and logging timestamps (ISO, Go's `2024/03/20
 * 08:14:02`, Python logging's `,345`), BuildKit steps, bracketed or 12-hour times (`[12:01:44.210]`,
 * `[10:11:12 AM]`, `2:14:05 PM:`), dmesg's uptime, and syslog's `May 22 07:05:40 host proc[pid]:`.
 */
const PREFIX =
  /^(?:\s*(?:\d{4}[-/]\d{2}[-/]\d{2}[T ][\d:.,]+Z?|\[\d{4}-\d{2}-\d{2}[T ][\d:.,]+Z?\]|#\d+(?: \d+\.\d+|(?= ))|\[\s*\d+\.\d+\]|\[\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?: ?[AP]M)?\]|\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?: ?[AP]M:?)?|[A-Z][a-z]{2} {1,2}\d{1,2} \d{2}:\d{2}:\d{2} [\w.-]+ [\w./@-]+(?:\[\d+\])?:)(?:\s+|$))+/;

/** The output with log prefixes taken off every line (what a tool printed, not when). */
export function unprefixed(text: string): string {
  return text
    .split('\n')
    .map((l) => l.replace(PREFIX, ''))
    .join('\n');
}

/** A title's closing parenthesis: the cause or the fix it names (`(musl or missing <limits.h>)`). */
const TITLE_CAUSE = /\s*\([^()]*\)\s*$/;
/** A title's lead naming the tool or library (`EF Core: `, `Rust E0277: `): not words of the error. */
const TITLE_LEAD = /^[^:()]{1,40}: /;

/** Added to the detail of an entry of the output's signature that names one of its quoted values. */
const VALUE_BONUS = 0.1;
/** Added to the score of a candidate of another signature that names one of the output's quoted values. */
const VALUE_SCORE = 0.05;
/** Up to this much more, by the share of the output's quoted values the candidate names too. */
const VALUE_SHARE_SCORE = 0.1;
/** Score per share of the candidate's title words the output has (the title says what the entry is about). */
const TITLE_SCORE = 0.1;

/** Quoted values of a text, lower-cased (the names and values ErrSig's templates replace). */
function quoted(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/'([^'\n]{2,60})'|"([^"\n]{2,60})"|`([^`\n]{2,60})`/g)) out.add((m[1] ?? m[2] ?? m[3]!).toLowerCase());
  return out;
}

/** The lines of a text that state an error (log prefixes off). */
const errorText = (text: string) =>
  unprefixed(text)
    .split('\n')
    .filter((l) => errorish(l) && !isWrapper(l))
    .join('\n');

/** How much of a long line is signed: its start (ErrSig keeps 200 code points of the message). */
const LONG_LINE = 400;

/** A compiler's quote of the source under its message (`22 |     printf(…)`, `   | ~^  ~~~~`, a caret line) or a stack frame: never the error. */
const EXCERPT = /^(?:(?:\d+\s*)?\||\^|[\s~|]+$|at |File ")/;

/** The lines of a text, trimmed, a long one cut to its start (what key lines and error lines are read from). */
const linesOf = (text: string) => text.split('\n').map((l) => l.trim().slice(0, LONG_LINE));

/** The signatures of an entry's error lines that state an error, each signed alone (remembered). */
const errorLines = remembered(
  (error: string): Array<{ sig: string; h: string }> =>
    linesOf(unprefixed(error))
      // Every line that may state the error (a tool's message need not say "error"), not the
      // frames of a stack trace nor the source under a compiler's message.
      .filter((l) => l.length >= 8 && !isWrapper(l) && !EXCERPT.test(l))
      .slice(0, 16)
      .map((l) => {
        const x = errsig(l);
        return { sig: x.sig, h: x.h };
      }),
  4096,
);

/**
 * An entry's title as one more line of its error (`Azure Pipelines: No files were found to deploy
 * with search pattern` over an error that reads `No package found with specified pattern`): its
 * tool lead and a closing `(cause)` off, signed (memoized).
 */
const titleLine = remembered((title: string): { sig: string } => {
  const core = title.replace(TITLE_CAUSE, '');
  const bare = core.replace(TITLE_LEAD, '');
  return { sig: errsig(bare.split(/\s+/).length >= 3 ? bare : core).sig };
}, 4096);

/** A signature without its tag (`py:`, `other:`): the line ErrSig chose, as signed. */
const bodyOf = (sig: string) => sig.slice(sig.indexOf(':') + 1);

/** The key lines of an output, best first: the whole output's signature, then error lines alone. */
/** One text signed as a key line. */
function keyOf(t: string): KeyLine {
  const s = errsig(t);
  const body = bodyOf(s.sig);
  // A line signed with its log prefix on (`[<ts>] LogicException`) is the same line as a wrapper.
  return { sig: s.sig, h: s.h, ch: s.ch, wrapper: isWrapper(body.replace(STAMP, '')), errorish: errorish(body) };
}

/**
 * A one-line quote without the asker's remark: a closing parenthesis (`(docker on Ubuntu)`; a tool's
 * own `(NoMethodError)` comes off too, and the line as quoted is signed as well), or a lead ending
 * in ` -> `. Null when there is none.
 */
function remarkOff(line: string): string | null {
  const out = line.replace(REMARK_TAIL, '').replace(REMARK_LEAD, '');
  return out !== line && out.length >= 8 ? out : null;
}
const REMARK_TAIL = /\s+\((?:[^()]|\([^()]*\))*\)\s*$/;
const REMARK_LEAD = /^[^\n]{3,60}? -> /;

/** A log prefix as ErrSig signs it: a timestamp, bracketed or not (`[<ts>] `, `<ts> `). */
const STAMP = /^(?:\[<ts>\]|<ts>)\s*/;

/** A command line as typed at a prompt (`$ go run .`, `PS C:\\app> npm test`). */
const COMMAND = /^(?:\$|#|>|PS [^>]*>)\s/;

export function keyLines(text: string, first?: KeyLine, clean = unprefixed(text)): KeyLine[] {
  const out: KeyLine[] = [];
  const seen = new Set<string>();
  const push = (k: KeyLine) => {
    if (!seen.has(k.h)) {
      seen.add(k.h);
      out.push(k);
    }
  };
  const add = (t: string) => push(keyOf(t));
  if (first) push(first);
  else add(clean);
  if (clean !== text) push({ ...keyOf(text), stamped: true });
  // A quote of one line with the asker's remark on it (`… (docker on Ubuntu)`, `pip behind squid
  // -> curl: …`): the line without the remark is signed too.
  const one = clean.trim();
  const bare = one.length <= 400 && !one.includes('\n') ? remarkOff(one) : null;
  if (bare) add(bare);
  // Every line of the output, read once for both passes below.
  const all = linesOf(clean).filter((l) => l.length >= 8);
  const lines = all.filter((l) => errorish(l) && !isWrapper(l));
  // The last error lines of an output are usually its cause (a log runs down to it).
  for (const l of lines.reverse()) {
    if (out.length >= KEY_LINES + 1) break;
    add(l);
  }
  // Only wrapper lines so far (`exit status 1` under a message that says no "error"), or ErrSig
  // chose a line that states no error (a prompt, a command, a progress line; the one that does
  // reads `intern is not in the sudoers file`): the other lines of the output, last first, are
  // signed too; a wrapper's own entries answer nothing.
  if (out.every((k) => k.wrapper) || !out[0]!.errorish) {
    const rest = all.filter((l) => !isWrapper(l) && !EXCERPT.test(l));
    for (const l of rest.reverse()) {
      if (out.length >= KEY_LINES + 1) break;
      add(l);
    }
  }
  return out;
}

// ---- agreement of two signatures ----

const PLACEHOLDER = /<[a-z]+>/g;
const STOP = new Set([
  'the',
  'a',
  'an',
  'of',
  'to',
  'in',
  'on',
  'at',
  'for',
  'is',
  'be',
  'by',
  'and',
  'or',
  'not',
  'no',
  'with',
  'from',
  'as',
  'it',
  'this',
  'that',
  'error',
  'errors',
  'fatal',
  'failed',
]);

const tagOf = (sig: string) => sig.slice(0, Math.max(0, sig.indexOf(':')));

/** Signatures whose words and codes are remembered: keySim reads the same ones for every key line and error line of a lookup (an eighth of the full path's CPU on the evaluation's outputs). */
const SIG_MEMO = 8192;

/** The words of a signature (tag, placeholders and small words dropped), lower-cased (memoized: never change the array). */
export const wordsOf: (sig: string) => readonly string[] = remembered((sig) => {
  const body = sig
    .slice(sig.indexOf(':') + 1)
    .replace(PLACEHOLDER, ' ')
    .toLowerCase();
  return [...new Set(body.match(/[\p{L}\p{N}_][\p{L}\p{N}_.-]*[\p{L}\p{N}_]|[\p{L}\p{N}]/gu) ?? [])].filter((w) => w.length >= 2 && !STOP.has(w));
}, SIG_MEMO);
/** wordsOf as a set (memoized: never change it). */
const wordSet: (sig: string) => ReadonlySet<string> = remembered((sig) => new Set(wordsOf(sig)), SIG_MEMO);

/** Error codes and exception classes: E0502, TS2322, ERESOLVE, ENOENT, KeyError, java.lang.X (memoized: never change the set). */
export const codesOf: (sig: string) => ReadonlySet<string> = remembered(codesOfSig, SIG_MEMO);
function codesOfSig(sig: string): Set<string> {
  const body = sig.slice(sig.indexOf(':') + 1);
  const codes =
    body.match(
      /\b(?:E\d{3,4}|TS\d{3,5}|C\d{4}|CS\d{4}|LNK\d{4}|NETSDK\d{4}|MSB\d{4}|NU\d{4}|ERR_[A-Z][A-Z0-9_]+|SQLSTATE\[?\w+|ORA-\d+|E[A-Z]{3,}[A-Z0-9_]*|[A-Z][A-Za-z0-9]*(?:Error|Exception|Warning|Fault)|[a-z]+(?:\.[a-z]+)+\.[A-Z]\w+)\b/g,
    ) ?? [];
  return new Set(codes.map((c) => c.replace(/^.*\./, '')).filter((c) => !NOT_CODES.has(c)));
}
/** Capitalised words the errno pattern (`E[A-Z]{3,}`) takes that are no code: `ERROR 2005 (HY000)`, PostgreSQL's `ERROR:`, Dockerfile keywords. */
const NOT_CODES = new Set([
  'ERROR',
  'ERRORS',
  'EXCEPTION',
  'ENTRYPOINT',
  'EXTENSION',
  'EXISTS',
  'EDITOR',
  'ENGINE',
  'EXEC',
  'EXECUTE',
  'EXPORT',
  'EXPOSE',
  'EXTERNAL',
  'EVAL',
  'EXPLAIN',
  'EXPIRE',
  'EXIT',
  'ENCODING',
  'ENUM',
  'ENABLED',
  'ENCRYPTED',
  'EXCLUDED',
]);

/** The kind of a code: an exception class, an errno name (ENOENT), or a numbered code (E0502, TS2322, SQLSTATE). */
const codeKind = (c: string) => (/(?:Error|Exception|Warning|Fault)$/.test(c) ? 'class' : /^E[A-Z]{3,}/.test(c) ? 'errno' : 'num');
/** The kinds of a signature's codes (memoized beside codesOf: keySim asks for every pair it compares). */
const kindsOf: (sig: string) => ReadonlySet<string> = remembered((sig) => new Set([...codesOf(sig)].map(codeKind)), SIG_MEMO);

const GENERIC_TAGS = new Set(['', 'other', 'sh']);

/** Two key lines' words agree but for their codes (at least MESSAGE_WORDS of them, all shared). */
function sameMessage(wa: readonly string[], wb: ReadonlySet<string>, ca: ReadonlySet<string>, cb: ReadonlySet<string>): boolean {
  const code = (w: string) => [...ca, ...cb].some((c) => w.endsWith(c.toLowerCase()));
  const ra = wa.filter((w) => !code(w));
  const rb = [...wb].filter((w) => !code(w));
  return ra.length >= MESSAGE_WORDS && ra.length === rb.length && ra.every((w) => wb.has(w));
}
const MESSAGE_WORDS = 3;
/** What is left of the agreement when only the code or exception class differs. */
const CLASS_ONLY = 0.75;

/** Agreement of two signatures' key lines, 0..1. */
export function keySim(a: string, b: string): number {
  if (a === b) return 1;
  const wa = wordsOf(a);
  const wb = wordSet(b);
  if (!wa.length || !wb.size) return 0;
  let common = 0;
  for (const w of wa) if (wb.has(w)) common++;
  let sim = (2 * common) / (wa.length + wb.size);
  const ca = codesOf(a);
  const cb = codesOf(b);
  // Codes of one kind only contradict each other (an exception class and an errno code name one
  // error together: SemanticReleaseError with ENOGHTOKEN).
  const kindsB = kindsOf(b);
  if (ca.size && cb.size && [...kindsOf(a)].some((k) => kindsB.has(k))) {
    const shared = [...ca].some((c) => cb.has(c));
    // Another code or exception class is another error, however many words agree; unless every
    // other word agrees (one message raised under another class: SqliteError and OperationalError
    // for "database or disk is full").
    sim = shared ? 0.35 + 0.65 * sim : sim * (sameMessage(wa, wb, ca, cb) ? CLASS_ONLY : 0.35);
  }
  const ta = tagOf(a);
  const tb = tagOf(b);
  if (ta !== tb && !GENERIC_TAGS.has(ta) && !GENERIC_TAGS.has(tb)) sim *= 0.75;
  return sim;
}

/** Built-in type and value words whose presence in quotes tells errors of one template apart. */
const VALUE_WORDS = new Set([
  'string',
  'number',
  'boolean',
  'null',
  'undefined',
  'none',
  'nonetype',
  'object',
  'any',
  'never',
  'unknown',
  'int',
  'str',
  'float',
  'bool',
  'list',
  'dict',
  'tuple',
  'bytes',
  'void',
  'true',
  'false',
  'nil',
]);

/**
 * The shape of a quoted value, for telling apart entries of one signature (whose quoted values
 * ErrSig replaced): a union of types, a built-in type or value, else nothing.
 */
function shapeOf(v: string): string | null {
  if (/\s\|\s/.test(v)) return '§union';
  const w = v.trim().toLowerCase();
  return VALUE_WORDS.has(w) ? `§${w}` : null;
}

/** The telling words of a text: lower-cased, at least 3 characters, no bare numbers or small words; plus the shapes of its quoted values. */
export function detailWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? []) if (!/^\d+$/.test(w) && !STOP.has(w) && w.length <= 40) out.add(w);
  for (const m of text.matchAll(/'([^'\n]{1,80})'|`([^`\n]{1,80})`/g)) {
    const shape = shapeOf(m[1] ?? m[2]!);
    if (shape) out.add(shape);
  }
  return out;
}

/** detailWords of two texts joined by a line break, from each one's own (no word or quote spans a line). */
const union = (a: Set<string>, b: Set<string>): Set<string> => {
  const out = new Set(a);
  for (const w of b) out.add(w);
  return out;
};

/** The share of the words of `a` that `b` has, 0..1 (0 for no words). */
const share = (a: ReadonlySet<string> | readonly string[], b: ReadonlySet<string>): number => {
  const n = Array.isArray(a) ? a.length : (a as ReadonlySet<string>).size;
  if (!n) return 0;
  let k = 0;
  for (const w of a) if (b.has(w)) k++;
  return k / n;
};

/** Agreement of an output's words with an entry's (cosine of the two sets), 0..1. */
export function detailSim(q: Set<string>, e: Set<string>): number {
  if (!q.size || !e.size) return 0;
  let common = 0;
  for (const w of e) if (q.has(w)) common++;
  return common / Math.sqrt(q.size * e.size);
}

// ---- the candidate list ----

const STAGE_RANK: Record<Stage, number> = { exact: 0, coarse: 1, text: 2 };

/** The ecosystem a signature's tag points to (for agreement with an entry's). */
const ECO_OF_TAG: Record<string, string> = { py: 'pypi', pip: 'pypi', node: 'npm', npm: 'npm', ts: 'npm', rust: 'crates', go: 'go', java: 'maven' };

/** The words text retrieval looks for: the key lines' words, longest (most telling) first. */
function retrievalWords(keys: KeyLine[]): string[] {
  const words = new Set<string>();
  for (const k of keys) for (const w of wordsOf(k.sig)) words.add(w);
  return [...words].sort((a, b) => b.length - a.length).slice(0, 12);
}

/** Builds the answer for an output (or one quoted line). */
export async function answer(kb: KbRepo, text: string, opts: { count?: boolean } = {}): Promise<Answer> {
  const count = opts.count ?? true;
  // The hot path: the whole output's own signature (not a wrapper's) names exactly one entry. That
  // is the answer, after one indexed read; nothing else of the output needs reading.
  const clean = unprefixed(text);
  const first = keyOf(clean);
  // The first key line's own entries, read once (the full path below uses them too).
  const own = first.wrapper ? null : await kb.byHash(first.h, PER_SIG, count);
  if (own?.length === 1)
    return { key: first, match: 'exact', candidates: [{ hit: own[0]!, stage: 'exact', sim: 1, detail: 1, cover: 1, score: 1, why: 'same signature' }] };
  const keys = keyLines(text, first, clean);
  // A wrapper line's own entries answer nothing (`failed to push some refs` is every rejected
  // push), unless the output has no other line to go by.
  const telling = keys.some((k) => !k.wrapper) ? keys.filter((k) => !k.wrapper) : keys;
  const byId = new Map<string, Candidate>();
  const names = new Set(libsInText(text).map((l) => l.name.toLowerCase()));
  const ecoHint = ECO_OF_TAG[tagOf(keys[0]!.sig)];
  const q = detailWords(clean);
  const said = new Set([...q, ...keys.flatMap((k) => wordsOf(k.sig))]);
  const cover = (sig: string) => {
    const w = wordsOf(sig)
      .flatMap((x) => x.match(/[\p{L}\p{N}_]{3,}/gu) ?? [])
      .filter((x) => !/^\d+$/.test(x) && !STOP.has(x));
    return w.length ? w.filter((x) => said.has(x)).length / w.length : 1;
  };
  // The candidate's key line, as signed, holds a key line of the output whole (a quote of part of
  // it, or the same line under another tag).
  const quotes = telling.map((k) => bodyOf(k.sig).trim().toLowerCase()).filter((b) => b.length >= HOLDS_MIN);
  const holds = (sig: string) => {
    const b = bodyOf(sig).toLowerCase();
    return quotes.some((q) => b.includes(q));
  };
  const consider = (hit: KbHit, stage: Stage, why: string) => {
    let sim = 0;
    for (const k of telling) sim = Math.max(sim, keySim(k.sig, hit.sig));
    if (stage === 'exact') sim = 1;
    const prev = byId.get(hit.id);
    if (!prev || STAGE_RANK[stage] < STAGE_RANK[prev.stage] || (stage === prev.stage && sim > prev.sim))
      byId.set(hit.id, { hit, stage, sim, detail: 0, cover: cover(hit.sig), score: sim, why, ...(holds(hit.sig) ? { holds: true } : {}) });
  };
  for (const [i, k] of keys.entries()) {
    if (!telling.includes(k)) continue;
    const hits = i === 0 && own ? own : await kb.byHash(k.h, PER_SIG, false);
    for (const hit of hits) consider(hit, 'exact', i === 0 ? 'same signature' : 'same signature as an error line of the output');
  }
  // Entries filed under a wrapper line the output prints too (`exit status 1`): one whose error
  // states a telling line of the output, signed alone, is of the output's own signature in all but name.
  if (telling.length < keys.length) {
    const mine = new Set(telling.map((k) => k.h));
    for (const k of keys) {
      if (telling.includes(k)) continue;
      const hits = await kb.byHash(k.h, PER_SIG, false);
      const entries = await Promise.all(hits.map((h) => kb.byId(h.id)));
      for (const [i, hit] of hits.entries()) {
        const e = entries[i];
        if (e && errorLines(e.error).some((l) => mine.has(l.h))) consider(hit, 'exact', 'its error states the same line (filed under a wrapper line)');
      }
    }
  }
  if (![...byId.values()].some((c) => c.stage === 'exact')) {
    for (const k of telling) for (const hit of await kb.byCoarse(k.ch, PER_STAGE)) consider(hit, 'coarse', 'same error code and message template, other names');
    const words = retrievalWords(keys);
    if (words.length) for (const hit of await kb.retrieve(words, 2 * PER_STAGE)) consider(hit, 'text', 'words of the error in its text');
  }
  let candidates = [...byId.values()];
  // Which candidate's error reads like this output (its error text and title against the output's
  // words). The hot path above is the one exact answer that needs no such read.
  const anyExact = candidates.some((c) => c.stage === 'exact');
  if (candidates.length) {
    const errorLinesOfText = errorText(text);
    const qLines = detailWords(errorLinesOfText);
    const qValues = quoted(errorLinesOfText);
    const mine = new Set(telling.filter((k) => k.errorish).map((k) => k.h));
    // Every line the output was signed by (an entry filed under a wrapper is matched by any).
    const signedBy = new Set(telling.map((k) => k.h));
    const entries = await Promise.all(candidates.map((c) => kb.byId(c.hit.id)));
    const keyWords = [...detailWords(telling.map((k) => bodyOf(k.sig)).join('\n'))].filter((w) => !w.startsWith('§'));
    for (const [i, c] of candidates.entries()) {
      const e = entries[i];
      if (!e) continue;
      // The entry's words, each text read once: its title, its error, and its error's ERRORISH lines.
      const titleWords = detailWords(e.title);
      const ownAll = detailWords(e.error);
      const errLines = errorText(e.error);
      const ownLines = detailWords(errLines);
      const words = union(titleWords, ownAll);
      c.detail = detailSim(q, words);
      // Its closing `(cause)` off: what a title explains (`feature test macros`) no output says.
      const title = [...detailWords(e.title.replace(TITLE_CAUSE, '').replace(TITLE_LEAD, ''))].filter((w) => !w.startsWith('§'));
      c.tcov = share(title, q);
      c.rcov = share(keyWords, words);
      // Both ways: the output holds the entry's error lines, and its own error lines are the entry's.
      // (An error with no ERRORISH line is read whole.)
      const own = ownLines.size ? ownLines : ownAll;
      const mineLines = qLines.size ? qLines : q;
      c.echo = Math.min(share(own, q), share(mineLines, ownAll));
      c.echoAll = Math.min(share(ownAll, q), share(q, ownAll));
      // Entries of one signature differ in the values ErrSig replaced: their error lines are
      // compared with the output's own (ERRORISH lines only, so the rest of a log weighs nothing).
      // The values it quotes (`'raw_input'`, `'size_t'`), and whether it names one of the output's.
      const values = quoted(`${e.title}\n${errLines}`);
      const namesValue = [...values].some((v) => qValues.has(v));
      if (c.stage === 'exact') {
        c.detail = (c.detail + detailSim(qLines, union(titleWords, ownLines))) / 2;
        // The very value a template names ('raw_input', 'xrange'): the entry is about this one.
        if (namesValue) c.detail += VALUE_BONUS;
      } else {
        c.value = namesValue;
        if (namesValue) c.vshare = share(qValues, values);
      }
      if (!anyExact && c.sim < 1) {
        const lines = errorLines(e.error);
        // ErrSig filed it under a wrapper line (`Aborted (core dumped)`): any line the output was signed by may name it.
        const underWrapper = isWrapper(bodyOf(c.hit.sig));
        // A key line of the output is, signed alone, a line of the entry's own error: the same
        // statement of the error (a quoted line, or a decisive line ErrSig chose otherwise there).
        if (lines.some((l) => mine.has(l.h) || (underWrapper && signedBy.has(l.h)))) {
          c.sim = 1;
          c.cover = 1;
          c.why = 'a line of its error reads the same';
          // An entry filed under a wrapper line (`CMake Error at … (find_package):`) is found by
          // the line under it that states its error: that line is its signature in all but name.
          if (underWrapper) {
            c.stage = 'exact';
            c.why = 'its error states the same line (filed under a wrapper line)';
          }
        } else {
          // Else the closest pair of key line and error line (an entry whose own signature is a
          // wrapper line is compared by the lines that state its error).
          for (const l of lines)
            for (const k of telling) {
              const sim = keySim(k.sig, l.sig);
              if (sim > c.sim) {
                c.sim = sim;
                c.cover = cover(l.sig);
              }
            }
          // The title read as a line of the error orders and names candidates; it claims nothing
          // (titles are general: on the main part it gave fixes to `none` items).
          const t = titleLine(e.title);
          for (const k of telling) c.tsim = Math.max(c.tsim ?? 0, keySim(k.sig, t.sig));
        }
      }
    }
  }
  for (const c of candidates) {
    // Small terms: the ecosystem the key line points to, libraries the output names, outcomes.
    let score = Math.max(c.sim, c.tsim ?? 0) * 0.5 + c.detail * 0.5;
    if (ecoHint && c.hit.eco === ecoHint) score += 0.02;
    if (c.hit.libs.some((l) => names.has(l.name.toLowerCase()))) score += 0.03;
    // More for each value of the output's it names (`'%d'`, `'int'` and `'size_t'` over `'%d'` and `'int'`).
    if (c.value) score += VALUE_SCORE + VALUE_SHARE_SCORE * (c.vshare ?? 0);
    score += TITLE_SCORE * (c.tcov ?? 0);
    score += Math.max(-0.05, Math.min(0.05, (c.hit.confirms * 3 - c.hit.fails * 2) * 0.005));
    c.score = score;
  }
  // A disputed entry (weighted did-not-work past the threshold, src/core/kb/outcomes.ts) sorts after
  // the undisputed ones of its match class; it is still named.
  // An entry whose error the output repeats word for word (READS_AS both ways) sorts first of its class.
  // Of two such entries, one whose whole error the output repeats (its command line too) sorts first.
  const verbatim = (c: Candidate) => ((c.echo ?? 0) < READS_AS ? 2 : (c.echoAll ?? 0) >= READS_AS ? 0 : 1);
  candidates = candidates.sort(
    (a, b) =>
      (a.stage === 'exact' ? 0 : 1) - (b.stage === 'exact' ? 0 : 1) ||
      Number(a.hit.disputed) - Number(b.hit.disputed) ||
      verbatim(a) - verbatim(b) ||
      b.score - a.score,
  );
  const [top, second] = candidates;
  let match: Confidence = 'none';
  if (top?.stage === 'exact') {
    // Not the one entry of the output's first key line (the hot path): several entries of one
    // signature, or an entry of another line of the output. The fix is claimed when one entry's
    // error reads clearly more like this output than the next one's, and either reads nearly as
    // this output (READS_AS: an entry's own error, pasted again) or `sure` says so.
    // (The output repeating one entry's error word for word is no tie.)
    const tied = second?.stage === 'exact' && top.score - second.score < DETAIL_MARGIN / 2 && verbatim(top) === verbatim(second);
    match = !tied && (verbatim(top) < 2 || sure(top, second, oneLine(clean)) >= SURE) ? 'exact' : 'related';
  }
  // Not an entry of the output's own signature: the fix is claimed when `sure` says so.
  // The title may make it worth naming (related); a claim (near) is judged without it.
  else if (top && confidence({ ...top, sim: Math.max(top.sim, top.tsim ?? 0) }) >= RELATED_MIN) {
    // A key line or a text that agrees this little is no claim, whatever the titles say (`sure` is linear).
    const p = sure(top, second, oneLine(clean));
    const floors = top.sim >= NEAR_SIM_MIN && top.detail >= NEAR_DETAIL_MIN;
    // Under the floors, the key line still agrees by another reading: the entry's title read as its
    // key line, or the output's key line held in the entry's (a quote of its start).
    const lineAgrees = () => Math.max(top.tsim ?? 0, ...telling.map((k) => share(wordsOf(k.sig), wordSet(top.hit.sig)))) >= NEAR_SIM_MIN;
    match =
      (floors && (verbatim(top) < 2 || p >= (top.stage === 'coarse' ? SURE_COARSE : SURE))) || (p >= SURE_PAST_FLOORS && lineAgrees()) ? 'near' : 'related';
  }
  // An output that has only wrapper lines to go by: their entries are named, never claimed.
  if ((match === 'exact' || match === 'near') && telling.every((k) => k.wrapper)) match = 'related';
  // The best candidate is always named when it is an answer; others only from RELATED agreement.
  const shown = candidates.filter((c) => (c === top && match !== 'none') || c.stage === 'exact' || Math.max(c.sim, c.tsim ?? 0) >= RELATED);
  // The signature the answer is shown and wanted under: ErrSig's line, unless it is a header
  // (`LogicException` over its message); then the first line that states the error, else the first
  // that is no header nor a command (not the output signed with its log prefixes on: the same
  // header, stamped).
  const lines = telling.filter((k) => !k.wrapper && !k.stamped);
  const key = keys[0]!.wrapper ? (lines.find((k) => k.errorish) ?? lines.find((k) => !COMMAND.test(bodyOf(k.sig))) ?? keys[0]!) : keys[0]!;
  return { key, match, candidates: shown, ...(second ? { runnerUp: second } : {}) };
}

/** An output of one line: a quote of the key line (its few words say less than a whole log). */
const oneLine = (clean: string) =>
  clean
    .trim()
    .split('\n')
    .filter((l) => l.trim()).length === 1;

/**
 * Weights of `sure`, a logistic model of "the best candidate is the right entry", fitted on the
 * main part of test/kb/eval (never the held-out part): the best candidate's agreements (sim,
 * detail, cover, sim x detail, the share of its title's words the output has, the share of the
 * output's key-line words its text has), its leads over the second (score, detail, key-line
 * agreement, title and key-word shares), the second's confidence and whether the second is of the
 * output's own signature, the stage (exact off the hot path, coarse), a one-line output, and the
 * agreements only the best one has (a value the output quotes; the output's key line held whole),
 * and how much of the entry's whole error the whole output repeats, both ways (`echoAll`).
 * docs/decisions.md has the figures.
 */
export const SURE_W = {
  bias: -1.92,
  exact: -1.27,
  sim: -0.59,
  detail: -1.83,
  cover: -0.43,
  lead: 7.25,
  second: -2.65,
  coarse: 0.57,
  oneLine: 0.76,
  simDetail: 8.31,
  detailLead: 0.52,
  simLead: -2.28,
  secondExact: 2.35,
  value: -0.32,
  holds: -0.79,
  tcov: 2.5,
  rcov: 0.77,
  tcovLead: 0.46,
  rcovLead: 3.98,
  valueOnly: 0.95,
  holdsOnly: 0.51,
  echoAll: -2.91,
} as const;
/**
 * At or above this `sure` a candidate is claimed: `exact` for an entry of the output's signature
 * found off the hot path, `near` for any other (main set, 5-fold cross-validated over 4 draws of the
 * folds: 86.5% top-1 at 0.97% confidently wrong; docs/decisions.md).
 */
export const SURE = 0.91;
/** An output whose error lines and a candidate's agree this much both ways (`echo`: an entry's own error, pasted again) claims it whatever `sure` says (main set: 39 right, 4 wrong of those under SURE). */
export const READS_AS = 0.95;
/**
 * A candidate below the floors (NEAR_SIM_MIN, NEAR_DETAIL_MIN) is still `near` at this `sure` when
 * its key line agrees by another reading (its title as its key line, or the output's key line held
 * in its own) at NEAR_SIM_MIN. The model never saw those outputs (they are outside its fit): on the
 * main set, 101 of the 104 such were right at 0.92 (77 of 79 at 0.97, the bar before; `AADSTS90002:
 * Tenant '…' not found.` quotes the start of a long key line: little Dice agreement, every other
 * agreement); docs/decisions.md.
 */
export const SURE_PAST_FLOORS = 0.92;
/**
 * The bar of a coarse candidate over the floors (the same error code and template, other names):
 * `sure` under-reads them. On the main set, 0.85 instead of SURE claimed 19 more right and 1 more
 * wrong (out-of-fold over 4 draws of the folds: 17-18 more right, 2-3 more wrong); docs/decisions.md.
 */
export const SURE_COARSE = 0.85;
/** Below this key-line agreement a candidate is never `near` (on the main set: 91% right below it, 99% above). */
export const NEAR_SIM_MIN = 0.4;
/** Below this agreement of the output with the entry's error and title a candidate is never `near` (main set: 90% right below it). */
export const NEAR_DETAIL_MIN = 0.3;
/** Key lines shorter than this are not looked for inside a candidate's (too little to go by). */
const HOLDS_MIN = 15;

/** How sure the answer path is that `top` is the right entry, 0..1 (SURE_W). */
export function sure(top: Candidate, second: Candidate | undefined, one: boolean): number {
  const w = SURE_W;
  const b = (x: boolean | undefined) => (x ? 1 : 0);
  const z =
    w.bias +
    w.exact * b(top.stage === 'exact') +
    w.sim * top.sim +
    w.detail * top.detail +
    w.cover * top.cover +
    w.lead * Math.min(0.5, top.score - (second?.score ?? 0)) +
    w.second * (second ? confidence(second) : 0) +
    w.coarse * b(top.stage === 'coarse') +
    w.oneLine * b(one) +
    w.simDetail * top.sim * top.detail +
    w.detailLead * (top.detail - (second?.detail ?? 0)) +
    w.simLead * (top.sim - (second?.sim ?? 0)) +
    w.secondExact * b(second?.stage === 'exact') +
    w.value * b(top.value) +
    w.holds * b(top.holds) +
    w.tcov * (top.tcov ?? 0) +
    w.rcov * (top.rcov ?? 0) +
    w.tcovLead * ((top.tcov ?? 0) - (second?.tcov ?? 0)) +
    w.rcovLead * ((top.rcov ?? 0) - (second?.rcov ?? 0)) +
    w.valueOnly * b(top.value && !second?.value) +
    w.holdsOnly * b(top.holds && !second?.holds) +
    w.echoAll * (top.echoAll ?? 0);
  return 1 / (1 + Math.exp(-z));
}

/** Entries an exact or near answer names at most. */
export const SHOWN = 5;

/**
 * The entries every face names for an answer, in order: up to SHOWN for exact and near (the first
 * is the fix), up to `related` for related, none for a miss. POST /e, GET /e/{msg}, MCP kb_e, A2A
 * kb.e and the kb section of /brief all list these.
 */
export function named(a: Answer, related: number): Candidate[] {
  if (a.match === 'exact' || a.match === 'near') return a.candidates.slice(0, SHOWN);
  return a.match === 'related' ? a.candidates.slice(0, related) : [];
}
