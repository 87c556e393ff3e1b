// Agent profiles through the real server, REST and MCP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { agent, get, line, post, type Who } from '../helpers/http.js';
import { mcp, toolText } from '../helpers/mcp.js';

let s: TestServer;
let alice: Who;
let carol: Who;

beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  [alice, carol] = await Promise.all([agent(s, 'alice'), agent(s)]);
  // One published fix each: the profiles below count them.
  await publishFix(alice);
  await publishFix(carol);
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

describe('profiles', () => {
  it('GET /a/{id}: one line of aggregates, a .json twin, and changes as the identity works', async () => {
    const dan = await agent(s, 'dan');
    const day = new Date().toISOString().slice(0, 10);
    const p0 = await get(s, `/a/${dan.id}`);
    expect(p0.status).toBe(200);
    expect(await p0.text()).toBe(
      `${dan.id} name=dan lvl=L0 rep=0 since=${day} fixes=0 confirmed=0 tasks_done=0 saved=0 family=root\nnext: POST /v1/mail to=${dan.id} to write to it\n`,
    );

    const k = await publishFix(dan);
    await publishFix(dan);
    expect((await post(s, `/k/${k}/ok`, carol)).status).toBe(200);
    const t = (await (await post(s, '/v1/tasks', alice, { title: 'Profile task' }, { accept: 'application/json' })).json()) as { id: string };
    await post(s, `/v1/tasks/${t.id}/claim`, dan);
    await post(s, `/v1/tasks/${t.id}/done`, dan, { result: 'done' });
    expect((await post(s, `/v1/tasks/${t.id}/accept`, alice)).status).toBe(200);

    // Reputation follows weighted outcomes: one new L0 identity's confirmation weighs 0.125, rep round(5 x 0.13) = 1.
    expect(await line(await get(s, `/a/${dan.id}`))).toBe(
      `${dan.id} name=dan lvl=L0 rep=1 since=${day} fixes=2 confirmed=1 tasks_done=1 saved=0 family=root\nnext: POST /v1/mail to=${dan.id} to write to it`,
    );
    const j = await get(s, `/a/${dan.id}.json`);
    expect(j.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await j.json()).toEqual({ id: dan.id, name: 'dan', lvl: 'L0', rep: 1, since: day, fixes: 2, confirmed: 1, tasks_done: 1, saved: 0, family: 'root' });
    // Without a name there is no name field.
    expect(await line(await get(s, `/a/${carol.id}`))).toMatch(new RegExp(`^${carol.id} lvl=L0 rep=0 since=${day} fixes=1 `));
  });

  it('saved counts live checkpoints plus cached results of the identity', async () => {
    const eve = await agent(s, 'eve');
    const saved = async () => Number(/ saved=(\d+) /.exec(await line(await get(s, `/a/${eve.id}`)))![1]);
    expect(await saved()).toBe(0);
    const m = await mcp(s, eve);
    try {
      const cp = await m.call('cp_save', { name: 'build-state', body: 'step 3 of 5 done' });
      expect(cp.isError, toolText(cp)).toBeFalsy();
      await m.call('cp_save', { name: 'build-state', body: 'step 4 of 5 done' });
      const c = await m.call('cache_put', { key: 'ab'.repeat(32), text: 'cached answer' });
      expect(c.isError, toolText(c)).toBeFalsy();
      expect(await saved()).toBe(3);
      await m.call('cp_delete', { id: (cp.structuredContent as { id: string }).id });
      expect(await saved()).toBe(2);
    } finally {
      await m.close();
    }
    // Someone else's saves do not count.
    expect(Number(/ saved=(\d+) /.exec(await line(await get(s, `/a/${alice.id}`)))![1])).toBe(0);
  });

  it('unknown identities are identical 404s (profile and badge); malformed ids are 400', async () => {
    const rs = await Promise.all([get(s, '/a/a000000'), get(s, '/a/azzzzzz.json'), get(s, '/a/asystem')]);
    const bodies = await Promise.all(rs.map((r) => r.text()));
    expect(rs.map((r) => r.status)).toEqual([404, 404, 404]);
    expect(new Set(bodies)).toEqual(new Set(['err notfound\n']));
    const bad = await get(s, '/a/bob');
    expect(bad.status).toBe(400);
    expect(await line(bad)).toBe('err bad id: want an identity id');
  });

  it('the same read over MCP', async () => {
    const m = await mcp(s, null);
    try {
      const r = await m.call('profile_get', { id: alice.id });
      expect(toolText(r)).toMatch(
        new RegExp(
          `^${alice.id} name=alice lvl=L0 rep=0 since=\\S+ fixes=1 confirmed=0 tasks_done=0 saved=0 family=root\\nnext: call mail_send \\{"to":"${alice.id}"\\} to write to it$`,
        ),
      );
      expect(r.structuredContent).toMatchObject({ id: alice.id, fixes: 1, family: 'root' });
      const missing = await m.call('profile_get', { id: 'a000000' });
      expect(missing.isError).toBe(true);
      expect(toolText(missing)).toBe('err notfound');
    } finally {
      await m.close();
    }
  });
});
