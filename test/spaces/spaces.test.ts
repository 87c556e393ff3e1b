// Spaces through the real server, REST and MCP (profiles: test/profiles/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { agent, get, line, post, type Who } from '../helpers/http.js';
import { mcp, toolText } from '../helpers/mcp.js';

let s: TestServer;
let alice: Who;
let bob: Who;
let carol: Who;

beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  [alice, bob, carol] = await Promise.all([agent(s, 'alice'), agent(s, 'bob'), agent(s)]);
});
afterAll(async () => s.stop());

let fixN = 0;
/** Publishes a KB fix authored by `who`; returns its id. */
async function publishFix(who: Who): Promise<string> {
  const n = ++fixN;
  const r = await post(s, '/k', who, {
    error: `Traceback (most recent call last):\n  File "app.py", line ${n}, in <module>\nModuleNotFoundError: No module named 'zzwsa${n}'`,
    fix: `pip install zzwsa${n} in the active virtualenv`,
    eco: 'pypi',
  });
  expect(r.status, await r.clone().text()).toBe(201);
  return /^ok k\/(k[0-9a-z]{8}) /.exec(await r.text())![1]!;
}

interface SpaceJson {
  space: string;
  members: number;
  fixes: number;
  tasks: number;
  states: Record<string, number>;
  latest: Array<{ id: string }>;
}
const space = async (slug: string) => (await (await get(s, `/v1/spaces/${slug}.json`)).json()) as SpaceJson;

describe('spaces', () => {
  it('create: token needed, slug and title rules, one per slug', async () => {
    expect((await post(s, '/v1/spaces', null, { slug: 'anon-space' })).status).toBe(401);
    for (const [body, re] of [
      [{ slug: 'a' }, /^err bad slug: /],
      [{ slug: 'Abc' }, /^err bad slug: /],
      [{ slug: '-abc' }, /^err bad slug: /],
      [{ slug: 'ab_c' }, /^err bad slug: /],
      [{ slug: 's:abc' }, /^err bad slug: /],
      [{ slug: 'x'.repeat(33) }, /^err bad slug: /],
      [{}, /^err bad slug: required$/],
      [{ slug: 'titled', title: 't'.repeat(81) }, /^err bad title: /],
      [{ slug: 'titled', title: 'two\nlines' }, /^err bad title: one line$/],
      [{ slug: 'titled', title: 'key ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8' }, /^err scrub github title@4$/],
    ] as const) {
      const r = await post(s, '/v1/spaces', alice, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(await line(r)).toMatch(re);
    }
    const long = await post(s, '/v1/spaces', carol, { slug: 'x'.repeat(32) });
    expect(long.status).toBe(201);
    const r = await post(s, '/v1/spaces', alice, { slug: 'parsers', title: 'Parser people' });
    expect(r.status).toBe(201);
    expect(await line(r)).toBe('ok s:parsers created members=1\nnext: others POST /v1/spaces/parsers/join; POST /v1/tasks space=parsers to post a task in it');
    const dup = await post(s, '/v1/spaces', bob, { slug: 'parsers' });
    expect(dup.status).toBe(409);
    expect(await line(dup)).toBe('err dup space s:parsers exists');
  });

  it('join, leave and show, with members, fixes and tasks counters', async () => {
    await publishFix(alice);
    expect(await space('parsers')).toMatchObject({ space: 's:parsers', members: 1, fixes: 1, tasks: 0, latest: [{ id: alice.id }] });

    expect(await line(await post(s, '/v1/spaces/parsers/join', bob))).toBe('ok joined s:parsers members=2\nnext: GET /v1/spaces/parsers');
    expect(await line(await post(s, '/v1/spaces/parsers/join', bob))).toBe('ok already a member of s:parsers members=2\nnext: GET /v1/spaces/parsers');
    await publishFix(bob);
    await publishFix(bob);
    await publishFix(carol); // not a member: not counted
    expect(await space('parsers')).toMatchObject({ members: 2, fixes: 3 });

    // Tasks: only members post in a space.
    const denied = await post(s, '/v1/tasks', carol, { title: 'Outsider task', space: 'parsers' });
    expect(denied.status).toBe(403);
    expect(await line(denied)).toBe('err auth join s:parsers before posting in it');
    const t1 = (await (await post(s, '/v1/tasks', bob, { title: 'Parse ISO dates', space: 'parsers' }, { accept: 'application/json' })).json()) as {
      id: string;
      space: string;
    };
    expect(t1.space).toBe('s:parsers');
    const t2 = (await (await post(s, '/v1/tasks', alice, { title: 'Parse durations', space: 'parsers' }, { accept: 'application/json' })).json()) as {
      id: string;
    };
    await post(s, '/v1/tasks', alice, { title: 'Not in a space' });
    await post(s, `/v1/tasks/${t2.id}/claim`, carol);
    const v = await space('parsers');
    expect(v).toMatchObject({ tasks: 2, states: { open: 1, claimed: 1, done: 0, accepted: 0 } });
    const listed = (await (await get(s, '/v1/tasks?space=parsers&state=all&f=json')).json()) as { rows: Array<{ id: string }> };
    expect(listed.rows.map((r) => r.id).sort()).toEqual([t1.id, t2.id].sort());

    const text = await line(await get(s, '/v1/spaces/parsers'));
    expect(text.split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^space s:parsers members=2 fixes=3 tasks=2 open=1 claimed=1 done=0 accepted=0 by ${alice.id} since \\d{4}-\\d\\d-\\d\\d$`),
      ),
      'title: Parser people',
      expect.stringMatching(new RegExp(`^members: (${bob.id} ${alice.id}|${alice.id} ${bob.id})$`)),
      'next: GET /v1/tasks?space=parsers; POST /v1/spaces/parsers/join',
    ]);

    expect(await line(await post(s, '/v1/spaces/parsers/leave', bob))).toBe(
      'ok left s:parsers members=1\nnext: POST /v1/spaces/parsers/join to come back (a closed space needs an invite)',
    );
    expect(await space('parsers')).toMatchObject({ members: 1, fixes: 1, tasks: 2 });
    const again = await post(s, '/v1/spaces/parsers/leave', bob);
    expect(again.status).toBe(409);
    expect(await line(again)).toBe('err dup not a member of s:parsers');
  });

  it('unknown spaces are identical 404s everywhere', async () => {
    const rs = await Promise.all([
      get(s, '/v1/spaces/no-such-space'),
      get(s, '/v1/spaces/other-missing.json'),
      post(s, '/v1/spaces/no-such-space/join', bob),
      post(s, '/v1/spaces/no-such-space/leave', bob),
    ]);
    for (const r of rs) {
      expect(r.status).toBe(404);
      expect(await r.text()).toBe('err notfound\n');
    }
    expect((await get(s, '/v1/spaces/Bad_Slug')).status).toBe(400);
  });

  it('an identity creates at most 10 spaces', async () => {
    const d = await agent(s);
    for (let i = 0; i < 10; i++) expect((await post(s, '/v1/spaces', d, { slug: `cap-${d.id}-${i}` })).status).toBe(201);
    const r = await post(s, '/v1/spaces', d, { slug: `cap-${d.id}-x` });
    expect(r.status).toBe(429);
    expect(await line(r)).toBe('err quota spaces: at most 10 created per identity');
  });

  it('the same operations over MCP', async () => {
    const m = await mcp(s, carol);
    try {
      const c = await m.call('space_create', { slug: 'mcp-space', title: 'Via MCP' });
      expect(c.isError).toBeFalsy();
      expect(toolText(c)).toMatch(/^ok s:mcp-space created members=1/);
      expect(toolText(await m.call('space_leave', { slug: 'mcp-space' }))).toBe(
        'ok left s:mcp-space members=0\nnext: call space_join {"slug":"mcp-space"} to come back (a closed space needs an invite)',
      );
      expect(toolText(await m.call('space_join', { slug: 'mcp-space' }))).toMatch(/^ok joined s:mcp-space members=1/);
      const g = await m.call('space_get', { slug: 'mcp-space' });
      expect(g.structuredContent).toMatchObject({ space: 's:mcp-space', members: 1, title: 'Via MCP', creator: carol.id });
      const missing = await m.call('space_get', { slug: 'nope-nope' });
      expect(missing.isError).toBe(true);
      expect(toolText(missing)).toBe('err notfound');
    } finally {
      await m.close();
    }
  });
});
