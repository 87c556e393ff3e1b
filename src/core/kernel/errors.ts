// One error class and one code table: REST, MCP and A2A all render from here,
// and /help/err is generated from the same table.
import { words, type HintFace, type Step } from './hints.js';

export interface ErrCode {
  code: string;
  status: number;
  summary: string;
  fix: string;
}

export const ERROR_CODES = [
  {
    code: 'bad',
    status: 400,
    summary: 'Malformed parameter, unknown value, too many rows, bad key, hash, host, n, since or feed name.',
    fix: 'Read the detail: it names the field and the rule. See /grammar and /openapi.json.',
  },
  {
    code: 'auth',
    status: 401,
    summary: 'Missing or wrong token. Variant `err auth admin` for operator routes; 403 for a veto without the admin token.',
    fix: 'Register: POST /v1/challenge?for=reg, solve, POST /v1/register, then send Authorization: Bearer cx_...',
  },
  {
    code: 'pow',
    status: 400,
    summary: 'Bad proof of work: expired, forged, reused, too weak or for another purpose.',
    fix: 'Get a fresh challenge from POST /v1/challenge and send <challenge>:<nonce> whose SHA-256 has the leading zero bits asked.',
  },
  {
    code: 'scrub',
    status: 400,
    summary: 'Content rejected because it contains a secret (key, token, password) at the given offset.',
    fix: 'Remove the secret at the offset named (field@offset) and send again. Kinds are listed in /help/err/scrub.',
  },
  {
    code: 'hazard',
    status: 400,
    summary: 'Content falls in one of the hazard families of /hazards.txt.',
    fix: 'Do not publish it. Disputes: file a notice at /notice, or email the security contact in /.well-known/security.txt.',
  },
  { code: 'size', status: 413, summary: 'Body or field too large.', fix: 'Stay within /limits.' },
  {
    code: 'notfound',
    status: 404,
    summary: 'Unknown, expired, hidden, burnt, foreign or invalid-signature cases, all treated identically.',
    fix: 'Check the id or path; see /help for the routes.',
  },
  { code: 'dup', status: 409, summary: 'Already done, or the state does not allow it.', fix: 'Read the current state first.' },
  { code: 'decided', status: 409, summary: 'Review item already decided.', fix: 'Nothing to do.' },
  {
    code: 'quota',
    status: 429,
    summary: 'Quota exceeded for your network or identity. Retry-After says when.',
    fix: 'Wait Retry-After seconds; quotas are listed in /limits.',
  },
  { code: 'busy', status: 503, summary: 'The server is shedding load (search, feeds or all requests).', fix: 'Retry after the Retry-After header.' },
  {
    code: 'frozen',
    status: 503,
    summary: 'Writes of this kind are frozen by the operator or a maintenance window.',
    fix: 'See /healthz?v=2 for frozen kinds and maintenance_until.',
  },
  {
    code: 'compute',
    status: 422,
    summary:
      'A service call did not produce a result: `timeout` (wall-clock limit), `memory` (memory cap), `trap` (the module failed), `output` (output over the cap), `bad` (the module cannot be loaded).',
    fix: 'Send a smaller input, or report the service version to its publisher; the call was not charged.',
  },
  {
    code: 'internal',
    status: 500,
    summary: 'An unexpected server fault. No details are exposed; the request id is logged.',
    fix: 'Retry later; report the X-Request-Id to the operator.',
  },
] as const satisfies readonly ErrCode[];

/** A code of the table: a typo is a compile error. */
export type ErrorCode = (typeof ERROR_CODES)[number]['code'];

/** The shop (src/catalog, its own port and pages) also answers `upstream` (502, a payment provider
 *  failed) and `unavailable` (503, not configured); they are not codes of the API's /help/err. */
export type ShopErrorCode = 'upstream' | 'unavailable';

const byCode = new Map<string, ErrCode>(ERROR_CODES.map((e) => [e.code, e]));

export function errCode(code: string): ErrCode | undefined {
  return byCode.get(code);
}

/** The one error of the core. `detail` is shown to callers: never put stack, SQL or paths in it. */
export class CxError extends Error {
  readonly code: ErrorCode | ShopErrorCode;
  readonly detail: string;
  readonly status: number;
  /** Extra response headers (Retry-After, WWW-Authenticate ...). */
  readonly headers: Record<string, string>;
  /** A detail that names next steps, as data (kernel/hints.ts): `detail` is its REST wording, and
   *  `lineIn` words it for the caller's face. */
  readonly parts?: readonly Step[];

  constructor(code: ErrorCode | ShopErrorCode, detailOrSteps: string | readonly Step[] = '', status?: number, headers: Record<string, string> = {}) {
    const detail = typeof detailOrSteps === 'string' ? detailOrSteps : words(undefined, detailOrSteps);
    // An expected failure, answered as one line: no stack is collected (that cost ~10 µs a throw,
    // a tenth of a KB miss). Unexpected errors keep theirs; they are logged before being mapped here.
    const depth = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(detail ? `err ${code} ${detail}` : `err ${code}`);
    } finally {
      Error.stackTraceLimit = depth;
    }
    this.code = code;
    this.detail = oneLine(detail);
    this.status = status ?? byCode.get(code)?.status ?? 400;
    this.headers = headers;
    if (typeof detailOrSteps !== 'string') this.parts = detailOrSteps;
  }

  /** The one line in the words of a face: its steps named as that face calls them (REST: `line`). */
  lineIn(face: HintFace | undefined): string {
    const d = this.detailIn(face);
    return d ? `err ${this.code} ${d}` : `err ${this.code}`;
  }

  /** The detail in the words of a face (REST: `detail`). */
  detailIn(face: HintFace | undefined): string {
    return !this.parts || !face || face.face === 'rest' ? this.detail : oneLine(words(face, this.parts));
  }

  /** The one-line body: `err <code> <detail>`. */
  get line(): string {
    return this.detail ? `err ${this.code} ${this.detail}` : `err ${this.code}`;
  }
}

/** Details are one line and bounded, whatever the caller sent. */
export function oneLine(s: string, max = 200): string {
  const flat = s.replace(/[\r\n\t\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}

export const bad = (detail: string) => new CxError('bad', detail);
export const notFound = (detail = '') => new CxError('notfound', detail);

/**
 * An error the store raises when the database stayed locked past its busy timeout (SQLite
 * SQLITE_BUSY*, PostgreSQL lock_not_available 55P03): a `503 err busy` to retry, not a 500.
 */
export function busyStore(err: unknown): CxError | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !(code.startsWith('SQLITE_BUSY') || code === '55P03')) return null;
  return new CxError('busy', 'database busy, retry', 503, { 'Retry-After': '1' });
}

/** A face's answer to whatever a call threw: itself when a CxError, a busy store's 503, else `err internal` (the caller logs it). */
export function asCxError(err: unknown, reqId: string): CxError {
  return err instanceof CxError ? err : (busyStore(err) ?? new CxError('internal', `request ${reqId}`, 500));
}
