// The auth matrix generated from the registry: who may call what, by each operation's declared auth
// class, and the probe request that tells "passed the auth guard" from "refused by it" without
// running the operation (its input is made to fail validation wherever the transport can say so).
import fc from 'fast-check';
import type { AuthClass, AnyOperation } from '../../src/core/kernel/types.js';
import { coerce, propTypes } from '../../src/http/input.js';
import { inputSchema, validArb, type Json } from './arbitraries.js';
import { isAgentOp, restRequests, type Req } from './faces.js';

/** The callers of the matrix: anonymous, anonymous with a PoW proof, users L0..L3, operator classes. */
export const CALLERS = ['anon', 'pow', 'L0', 'L1', 'L2', 'L3', 'admin', 'ops', 'poll', 'check'] as const;
export type Caller = (typeof CALLERS)[number] | 'url';

/** Whether `who` may call an operation declared `auth` (admin satisfies every operator class). */
export function allowed(auth: AuthClass, who: Caller): boolean {
  const user = who === 'url' || /^L\d$/.test(who);
  switch (auth) {
    case 'anon':
      return true;
    case 'token':
      return user;
    case 'pow':
      return user || who === 'pow';
    default:
      return who === auth || who === 'admin';
  }
}

/** An answer the auth guard gave: 401 (or 403 for a frozen identity) with `err auth`. */
export const refusedByAuth = (status: number, body: string) => (status === 401 || status === 403) && (body === '' || /^err auth\b/.test(body));

const OPERATOR = new Set(['admin', 'ops', 'poll', 'check']);
/**
 * Anonymous writes, reviewed one by one: a new operation that writes without a token fails the
 * declaration check until it is added here on purpose (a security review, not an edit of the suite's
 * logic).
 */
export const ANON_WRITES = new Set(['id.challenge', 'id.register', 'drop.put', 'drop.get', 'drop.delete']);

/**
 * Operator routes outside /admin, reviewed: GET /metrics is the path Prometheus scrapes by convention
 * (issue 37), behind the poll token.
 */
export const OPERATOR_OUTSIDE_ADMIN = new Set(['sys.metrics']);

/** Declarations that contradict the routes and names they come with; empty when all agree. */
export function declarationProblems(ops: readonly AnyOperation[]): string[] {
  const p: string[] = [];
  for (const op of ops) {
    const operator = OPERATOR.has(op.auth);
    const adminPath = op.rest ? /^\/admin(\/|$)/.test(op.rest.path) : false;
    if (adminPath && !operator) p.push(`${op.name}: ${op.rest!.method} ${op.rest!.path} is an operator route but declares auth ${op.auth}`);
    if (op.name.startsWith('admin.') && !operator) p.push(`${op.name}: admin.* operation declares auth ${op.auth}`);
    if (operator && op.rest && !adminPath && !OPERATOR_OUTSIDE_ADMIN.has(op.name))
      p.push(`${op.name}: operator auth ${op.auth} outside /admin (${op.rest.path})`);
    if (op.auth === 'anon' && !op.readOnly && !ANON_WRITES.has(op.name)) p.push(`${op.name}: anonymous write not in the reviewed list`);
  }
  return p;
}

// Values that fail a field's rule: tried in order, the first the op's schema refuses is used.
const STRING_BAD = ['!', '', 'abc', '-1.5', '~'];
const JSON_BAD: Json[] = [{ zz: [1] }, -1.5, '!', '', null];

/**
 * A request for `op` whose input fails validation, so a caller that passes the auth guard gets
 * `err bad` (or the op's own answer where nothing can be made invalid) and nothing runs.
 */
export function probeRequest(op: AnyOperation, headers: Record<string, string>, seed = 1): Req {
  const rest = op.rest!;
  const schema = inputSchema(op);
  const base = (fc.sample(validArb(schema), { numRuns: 1, seed })[0] ?? {}) as Record<string, Json>;
  const types = propTypes(op);
  const pathFields = [...rest.path.matchAll(/:(\w+)|\*/g)].map((m) => rest.paramAlias?.[m[1] ?? '*'] ?? m[1] ?? '*');
  const viaString = (f: string) =>
    pathFields.includes(f) || rest.method === 'GET' || rest.method === 'HEAD' || rest.method === 'DELETE' || (rest.query ?? []).includes(f) || !!rest.rawBody;
  const fails = (input: Record<string, Json>) => !op.input.safeParse(input).success;
  // Fields the transport can carry: path fields, declared query fields, or anything in a JSON body.
  const carried =
    rest.query || rest.rawBody
      ? [...pathFields, ...(rest.query ?? []), ...(rest.textBody ? [rest.textBody] : [])]
      : [...pathFields, ...Object.keys(schema.properties ?? {})];
  for (const f of carried) {
    const cands: Json[] = viaString(f) ? STRING_BAD.map((v) => coerce(v, types.get(f)) as Json) : JSON_BAD;
    for (const v of cands) {
      const input = { ...base, [f]: v };
      if (fails(input)) return restRequests(op, input, headers).find((r) => r.label !== 'form') ?? restRequests(op, input, headers)[0]!;
    }
  }
  return restRequests(op, base, headers)[0]!;
}

/** MCP arguments that fail validation when they can (an unknown or wrong-typed field). */
export function probeArgs(op: AnyOperation): Record<string, Json> {
  const schema = inputSchema(op);
  const base = (fc.sample(validArb(schema), { numRuns: 1, seed: 1 })[0] ?? {}) as Record<string, Json>;
  for (const f of Object.keys(schema.properties ?? {}))
    for (const v of JSON_BAD) if (!op.input.safeParse({ ...base, [f]: v }).success) return { ...base, [f]: v };
  if (!op.input.safeParse({ ...base, zz_probe: 1 }).success) return { ...base, zz_probe: 1 };
  return base;
}

export { isAgentOp };
