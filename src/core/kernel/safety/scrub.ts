// Secret scrubber: finds credentials (keys, tokens, passwords) in text that is about to be published.
//
// Design rules:
// - Every pattern is a plain JS regex with bounded quantifiers and no nested quantifiers, run once
//   over the text with the `g` flag; the earliest hit wins. Token patterns carry a left-boundary
//   lookbehind so the engine never restarts a long scan in the middle of a base64 run.
// - False positives matter (this runs on error messages and fixes): literal-keyed kinds
//   (password, generic, urlpass, bearer) reject placeholders, variable references and prose.
// - A hit's offset is the UTF-16 index where the secret itself starts: the token, or the value
//   of an assignment (not the key name), or the password of a URL.

export interface ScrubHit {
  kind: string;
  offset: number;
}

/** Every kind detected, in priority order (earlier wins when two kinds hit the same offset). */
export const SCRUB_KINDS: ReadonlyArray<{ kind: string; what: string }> = [
  { kind: 'privkey', what: 'PEM, OpenSSH or PGP private key block (-----BEGIN ... PRIVATE KEY----- followed by key material)' },
  { kind: 'aws', what: 'AWS access key id (AKIA/ASIA...) or aws_secret_access_key value' },
  { kind: 'gcp', what: 'Google API key (AIza...) or service-account private_key_id' },
  { kind: 'github', what: 'GitHub token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)' },
  { kind: 'gitlab', what: 'GitLab token (glpat-, gldt-, glrt-, glptt-, glcbt-)' },
  { kind: 'slack', what: 'Slack token (xoxb-, xoxp-, ...) or incoming-webhook URL' },
  { kind: 'stripe', what: 'Stripe secret or restricted key (sk_live_, rk_live_, sk_test_, rk_test_)' },
  { kind: 'anthropic', what: 'Anthropic API key (sk-ant-...)' },
  { kind: 'openai', what: 'OpenAI API key (sk-..., sk-proj-..., sk-svcacct-..., sk-admin-...)' },
  { kind: 'npm', what: 'npm access token (npm_...)' },
  { kind: 'pypi', what: 'PyPI upload token (pypi-AgEIcHlwaS5vcmc...)' },
  { kind: 'cx', what: "This service's own token (cx_... or cxu_...)" },
  { kind: 'jwt', what: 'JSON Web Token (eyJ....eyJ....signature)' },
  { kind: 'bearer', what: 'HTTP credential: Bearer <token> or Authorization: Basic <user:password>' },
  { kind: 'urlpass', what: 'Password inside a URL (scheme://user:password@host)' },
  { kind: 'password', what: 'Password assignment with a literal value (password=..., "password": "...")' },
  { kind: 'generic', what: 'High-entropy value assigned to api_key, secret, access_token, client_secret and similar' },
];

// ---------------------------------------------------------------------------------------------
// Value checks

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  if (!s.length) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  const n = s.length;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log2(p);
  }
  return h;
}

const PLACEHOLDER_WORDS = new Set([
  'password',
  'passwd',
  'pass',
  'passphrase',
  'pwd',
  'secret',
  'xxx',
  'changeme',
  'change_me',
  'none',
  'null',
  'nil',
  'undefined',
  'true',
  'false',
  'empty',
  'hidden',
  'masked',
  'redacted',
  'removed',
  'example',
  'sample',
  'string',
  'required',
  'optional',
  'test',
  'testing',
  'foobar',
  'foo',
  'bar',
  'token',
  'apikey',
  'api_key',
]);

/** Obvious stand-ins: ***, xxx, <password>, ${VAR}, $VAR, {{ var }}, %s, [REDACTED], your_password, ... */
export function isPlaceholder(v: string): boolean {
  if (!v) return true;
  const low = v.toLowerCase();
  if (PLACEHOLDER_WORDS.has(low)) return true;
  if (/^(.)\1*$/s.test(v)) return true; // one repeated char: ***, xxxx, ......
  if (/^[$%{<[(]/.test(v)) return true; // variable references, templates, <placeholder>, [REDACTED]
  if (/^[*x•#.\-_]+$/i.test(v)) return true; // masks like xx-xx, **__**
  if (/redacted|changeme|change_me|placeholder|your[_-]?|<|>|\*{3}|x{4}|example|dummy|\.\.\./i.test(v)) return true;
  // letters-only names of a credential: db_pass, DB_PASSWORD, mysecretpassword, secret-value
  if (/^[a-z_-]*(?:pass|secret|pwd)[a-z_-]*$/i.test(v)) return true;
  return false;
}

/** Random-looking token body: not a mask or a "your-token-here" stand-in. */
function tokenOk(body: string, minEntropy = 3.0): boolean {
  if (entropy(body) < minEntropy) return false;
  return !/x{4}|\*{3}|your|token|example|placeholder|redacted|\.\.\./i.test(body);
}

const hasLetter = (s: string): boolean => /[A-Za-z]/.test(s);
const hasDigit = (s: string): boolean => /[0-9]/.test(s);
/** A dotted identifier path: process.env.X, settings.DB_PASSWORD, config.auth.secret. */
const isDottedPath = (s: string): boolean => /^[A-Za-z_$][\w$]{0,100}(?:\.[A-Za-z_$][\w$]{0,100}){1,20}$/.test(s);

// ---------------------------------------------------------------------------------------------
// Rules

interface Rule {
  kind: string;
  re: RegExp; // must have the `g` flag
  /**
   * Validates a match and returns the offset of the secret, or null to reject it.
   * Default: accept, offset = start of the match.
   */
  check?: (m: RegExpExecArray, text: string) => number | null;
}

/** Offset of capture group `g` when that group is a suffix of the whole match. */
function tailOffset(m: RegExpExecArray, g: number): number {
  return m.index + m[0].length - (m[g] ?? '').length;
}

// Separator of key/value assignments: `=`, `:`, `:=`, `=>`, optionally after a closing quote of the key
// (JSON keys, possibly escaped as \" inside JSON strings).
const SEP = String.raw`(?:\\?["'])?[ \t]{0,5}(?::=|=>|[:=])[ \t]{0,5}`;

const PASSWORD_RE = new RegExp(
  String.raw`(?:password|passwd|passphrase)` + SEP + String.raw`(?:(\\?["'])([^"'\\\s]{1,200})|([^\s"'\x60,;&()[\]{}<>\\]{1,200}))`,
  'gi',
);

const GENERIC_RE = new RegExp(
  String.raw`(?:api[_-]?(?:key|secret|token)|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret)` +
    SEP +
    String.raw`(?:\\?["'\x60])?([A-Za-z0-9_\-+/=.~]{16,300})`,
  'gi',
);

const AWS_SECRET_RE = new RegExp(String.raw`(?:aws[_-]?)?secret[_-]?access[_-]?key` + SEP + String.raw`(?:\\?["'])?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])`, 'gi');

const RULES: Rule[] = [
  {
    kind: 'privkey',
    re: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g,
    // A header alone (docs, "expected -----BEGIN ...") is not a leak: require key material after it.
    check: (m, text) => {
      const end = m.index + m[0].length;
      return /[A-Za-z0-9+/]{32}/.test(text.slice(end, end + 600)) ? m.index : null;
    },
  },
  {
    kind: 'aws',
    re: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    check: (m) => (entropy(m[0].slice(4)) >= 2.5 ? m.index : null),
  },
  {
    kind: 'aws',
    re: AWS_SECRET_RE,
    check: (m) => {
      const v = m[1] ?? '';
      return entropy(v) > 3.5 && !isPlaceholder(v) ? tailOffset(m, 1) : null;
    },
  },
  {
    kind: 'gcp',
    re: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g,
    check: (m) => (tokenOk(m[0].slice(4)) ? m.index : null),
  },
  {
    kind: 'gcp',
    re: /\\?"private_key_id\\?"[ \t]{0,5}:[ \t]{0,5}\\?"([0-9a-f]{40})/g,
    check: (m) => tailOffset(m, 1),
  },
  {
    kind: 'github',
    re: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{60,255})/g,
    check: (m) => (tokenOk(m[0].slice(4)) ? m.index : null),
  },
  {
    kind: 'gitlab',
    re: /(?<![A-Za-z0-9_-])(?:glpat|gldt|glrt|glptt|glcbt)-[A-Za-z0-9_.-]{20,200}/g,
    check: (m) => (tokenOk(m[0].slice(m[0].indexOf('-') + 1)) ? m.index : null),
  },
  {
    kind: 'slack',
    re: /(?<![A-Za-z0-9_-])xox[abposr]-[A-Za-z0-9-]{20,250}/g,
    check: (m) => {
      const body = m[0].slice(5);
      return hasDigit(body) && tokenOk(body) ? m.index : null;
    },
  },
  {
    kind: 'slack',
    re: /(?:https?:\/\/)?hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,200}/g,
    check: (m) => (tokenOk(m[0].slice(m[0].indexOf('.com/') + 5)) ? m.index : null),
  },
  {
    kind: 'stripe',
    re: /(?<![A-Za-z0-9_])[sr]k_(?:live|test)_[A-Za-z0-9]{16,247}/g,
    check: (m) => (tokenOk(m[0].slice(8)) ? m.index : null),
  },
  {
    kind: 'anthropic',
    re: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{32,300}/g,
    check: (m) => (tokenOk(m[0].slice(7)) ? m.index : null),
  },
  {
    kind: 'openai',
    // Legacy keys are sk- + 48 alphanumerics; project/service/admin keys carry a second prefix.
    re: /(?<![A-Za-z0-9_-])sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{32,300}|[A-Za-z0-9]{32,200})/g,
    check: (m) => {
      const body = m[0].slice(3);
      return hasLetter(body) && hasDigit(body) && tokenOk(body) ? m.index : null;
    },
  },
  {
    kind: 'npm',
    re: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
    check: (m) => (tokenOk(m[0].slice(4)) ? m.index : null),
  },
  {
    kind: 'pypi',
    re: /(?<![A-Za-z0-9_-])pypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,1000}/g,
  },
  {
    kind: 'cx',
    // Our tokens are prefix + base64url(24 random bytes) = 32 chars: always mixed case in practice.
    re: /(?<![A-Za-z0-9_-])cxu?_[A-Za-z0-9_-]{20,200}/g,
    check: (m) => {
      const body = m[0].slice(m[0].indexOf('_') + 1);
      const classes = Number(/[A-Z]/.test(body)) + Number(/[a-z]/.test(body)) + Number(hasDigit(body));
      return classes >= 2 && tokenOk(body) ? m.index : null;
    },
  },
  {
    kind: 'jwt',
    re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,2000}\.eyJ[A-Za-z0-9_-]{5,8000}\.[A-Za-z0-9_-]{8,2000}/g,
    check: (m) => {
      const header = Buffer.from(m[0].slice(0, m[0].indexOf('.')), 'base64url').toString('latin1');
      return header.includes('"alg"') ? m.index : null;
    },
  },
  {
    kind: 'bearer',
    re: /(?<![A-Za-z0-9_-])(?:[Bb]earer|BEARER)[ \t]{1,5}([A-Za-z0-9._~+/=_-]{20,2000})/g,
    check: (m) => {
      const t = m[1] ?? '';
      return hasLetter(t) && hasDigit(t) && !isPlaceholder(t) && tokenOk(t) ? tailOffset(m, 1) : null;
    },
  },
  {
    kind: 'bearer',
    re: /authorization\\?["']?[ \t]{0,5}[:=][ \t]{0,5}\\?["']?basic[ \t]{1,5}([A-Za-z0-9+/]{6,500}={0,2})/gi,
    check: (m) => {
      const decoded = Buffer.from(m[1] ?? '', 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0 || !/^[\x20-\x7e]+$/.test(decoded)) return null;
      const pw = decoded.slice(colon + 1);
      return pw && !isPlaceholder(pw) ? tailOffset(m, 1) : null;
    },
  },
  {
    kind: 'urlpass',
    // scheme://user:password@host — the user may be empty (redis://:pw@host); `<` and `>` are
    // excluded from both parts so `user:<password>@host` never matches.
    re: /:\/\/[^\s:/?#@"'<>]{0,100}:([^\s/?#@"'<>]{1,200})(?=@[A-Za-z0-9[])/g,
    check: (m) => {
      const pw = m[1] ?? '';
      let decoded = pw;
      try {
        decoded = decodeURIComponent(pw);
      } catch {
        // keep raw
      }
      return isPlaceholder(pw) || isPlaceholder(decoded) ? null : tailOffset(m, 1);
    },
  },
  {
    kind: 'password',
    re: PASSWORD_RE,
    check: (m, text) => {
      const quoted = m[2] !== undefined;
      const v = (quoted ? m[2] : m[3]) ?? '';
      const end = m.index + m[0].length;
      if (v.length < 6 || isPlaceholder(v)) return null;
      if (/(?:pass(?:word|wd)?|secret)[=:]/i.test(v)) return null; // another key, not a value
      // A quoted value must be the whole string: `"password": "is too short"` is prose.
      if (quoted && !/^\\?["']/.test(text.slice(end, end + 2))) return null;
      // Needs a digit or a symbol: rules out `password: Required`, `password=newPassword`, identifiers.
      if (!hasDigit(v) && !/[^A-Za-z0-9_.-]/.test(v)) return null;
      if (!quoted && isDottedPath(v)) return null; // password=process.env.DB_PW2
      return end - v.length;
    },
  },
  {
    kind: 'generic',
    re: GENERIC_RE,
    check: (m) => {
      const v = m[1] ?? '';
      if (!(hasLetter(v) && hasDigit(v)) || entropy(v) <= 3.5) return null;
      if (isPlaceholder(v) || isDottedPath(v)) return null;
      return tailOffset(m, 1);
    },
  },
];

const PRIORITY = new Map(SCRUB_KINDS.map((k, i) => [k.kind, i]));

/**
 * Runs one rule over the text, calling `onHit` for each accepted hit in match order.
 * `onHit` returns false to stop. `stopAt`: matches starting at or after it cannot matter.
 */
function runRule(rule: Rule, text: string, stopAt: () => number, onHit: (offset: number) => boolean): void {
  const re = rule.re;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m.index >= stopAt()) break;
    const off = rule.check ? rule.check(m, text) : m.index;
    if (off === null) {
      // Rejected: retry just past the match start so an overlapping candidate is not skipped.
      re.lastIndex = m.index + 1;
      continue;
    }
    if (!onHit(off)) break;
  }
  re.lastIndex = 0;
}

/** The earliest secret in the text (lowest offset; ties go to the more specific kind), or null. */
export function scrubFind(text: string): ScrubHit | null {
  let best: ScrubHit | null = null;
  for (const rule of RULES) {
    runRule(
      rule,
      text,
      () => (best ? best.offset + 1 : Infinity),
      (off) => {
        if (!best || off < best.offset || (off === best.offset && rank(rule.kind) < rank(best.kind))) {
          best = { kind: rule.kind, offset: off };
        }
        // Later matches of this rule start later; keep scanning only while one could still win.
        return false;
      },
    );
  }
  return best;
}

/** All secrets in the text, sorted by offset (one hit per offset, most specific kind), at most `max`. */
export function scrubAll(text: string, max = 20): ScrubHit[] {
  const byOffset = new Map<number, string>();
  for (const rule of RULES) {
    runRule(
      rule,
      text,
      () => Infinity,
      (off) => {
        const prev = byOffset.get(off);
        if (prev === undefined || rank(rule.kind) < rank(prev)) byOffset.set(off, rule.kind);
        return true;
      },
    );
  }
  return [...byOffset.entries()]
    .sort((a, b) => a[0] - b[0] || rank(a[1]) - rank(b[1]))
    .slice(0, Math.max(0, max))
    .map(([offset, kind]) => ({ kind, offset }));
}

function rank(kind: string): number {
  return PRIORITY.get(kind) ?? Number.MAX_SAFE_INTEGER;
}
