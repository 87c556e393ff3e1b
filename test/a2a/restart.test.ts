// Tasks, push configs and hosted-agent inboxes live in SQLite: a restart on the same data
// directory keeps them, watches open hosted tasks again and repairs an answer that never arrived.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type Running } from '../../src/server.js';
import { register } from '../helpers/server.js';
import { client03, data03, msg03, raiseToL1, receiver, serveBase, subscribed, text03, type Json } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-a2a-restart-'));
let running: Running | null = null;
afterAll(async () => {
  await running?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function boot(env: Record<string, string> = { CX_A2A_PUSH_ALLOW_LOOPBACK: '1' }): Promise<Running> {
  await running?.close();
  running = await startServer(
    loadConfig({ CX_DATA: dir, PORT: '0', CATALOG_PORT: '0', HOST: '127.0.0.1', CX_POW_BITS: '8', CX_BASE_URL: 'http://commons.test', ...env }),
    { logger: false },
  );
  serveBase(running.url);
  return running;
}

const ok = <T>(r: any): T => {
  if ('error' in r) throw new Error(`JSON-RPC error ${JSON.stringify(r.error)}`);
  return r.result as T;
};

describe('restart', () => {
  it('keeps tasks, push configs and inbound tasks; open hosted tasks complete after it', async () => {
    const hook = await receiver();
    try {
      let s = await boot();
      const owner = await register(s.url, 'owner');
      const sender = await register(s.url, 'sender');
      raiseToL1(dir, owner.id);
      const put = await fetch(`${s.url}/v1/agent`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${owner.token}` },
        body: new URLSearchParams({ name: 'Keeper', description: 'keeps things', tags: 'ops' }),
      });
      expect(put.status).toBe(200);

      const commons = await client03(`${s.url}/.well-known/agent.json`);
      const done = ok<Json>(await commons.sendMessage({ message: msg03([data03({ skill: 'sys.limits' })]) as never, configuration: { blocking: true } }));
      const waiting = ok<Json>(await commons.sendMessage({ message: msg03([text03('register')]) as never }));
      expect(waiting.status.state).toBe('input-required');
      ok(await commons.setTaskPushNotificationConfig({ taskId: waiting.id, pushNotificationConfig: { url: hook.url, token: 'kept' } }));
      const toOwner = await client03(`${s.url}/a/${owner.id}/agent.json`, sender.token);
      const h1 = ok<Json>(await toOwner.sendMessage({ message: msg03([text03('first')]) as never }));
      const h2 = ok<Json>(await toOwner.sendMessage({ message: msg03([text03('second')]) as never }));

      // Stopped: an answer recorded but never delivered (a crash between the two steps).
      await s.close();
      running = null;
      const db = new Database(join(dir, 'commons.db'));
      db.prepare("UPDATE agent_inbound SET state = 'completed', answer = 'repaired answer', synced = 0 WHERE task = ?").run(h2.id);
      db.close();

      s = await boot();
      const kept = ok<Json>(await commons.getTask({ id: done.id }));
      expect(kept).toMatchObject({ id: done.id, status: { state: 'completed' }, metadata: { skill: 'sys.limits' } });
      expect(kept.artifacts[0].parts[0].text).toEqual(done.artifacts[0].parts[0].text);
      expect(ok<Json>(await commons.getTaskPushNotificationConfig({ id: waiting.id }))).toMatchObject({
        pushNotificationConfig: { url: hook.url, token: 'kept' },
      });

      // No live bus survived: the cancel is stored directly and the kept config still gets the push.
      expect(ok<Json>(await commons.cancelTask({ id: waiting.id })).status.state).toBe('canceled');
      await hook.waitFor((h) =>
        h.some((x) => x.body.id === waiting.id && x.body.status.state === 'canceled' && x.headers['x-a2a-notification-token'] === 'kept'),
      );

      // The repaired answer reached the sender's task at start-up.
      const repaired = ok<Json>(await toOwner.getTask({ id: h2.id }));
      expect(repaired.status.state).toBe('completed');
      expect(repaired.artifacts[0].parts[0].text).toBe('repaired answer');

      // The open one is watched again: a resubscriber sees the owner's answer.
      const watching = await subscribed(toOwner.resubscribeTask({ id: h1.id }));
      expect(watching.first).toMatchObject({ kind: 'task', status: { state: 'working' } });
      const ans = await fetch(`${s.url}/v1/agent/inbox/${h1.id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}` },
        body: new URLSearchParams({ text: 'after restart' }),
      });
      expect(await ans.text()).toMatch(new RegExp(`^ok completed ${h1.id} to=${sender.id} delivered=1`));
      const events = (await watching.rest) as Json[];
      expect(events.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'completed' }, final: true });
      expect(ok<Json>(await toOwner.getTask({ id: h1.id })).artifacts[0].parts[0].text).toBe('after restart');

      // Without the test-mode flag, loopback push targets are refused.
      s = await boot({});
      const again = ok<Json>(await commons.sendMessage({ message: msg03([text03('register')]) as never }));
      const refused = (await commons.setTaskPushNotificationConfig({ taskId: again.id, pushNotificationConfig: { url: hook.url } })) as Json;
      expect(refused.error).toMatchObject({ code: -32602, message: 'push url: only public addresses are allowed' });
    } finally {
      await hook.close();
    }
  });
});
