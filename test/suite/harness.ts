// A server prepared for the generated suites: identities at every trust level, the operator tokens,
// and the per-operation fuzz property over every face that exposes the operation.
import fc from 'fast-check';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { OperatorClass } from '../../src/config.js';
import type { AnyOperation } from '../../src/core/kernel/types.js';
import { sql } from '../helpers/db.js';
import { register, type TestServer } from '../helpers/server.js';
import { inputSchema, invalidArb, validArb, type Json } from './arbitraries.js';
import { a2aProblems, a2aSend, freshNet, HANG_MS, isAgentOp, mcpProblems, mcpRpc, powProof, restProblems, restRequests, send, toolName } from './faces.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
export const OPERATORS: OperatorClass[] = ['admin', 'ops', 'poll', 'check'];

/** Seeded and sized by the environment: `npm run fuzz` raises the runs. */
export const FUZZ = { runs: Number(process.env.CX_FUZZ_RUNS ?? 3), seed: Number(process.env.CX_FUZZ_SEED ?? 24) };

export interface User {
  id: string;
  token: string;
  lvl: number;
}

export interface Target {
  s: TestServer;
  url: string;
  /** One user per trust level L0..L3. */
  users: User[];
  operator: Record<OperatorClass, string>;
  /** Strings no answer may contain: the checkout and the data directory. */
  roots: string[];
}

// rep, confirmed fixes and age (days) that reach each level (TRUST_LEVELS in src/core/kernel/limits.ts).
const LEVEL_ROWS = [
  [0, 0, 0],
  [5, 1, 2],
  [25, 5, 8],
  [100, 20, 31],
] as const;

/** Sets an identity's trust level by its reputation row, as test/helpers/db.ts makeL2 does. */
export function setLevel(s: TestServer, id: string, lvl: number): void {
  const [rep, confirmed, days] = LEVEL_ROWS[lvl]!;
  sql(s, 'UPDATE identities SET rep = ?, confirmed = ?, created = ? WHERE id = ?', rep, confirmed, Date.now() - days * 86_400_000, id);
}

export async function prepare(s: TestServer): Promise<Target> {
  const users: User[] = [];
  for (let lvl = 0; lvl < 4; lvl++) {
    const u = await register(s.url, `suite_l${lvl}`, { 'x-forwarded-for': freshNet() });
    setLevel(s, u.id, lvl);
    users.push({ ...u, lvl });
  }
  return { s, url: s.url, users, operator: { ...s.config.operatorTokens }, roots: [ROOT, s.dir, tmpdir() + '/cx-'] };
}

/** Whose credentials a fuzz call carries: the op's own operator class, else the L3 user. */
function authHeaders(t: Target, op: AnyOperation): Record<string, string> {
  const tok = (OPERATORS as string[]).includes(op.auth) ? t.operator[op.auth as OperatorClass] : t.users[3]!.token;
  return { authorization: `Bearer ${tok}`, 'x-forwarded-for': freshNet() };
}

/**
 * A streaming op called through MCP or A2A ends after its `wait` seconds (its declared bound): the
 * suite asks for at most one, and a call that sends no object input waits the default, which the
 * hang bound then adds (HANG_MS on top of the wait the caller asked for).
 */
function hangBound(op: AnyOperation): number | undefined {
  if (!op.stream) return undefined;
  const w = inputSchema(op).properties?.[op.stream.wait]?.default;
  return HANG_MS + (typeof w === 'number' ? w : 60) * 1000;
}

function bounded(op: AnyOperation, input: Json): Json {
  const spec = op.stream;
  if (!spec || input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  const o = { ...(input as Record<string, Json>) };
  if (typeof o[spec.wait] === 'number') o[spec.wait] = Math.min(o[spec.wait] as number, 1);
  else o[spec.wait] = 1;
  return o;
}

/** Every face that exposes `op`, called with `input`; the properties' violations (empty: all held). */
export async function probe(t: Target, op: AnyOperation, input: Json): Promise<string[]> {
  const problems: string[] = [];
  if (op.rest) {
    const h = authHeaders(t, op);
    const proof = op.auth === 'pow' ? await powProof(t.url) : null;
    if (proof) h['x-pow'] = proof;
    for (const req of restRequests(op, input, h)) problems.push(...restProblems(await send(t.url, req), req, t.roots));
  }
  if (isAgentOp(op)) {
    const args = bounded(op, input);
    const objectArgs = args !== null && typeof args === 'object' && !Array.isArray(args);
    const h = authHeaders(t, op);
    const bound = objectArgs ? undefined : hangBound(op);
    problems.push(
      ...mcpProblems(
        await mcpRpc(t.url, '/mcp?toolsets=all', 'tools/call', { name: toolName(op), arguments: args }, h, toolName(op), bound),
        objectArgs,
        t.roots,
        `mcp ${toolName(op)}`,
      ),
    );
    problems.push(...a2aProblems(await a2aSend(t.url, op.name, args, authHeaders(t, op), bound), t.roots, `a2a ${op.name}`));
  }
  return problems;
}

/**
 * The fuzz property of one operation: schema-valid and invalid inputs through every face, each
 * answer holding every property. Throws (with the counterexample) when one does not.
 */
export async function fuzzOp(t: Target, op: AnyOperation, opts: { runs: number; seed: number; validOnly?: boolean }): Promise<void> {
  const schema = inputSchema(op);
  const arb = opts.validOnly ? validArb(schema) : fc.oneof(validArb(schema), invalidArb(schema));
  const details = await fc.check(
    fc.asyncProperty(arb, async (input) => {
      const p = await probe(t, op, input);
      if (p.length) throw new Error(`${op.name}: ${p.join('; ')}`);
    }),
    { numRuns: opts.runs, seed: opts.seed, endOnFailure: true },
  );
  // The violated property first, then fast-check's replay line (seed, path, counterexample).
  if (details.failed)
    throw new Error(
      `${(details.errorInstance as Error | undefined)?.message ?? 'property failed'}\ncounterexample: ${fc.stringify(details.counterexample)}\nreplay: seed=${details.seed} path=${details.counterexamplePath}`,
    );
}

/** The server still answers its health check. */
export async function alive(t: Target): Promise<boolean> {
  const r = await send(t.url, { label: 'healthz', method: 'GET', path: '/healthz', headers: {} });
  return r.status === 200;
}
