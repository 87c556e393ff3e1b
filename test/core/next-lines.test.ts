// Every text reply of every operation ends its facts with a `next:` line (issue 40), and on MCP and A2A
// that line names tools and skill messages, not REST routes (issue 36: hints are data, each face words
// them). Walks the registry: each op's text renderer gets schema-shaped outputs (from its output schema,
// the same generator as the fuzz suite) in each face's words.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../src/config.js';
import { buildCore } from '../../src/compose/core.js';
import { HintRoutes, hint, next, type HintFace } from '../../src/core/kernel/hints.js';
import { agentOps, toolName } from '../../src/core/kernel/agent-facing.js';
import { OPS } from '../../src/compose/registry.js';
import type { AnyOperation, Ctx } from '../../src/core/kernel/types.js';
import { anonCaller } from '../../src/core/platform/identity/auth.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { validArb, type Schema } from '../suite/arbitraries.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-next-'));
const store = openSqliteStore(dir);
const core = buildCore(loadConfig({ CX_DATA: dir }), store, pino({ enabled: false }));
afterAll(async () => {
  await store.close?.();
  rmSync(dir, { recursive: true, force: true });
});

/** Replies that are the stored bytes themselves (a drop's secret, a cached value, a signed document):
 *  a line added to them would change what the caller stored or what a signature covers. */
const PAYLOAD = new Map<string, string>([
  ['drop.get', 'the secret as stored'],
  ['cache.get', 'an inline result is the text as stored (a blob row has its next line)'],
  ['blob.get', 'a header line, then the bytes (base64)'],
  ['cp.get', 'a header line, then the checkpoint as saved'],
  ['cp.read', 'a header line, then the published checkpoint as saved'],
  ['att.revoked', 'a signed list served raw (/att/revoked.txt)'],
  ['key.cert', 'the signed root certificate, as served raw'],
  ['gov.patch', 'a patch file (text/x-diff)'],
  ['sys.metrics', 'the Prometheus exposition format'],
  ['space.kb_export', 'JSON lines'],
  ['kb.cutoff', 'the spec fixes its form: one release per line'],
]);

/** Text composed by `run` (it counts its own tokens): the next line is written there, in the caller's
 *  face (test/kb/brief.test.ts checks it through the server); schema samples cannot show it. */
const IN_RUN = new Map<string, string>([['kb.brief', 'test/kb/brief.test.ts']]);

const routes = new HintRoutes(OPS);
const agent = agentOps(OPS);
const FACES: Record<string, HintFace> = {
  rest: routes.rest(),
  mcp: routes.tools(new Set(agent.map(toolName))),
  a2a: routes.skills(new Set(agent.map((o) => o.name))),
};
const ctxOf = (face: keyof typeof FACES): Ctx => ({
  core,
  caller: anonCaller(),
  net: '10.0.0.0/24',
  reqId: 'r1',
  face: face as Ctx['face'],
  hints: FACES[face],
});

function samples(op: AnyOperation): unknown[] {
  const schema = z.toJSONSchema(op.output, { io: 'output', unrepresentable: 'any' }) as Schema;
  return fc.sample(validArb(schema), { numRuns: 12, seed: 40 });
}

/** Renders every sample in a face; a sample the renderer cannot take (an invariant the schema does not state) is skipped. */
function rendered(op: AnyOperation, face: keyof typeof FACES): string[] {
  const out: string[] = [];
  for (const s of samples(op)) {
    try {
      const t = op.text(s, ctxOf(face));
      // An operation reached through another answers only for a sample naming one of its acts.
      if (typeof t === 'string') out.push(t);
    } catch {
      /* schema-shaped but not a result the op returns */
    }
  }
  return out;
}

const ROUTE = /\b(GET|POST|PUT|DELETE|HEAD)s? \/[^\s,;)]*/g;
/** Operation routes (not documents such as /signing): `GET /k/<id>`, `POST /v1/tasks`. */
function opRoute(m: string): boolean {
  const [method, path] = m.replace(/^([A-Z]+)s /, '$1 ').split(' ') as [string, string];
  const p = path.split('?')[0]!.replace(/\.(json|md|txt|svg|html)$/, '');
  return OPS.some((o) => {
    if (!o.rest || o.rest.method !== method) return false;
    const re = new RegExp(
      `^${o.rest.path
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/:[a-z_]+/g, '[^/]+')
        .replace('*', '.+')}/?$`,
    );
    return re.test(p);
  });
}

describe('next lines of every operation', () => {
  const textOps = OPS.filter((o) => !o.stream && !PAYLOAD.has(o.name) && !IN_RUN.has(o.name));

  it.each(textOps.map((o) => [o.name, o] as const))('%s: every text reply has a next: line', (_name, op) => {
    const texts = rendered(op, 'rest');
    expect(texts.length, `${op.name}: no sample rendered`).toBeGreaterThan(0);
    for (const t of texts)
      expect(
        t.split('\n').some((l) => l.startsWith('next: ')),
        `${op.name} reply without a next line:\n${t}`,
      ).toBe(true);
  });

  it('on MCP and A2A, the next lines of agent operations name no REST route of an operation', () => {
    const bad: string[] = [];
    for (const op of agent.filter((o) => !o.stream && !PAYLOAD.has(o.name) && !IN_RUN.has(o.name)))
      for (const face of ['mcp', 'a2a'] as const)
        for (const t of rendered(op, face))
          for (const l of t.split('\n').filter((x) => x.startsWith('next: ')))
            for (const m of l.match(ROUTE) ?? []) if (opRoute(m)) bad.push(`${face} ${op.name}: ${l}`);
    expect(bad).toEqual([]);
  });

  it('the walk can fail: an op without a next line, and a REST route on MCP, are caught', () => {
    const noNext = { ...OPS.find((o) => o.name === 'id.me')!, text: () => 'me a1' } as AnyOperation;
    expect(rendered(noNext, 'rest').every((t) => !t.includes('\nnext: '))).toBe(true);
    expect(opRoute('GET /k/k12345678')).toBe(true);
    expect(opRoute('GET /signing')).toBe(false);
  });
});

describe('a hint in each face', () => {
  it('REST: the route with path, query and body fields; MCP: the tool; A2A: the skill message', () => {
    const h = hint('kb.get', { id: 'k12345678' }, 'for the whole entry');
    expect(next({ hints: FACES.rest }, h)).toBe('next: GET /k/k12345678 for the whole entry');
    expect(next({ hints: FACES.mcp }, h)).toBe('next: call kb_get {"id":"k12345678"} for the whole entry');
    expect(next({ hints: FACES.a2a }, h)).toBe('next: send {"skill":"kb.get","input":{"id":"k12345678"}} for the whole entry');
    // A context without a face of its own is worded as REST.
    expect(next({}, h)).toBe('next: GET /k/k12345678 for the whole entry');
    const topic = hint('topic.read', { topic: 'g:news', since: 3 });
    expect(FACES.rest!.step(topic)).toBe('GET /v1/topics/g:news?since=3');
    expect(FACES.mcp!.step(topic)).toBe('call topic_read {"topic":"g:news","since":3}');
    // Values that would break a path are encoded; placeholders stay as written.
    expect(FACES.rest!.step(hint('anchor.get', { key: 'repo:github.com/a/b#1' }))).toBe('GET /anchor/repo%3Agithub.com%2Fa%2Fb%231');
    expect(FACES.rest!.step(hint('kb.get', { id: '<id>' }))).toBe('GET /k/<id>');
    expect(FACES.rest!.step(hint('task.create', { space: 's1' }))).toBe('POST /v1/tasks space=s1');
    expect(FACES.rest!.step({ op: 'id.challenge', input: { for: 'reg' }, query: ['for'] })).toBe('POST /v1/challenge?for=reg');
    expect(FACES.rest!.step({ op: 'sys.limits', twin: 'md' })).toBe('GET /limits.md');
    expect(FACES.mcp!.step({ op: 'sys.limits', twin: 'md' })).toBe('call sys_limits');
    // An operation reached through another is called as that one, with its selecting input.
    expect(FACES.mcp!.step(hint('space.invite', { slug: 'team' }))).toBe('call space_manage {"act":"invite","slug":"team"}');
    expect(FACES.a2a!.step({ op: 'task.done', input: { id: 't1' }, form: 'plural' })).toBe('sends {"skill":"task.done","input":{"id":"t1"}}');
    expect(FACES.rest!.step({ op: 'task.done', input: { id: 't1' }, form: 'bare' })).toBe('/v1/tasks/t1/done');
    // A step no tool of this selection serves keeps its route.
    expect(routes.tools(new Set()).step(hint('kb.get', { id: 'k1' }))).toBe('GET /k/k1');
  });
});
