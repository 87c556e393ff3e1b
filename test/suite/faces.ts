// The three faces of an operation as the generated suites drive them (REST in every content type the
// binding accepts, MCP tools/call, A2A message/send data parts), and the reply properties every
// answer must hold: no 5xx (but `503 err busy` with Retry-After), no hang over 5 s, one `err` line,
// JSON-RPC codes, and no stack trace, SQL text or filesystem path.
import { appendFileSync } from 'node:fs';
import { ERROR_CODES } from '../../src/core/kernel/errors.js';
import { solve } from '../../src/core/platform/identity/pow.js';
import type { AnyOperation } from '../../src/core/kernel/types.js';
import { agentOps, toolName } from '../../src/core/kernel/agent-facing.js';
import type { Json } from './arbitraries.js';

// CX_FUZZ_TRACE=<file>: one line per answer (status, face, route, body head), to see what the fuzz reached.
const TRACE = process.env.CX_FUZZ_TRACE;

/** Longest any one answer may take (the "never a hang over 5 s"). */
export const HANG_MS = 5_000;
const CODES = new Set<string>(ERROR_CODES.map((e) => e.code));
/** Agent-facing: an MCP tool and an A2A skill (operator routes are REST only). */
export const isAgentOp = (op: AnyOperation) => agentOps([op]).length === 1;

export interface Reply {
  status: number;
  headers: Headers;
  body: string;
  ms: number;
  timedOut?: boolean;
}

export interface Req {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Hang bound of this call (default HANG_MS): a streaming op's MCP/A2A call may add its wait. */
  timeoutMs?: number;
}

let netN = 0;
/** A fresh /24 per request (the suite's servers trust X-Forwarded-For): network quotas stay out of the way. */
export const freshNet = () => {
  const n = netN++;
  return `10.${100 + ((n >> 8) & 127)}.${n & 255}.${1 + ((n >> 15) & 127)}`;
};

/** Sends one request with the hang bound; a stream is cut after its head. */
export async function send(base: string, r: Req): Promise<Reply> {
  const t0 = performance.now();
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), r.timeoutMs ?? HANG_MS);
  if (TRACE)
    appendFileSync(
      TRACE,
      `→ ${r.label} ${r.method} ${r.path.slice(0, 200)} ${JSON.stringify(r.headers).slice(0, 200)} ${typeof r.body === 'string' ? r.body.slice(0, 200) : ''}\n`,
    );
  try {
    const res = await fetch(base + r.path, {
      method: r.method,
      headers: r.headers,
      body: r.body === undefined ? undefined : typeof r.body === 'string' ? r.body : new Uint8Array(r.body),
      redirect: 'manual',
      signal: ac.signal,
    });
    if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      ac.abort();
      return { status: res.status, headers: res.headers, body: '', ms: performance.now() - t0 };
    }
    const body = await res.text();
    if (TRACE) appendFileSync(TRACE, `${res.status} ${r.label} ${r.method} ${r.path.slice(0, 100)} ${body.slice(0, 160).replace(/\n/g, '\\n')}\n`);
    return { status: res.status, headers: res.headers, body, ms: performance.now() - t0 };
  } catch (e) {
    if (ac.signal.aborted) return { status: 0, headers: new Headers(), body: '', ms: performance.now() - t0, timedOut: true };
    return { status: -1, headers: new Headers(), body: String((e as Error)?.cause ?? e), ms: performance.now() - t0 };
  } finally {
    clearTimeout(timer);
  }
}

// ---- leaks ----
const STACK = [
  /^\s+at \S.*:\d+:\d+\)?$/m,
  /\bat (?:async )?\S+ \((?:file:|node:|\/)[^)]*:\d+:\d+\)/,
  /\b(?:TypeError|ReferenceError|RangeError|SyntaxError): /,
];
const SQL = [/SQLITE_[A-Z]+/, /SqliteError/, /no such (?:table|column)/i, /near "[^"]*": syntax error/, /constraint failed/i, /\bBEGIN IMMEDIATE\b/];

/** Filesystem paths of this process: the checkout, node_modules, data directories. */
export function pathLeaks(text: string, roots: string[]): string | null {
  for (const r of roots) if (r && text.includes(r)) return `path ${r}`;
  if (/node_modules\/|file:\/\/\//.test(text)) return 'path node_modules/file://';
  return null;
}

/** A stack trace or SQL engine text (checked on error answers: KB entries may quote both on purpose). */
export function errorLeaks(text: string): string | null {
  for (const re of STACK) if (re.test(text)) return `stack ${re}`;
  for (const re of SQL) if (re.test(text)) return `sql ${re}`;
  return null;
}

/** The one allowed 5xx: load shedding, with a Retry-After. */
const allowed5xx = (r: Reply) => r.status === 503 && !!r.headers.get('retry-after') && (/^err busy /.test(r.body) || /^\{"error":"busy",/.test(r.body));

/** Problems of a REST answer (empty when it holds every property). */
export function restProblems(r: Reply, req: Req, roots: string[]): string[] {
  const p: string[] = [];
  if (r.timedOut) return [`hang: no answer within ${HANG_MS} ms`];
  if (r.status === -1) return [`connection failed: ${r.body.slice(0, 200)}`];
  if (r.status >= 500 && !allowed5xx(r)) p.push(`5xx ${r.status}`);
  const leak = pathLeaks(r.body, roots);
  if (leak) p.push(`leak ${leak}`);
  if (r.status >= 400 && req.method !== 'HEAD') {
    if (!/^err [a-z_]+(?: [^\n]*)?\n$/.test(r.body)) p.push(`error body not one err line: ${JSON.stringify(r.body.slice(0, 200))}`);
    else if (!CODES.has(r.body.split(' ')[1]!.trim())) p.push(`unknown err code ${r.body.split(' ')[1]}`);
    const el = errorLeaks(r.body);
    if (el) p.push(`leak ${el}`);
  }
  if (p.length) p.push(`(${req.label} ${req.method} ${req.path.slice(0, 160)} → ${r.status} ${JSON.stringify(r.body.slice(0, 300))})`);
  return p;
}

// ---- REST: every content type the binding accepts ----
/** Percent-encoding that also carries lone surrogates (as their WTF-8 bytes: invalid UTF-8 on the wire). */
export function pct(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff)
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    else out += encodeURIComponent(ch);
  }
  return out;
}
const enc = (v: Json | undefined): string => (v === undefined ? '_' : pct(typeof v === 'string' ? v : JSON.stringify(v)));
const qv = (v: Json): string[] =>
  Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))) : [typeof v === 'string' ? v : JSON.stringify(v)];

function query(fields: Record<string, Json>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) for (const x of qv(v)) q.append(k, x);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The REST requests that carry `input` to the op: JSON, form and text bodies where the binding takes them. */
export function restRequests(op: AnyOperation, input: Json, headers: Record<string, string>): Req[] {
  const rest = op.rest!;
  const obj = input !== null && typeof input === 'object' && !Array.isArray(input) ? { ...(input as Record<string, Json>) } : null;
  const fields: Record<string, Json> = obj ?? {};
  const alias = rest.paramAlias ?? {};
  let path = rest.path.replace(/:(\w+)|\*/g, (m, name: string | undefined) => {
    const f = alias[name ?? '*'] ?? name ?? '*';
    const v = fields[f];
    delete fields[f];
    return m === '*' ? (typeof v === 'string' ? v.split('/').map(pct).join('/') : enc(v)) : enc(v);
  });
  if (path.length > 6000) path = path.slice(0, 6000);
  const h = { ...headers };
  for (const [hdr, f] of Object.entries(rest.headerInputs ?? {})) {
    const v = fields[f];
    if (typeof v === 'string' && /^[\x20-\x7e]*$/.test(v) && v.length < 4000) {
      h[hdr] = v;
      delete fields[f];
    }
  }
  const m = rest.method;
  if (rest.query || rest.rawBody) {
    const q: Record<string, Json> = {};
    for (const k of rest.query ?? []) if (k in fields) q[k] = fields[k]!;
    const tb = rest.textBody ? fields[rest.textBody] : undefined;
    const body = tb === undefined ? undefined : typeof tb === 'string' ? tb : JSON.stringify(tb);
    return [{ label: 'raw', method: m, path: path + query(q), headers: body === undefined ? h : { ...h, 'content-type': 'application/octet-stream' }, body }];
  }
  if (m === 'GET' || m === 'HEAD' || m === 'DELETE') return [{ label: 'query', method: m, path: path + query(fields), headers: h }];
  const out: Req[] = [{ label: 'json', method: m, path, headers: { ...h, 'content-type': 'application/json' }, body: JSON.stringify(obj ? fields : input) }];
  if (obj) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const x of qv(v)) form.append(k, x);
    out.push({ label: 'form', method: m, path, headers: { ...h, 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  }
  if (rest.textBody && obj) {
    const { [rest.textBody]: tb, ...others } = fields;
    out.push({
      label: 'text',
      method: m,
      path: path + query(others),
      headers: { ...h, 'content-type': 'text/plain; charset=utf-8' },
      body: tb === undefined ? '' : typeof tb === 'string' ? tb : JSON.stringify(tb),
    });
  }
  return out;
}

// ---- MCP: raw JSON-RPC, revision 2026-07-28 (stateless), so non-object arguments reach the server ----
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'suite', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
let rpcId = 0;

export async function mcpRpc(
  base: string,
  path: string,
  method: string,
  params: unknown,
  headers: Record<string, string>,
  name?: string,
  timeoutMs?: number,
): Promise<{ reply: Reply; json: any }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: ++rpcId,
    method,
    params: params && typeof params === 'object' && !Array.isArray(params) ? { ...params, _meta: META } : params,
  });
  const reply = await send(base, {
    label: 'mcp',
    method: 'POST',
    path,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name && /^[\x21-\x7e]{1,128}$/.test(name) ? { 'mcp-name': name } : {}),
      ...headers,
    },
    body,
    timeoutMs,
  });
  let json: any = null;
  try {
    json = JSON.parse(reply.body);
  } catch {
    /* reported by the caller */
  }
  return { reply, json };
}

/**
 * A JSON-RPC endpoint refusing a request at the HTTP layer (a body over the cap, a quota before the
 * RPC is read): a 4xx whose body is the one err line, as text or as the JSON error form. Null when it is one.
 */
function transportRefusal(r: Reply): string | null {
  if (r.status < 400 || r.status >= 500) return 'not a 4xx';
  if (/^err [a-z_]+(?: [^\n]*)?\n$/.test(r.body)) return null;
  try {
    const j = JSON.parse(r.body) as { error?: unknown; line?: unknown };
    if (typeof j.error === 'string' && typeof j.line === 'string' && /^err [a-z_]+ /.test(j.line)) return null;
  } catch {
    /* neither form */
  }
  return `HTTP ${r.status} refusal not one err line: ${r.body.slice(0, 120)}`;
}

/** Problems of a tools/call answer; `objectArgs` says whether the arguments were an object. */
export function mcpProblems(r: { reply: Reply; json: any }, objectArgs: boolean, roots: string[], label: string): string[] {
  const p: string[] = [];
  const { reply, json } = r;
  if (reply.timedOut) return [`hang: no answer within ${reply.ms.toFixed(0)} ms (${label})`];
  if (allowed5xx(reply)) return [];
  if (reply.status >= 500) p.push(`HTTP ${reply.status}`);
  const leak = pathLeaks(reply.body, roots);
  if (leak) p.push(`leak ${leak}`);
  if (reply.status >= 400 && reply.status < 500 && !json?.jsonrpc) {
    const why = transportRefusal(reply);
    if (why) p.push(why);
  } else if (!json) p.push(`not JSON: ${reply.body.slice(0, 200)}`);
  else if (json.error) {
    const want = objectArgs ? null : -32602;
    if (json.error.code !== want) p.push(`JSON-RPC error ${json.error.code} ${json.error.message} (want ${want ?? 'a result'})`);
    const el = errorLeaks(String(json.error.message));
    if (el) p.push(`leak ${el}`);
  } else if (json.result?.isError) {
    const text: string = json.result.content?.[0]?.text ?? '';
    const m = /^err ([a-z_]+)(?: [^\n]*)?(?:\nnext: [^\n]*)?$/.exec(text);
    if (!m) p.push(`isError text not one err line: ${JSON.stringify(text.slice(0, 200))}`);
    else if (!CODES.has(m[1]!) || m[1] === 'internal') p.push(`err ${m[1]}`);
    const el = errorLeaks(text);
    if (el) p.push(`leak ${el}`);
  } else if (!json.result) p.push('no result');
  if (p.length) p.push(`(${label} → ${reply.status} ${reply.body.slice(0, 300)})`);
  return p;
}

// ---- A2A: message/send with a data part {skill, input}, blocking ----
let msgN = 0;
export async function a2aSend(
  base: string,
  skill: string,
  input: unknown,
  headers: Record<string, string>,
  timeoutMs?: number,
): Promise<{ reply: Reply; json: any }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: ++msgN,
    method: 'message/send',
    params: {
      message: { kind: 'message', messageId: `suite-${msgN}-${Date.now()}`, role: 'user', parts: [{ kind: 'data', data: { skill, input } }] },
      configuration: { blocking: true },
    },
  });
  const reply = await send(base, { label: 'a2a', method: 'POST', path: '/a2a', headers: { 'content-type': 'application/json', ...headers }, body, timeoutMs });
  let json: any = null;
  try {
    json = JSON.parse(reply.body);
  } catch {
    /* reported by the caller */
  }
  return { reply, json };
}

export function a2aProblems(r: { reply: Reply; json: any }, roots: string[], label: string): string[] {
  const p: string[] = [];
  const { reply, json } = r;
  if (reply.timedOut) return [`hang: no answer within ${reply.ms.toFixed(0)} ms (${label})`];
  if (reply.status === 503 && allowed5xx(reply)) return [];
  if (reply.status >= 500) p.push(`HTTP ${reply.status}`);
  const leak = pathLeaks(reply.body, roots);
  if (leak) p.push(`leak ${leak}`);
  if (reply.status >= 400 && reply.status < 500 && !json?.jsonrpc) {
    const why = transportRefusal(reply);
    if (why) p.push(why);
  } else if (!json) p.push(`not JSON: ${reply.body.slice(0, 200)}`);
  else if (json.error) {
    if (json.error.code !== -32602) p.push(`JSON-RPC error ${json.error.code} ${json.error.message}`);
  } else {
    const st = json.result?.status;
    if (!st) p.push('no task status');
    else if (st.state === 'failed') {
      const parts: any[] = st.message?.parts ?? [];
      const text: string = parts.find((x) => x.kind === 'text')?.text ?? '';
      const data = parts.find((x) => x.kind === 'data')?.data ?? {};
      if (!/^err [a-z_]+(?: [^\n]*)?$/.test(text)) p.push(`failed task text not one err line: ${JSON.stringify(text.slice(0, 200))}`);
      if (typeof data.status !== 'number' || (data.status >= 500 && data.error !== 'busy')) p.push(`failed with status ${data.status} ${data.error}`);
      const el = errorLeaks(text);
      if (el) p.push(`leak ${el}`);
    }
  }
  if (p.length) p.push(`(${label} → ${reply.status} ${reply.body.slice(0, 300)})`);
  return p;
}

/** A fresh anonymous write proof (auth class `pow`) from the server's challenge; null while it sheds anonymous work. */
export async function powProof(base: string): Promise<string | null> {
  const r = await sendDecided(base, {
    label: 'pow',
    method: 'POST',
    path: '/v1/challenge?for=w',
    headers: { accept: 'application/json', 'x-forwarded-for': freshNet() },
  });
  if (allowed5xx(r)) return null;
  if (r.status !== 200) throw new Error(`challenge: ${r.status} ${r.body.slice(0, 100)}`);
  const c = JSON.parse(r.body) as { challenge: string; bits: number };
  return solve(c.challenge, c.bits);
}

/** The one allowed 5xx (exported for the suites that must tell "shed" from a decision). */
export const isShed = (r: Reply) => allowed5xx(r);

/** Sends again (up to 3 times, after the Retry-After) while the server sheds load: a shed answer decides nothing. */
export async function sendDecided(base: string, r: Req): Promise<Reply> {
  let reply = await send(base, r);
  for (let i = 0; i < 3 && allowed5xx(reply); i++) {
    await new Promise((ok) => setTimeout(ok, Math.min(3, Number(reply.headers.get('retry-after')) || 1) * 1000));
    reply = await send(base, r);
  }
  return reply;
}

export { toolName };
