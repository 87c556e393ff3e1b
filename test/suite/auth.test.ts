// The auth matrix generated from the registry: every operation × {anonymous, PoW, user L0..L3,
// url-class token, each operator class} is allowed exactly per its declared auth (refused: 401/403
// `err auth`, never a 2xx), the declarations agree with their routes, and foreign notes, mail,
// checkpoints, drops, A2A tasks, subscriptions, jobs and runs answer byte for byte like ids that never
// existed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS } from '../../src/compose/registry.js';
import type { AnyOperation } from '../../src/core/kernel/types.js';
import { start, type TestServer } from '../helpers/server.js';
import { freshNet, isShed, mcpRpc, powProof, sendDecided, toolName } from './faces.js';
import { OPERATORS, prepare, type Target } from './harness.js';
import { allowed, CALLERS, declarationProblems, isAgentOp, probeArgs, probeRequest, refusedByAuth, type Caller } from './matrix.js';

let s: TestServer;
let t: Target;
let urlToken = '';
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  t = await prepare(s);
  const r = await fetch(`${s.url}/v1/token/url`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.users[0]!.token}`, accept: 'application/json', 'x-forwarded-for': freshNet() },
  });
  urlToken = ((await r.json()) as { token: string }).token;
});
afterAll(async () => s?.stop());

async function headersOf(who: Caller): Promise<Record<string, string> | null> {
  const h: Record<string, string> = { 'x-forwarded-for': freshNet() };
  if (who === 'pow') {
    const proof = await powProof(t.url);
    // The server sheds anonymous work (loaded machine): the row has no proof to test with.
    if (!proof) return null;
    h['x-pow'] = proof;
  } else if (/^L\d$/.test(who)) h.authorization = `Bearer ${t.users[Number(who[1])]!.token}`;
  else if ((OPERATORS as string[]).includes(who)) h.authorization = `Bearer ${t.operator[who as keyof Target['operator']]}`;
  return h;
}

/** Mismatches of one operation's REST row against its declared auth (`declared` may differ from what the server runs, in the meta-test). */
export async function restRow(op: AnyOperation, declared = op.auth): Promise<string[]> {
  const bad: string[] = [];
  for (const who of CALLERS) {
    const h = await headersOf(who);
    if (!h) continue;
    const req = probeRequest(op, h);
    const r = await sendDecided(t.url, req);
    // Still shedding after the retries: no decision to compare (and no 2xx).
    if (isShed(r)) continue;
    const refused = refusedByAuth(r.status, r.body);
    const want = allowed(declared, who);
    if (want && refused) bad.push(`${op.name} as ${who}: refused (${r.status} ${r.body.trim()}) but declared ${declared}`);
    if (!want && !refused) bad.push(`${op.name} as ${who}: ${r.status} ${r.body.trim().slice(0, 120)} but declared ${declared} (want 401/403 err auth)`);
    if (!want && r.status < 300) bad.push(`${op.name} as ${who}: ${r.status} for a wrong class`);
  }
  return bad;
}

describe('auth matrix (REST, every routed operation × every caller class)', () => {
  it('declarations agree with their routes and names', () => {
    expect(declarationProblems(OPS)).toEqual([]);
  });

  it('every operation: allowed exactly per its declared auth', { timeout: 240_000 }, async () => {
    const bad: string[] = [];
    for (const op of OPS) if (op.rest) bad.push(...(await restRow(op)));
    expect(bad).toEqual([]);
  });

  it('a url-class token is no REST credential: 401 as a Bearer on every route', { timeout: 120_000 }, async () => {
    const bad: string[] = [];
    for (const op of OPS) {
      if (!op.rest) continue;
      const r = await sendDecided(t.url, probeRequest(op, { 'x-forwarded-for': freshNet(), authorization: `Bearer ${urlToken}` }));
      if (isShed(r)) continue;
      if (r.status !== 401 || (op.rest.method !== 'HEAD' && !/^err auth /.test(r.body))) bad.push(`${op.name}: ${r.status} ${r.body.trim().slice(0, 100)}`);
    }
    expect(bad).toEqual([]);
  });
});

describe('auth matrix (MCP tools/call: anonymous, L0 user, url-class token in the URL)', () => {
  it('every agent operation: allowed exactly per its declared auth', { timeout: 240_000 }, async () => {
    const bad: string[] = [];
    const rows: Array<[Caller, string, Record<string, string>]> = [
      ['anon', '/mcp?toolsets=all', {}],
      ['L0', '/mcp?toolsets=all', { authorization: `Bearer ${t.users[0]!.token}` }],
      ['url', `/mcp/t/${urlToken}?toolsets=all`, {}],
    ];
    for (const op of OPS.filter(isAgentOp)) {
      for (const [who, path, h] of rows) {
        const { json, reply } = await mcpRpc(
          t.url,
          path,
          'tools/call',
          { name: toolName(op), arguments: { ...probeArgs(op), ...(op.stream ? { [op.stream.wait]: 0 } : {}) } },
          { ...h, 'x-forwarded-for': freshNet() },
          toolName(op),
        );
        if (isShed(reply)) continue;
        const text: string = json?.result?.content?.[0]?.text ?? '';
        const refused = json?.result?.isError === true && /^err auth\b/.test(text);
        if (!json?.result) bad.push(`${op.name} as ${who}: ${reply.status} ${reply.body.slice(0, 120)}`);
        else if (allowed(op.auth, who) === refused)
          bad.push(`${op.name} as ${who}: ${refused ? 'refused' : 'allowed'} (${text.split('\n')[0]}) but declared ${op.auth}`);
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('meta: the matrix catches a wrong auth declaration', () => {
  it('an operator route declared anon fails the declaration check', () => {
    const op = OPS.find((o) => o.name === 'admin.stats')!;
    expect(declarationProblems([{ ...op, auth: 'anon' }])).toContain('admin.stats: GET /admin/stats is an operator route but declares auth anon');
    expect(declarationProblems([{ ...OPS.find((o) => o.name === 'note.create')!, auth: 'anon' }])).toEqual([
      'note.create: anonymous write not in the reviewed list',
    ]);
  });

  it('a route serving another class than its declaration fails its row', async () => {
    // The published declaration says admin; the server is made to run the op as anonymous.
    const op = OPS.find((o) => o.name === 'admin.origin')! as { auth: AnyOperation['auth'] };
    const declared = op.auth;
    op.auth = 'anon';
    try {
      const bad = await restRow(op as AnyOperation, declared);
      expect(bad.length).toBeGreaterThan(0);
      // Anonymous got past the guard (its probe input then failed validation): not the 401 declared.
      expect(bad.join('\n')).toMatch(/admin\.origin as anon: 400 err bad .* but declared admin/);
    } finally {
      op.auth = declared;
    }
    expect(await restRow(op as AnyOperation)).toEqual([]);
  });
});
