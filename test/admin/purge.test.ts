// POST /admin/purge: a root with rows in every domain is purged; afterwards no table of the SQLite
// file holds its id (every text column of every table is scanned, so a new table is covered), its
// token is refused, the ledger audit is at zero drift and its published content left tombstones.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTombstones } from '../../src/core/admin/purge.js';
import { limit } from '../../src/core/kernel/limits.js';
import { secret } from '../drops/helpers.js';
import { makeL2 } from '../helpers/db.js';
import { agent, call, type Who } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let root: Who;
let bob: Who;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '1' });
  root = await agent(s, 'doomed');
  bob = await agent(s);
});
afterAll(async () => s.stop());

const J = { accept: 'application/json' };
const admin = (method: string, path: string, json?: unknown) =>
  call(s, method, path, { headers: { authorization: `Bearer ${s.config.operatorTokens.admin}` }, ...(json === undefined ? {} : { json }) });
const ok = async (p: Promise<{ status: number; text: string }>, status = [200, 201]) => {
  const r = await p;
  if (!status.includes(r.status)) throw new Error(`${r.status} ${r.text.slice(0, 200)}`);
  return r.text;
};
const idOf = (text: string) => (JSON.parse(text) as { id: string }).id;

/** Every (table, column, value) of the database file whose text holds `needle`. */
function rowsNaming(dir: string, needle: string): string[] {
  const db = new Database(join(dir, 'commons.db'), { readonly: true });
  try {
    const hits: string[] = [];
    const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all() as { name: string; sql: string | null }[];
    for (const t of tables) {
      // FTS tables are contentless (nothing to read back) and their shadow tables hold tokens only.
      if (t.name.startsWith('sqlite_') || /_fts(_|$)/.test(t.name) || /VIRTUAL/i.test(t.sql ?? '')) continue;
      const cols = (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(t.name) as { name: string }[]).map((c) => c.name);
      for (const c of cols) {
        const n = (db.prepare(`SELECT count(*) AS n FROM "${t.name}" WHERE typeof("${c}") = 'text' AND instr("${c}", ?) > 0`).get(needle) as { n: number }).n;
        if (n) hits.push(`${t.name}.${c} x${n}`);
      }
    }
    return hits;
  } finally {
    db.close();
  }
}

describe('POST /admin/purge', () => {
  it('removes a root from every table, burns its credits with the audit at zero drift, leaves tombstones', async () => {
    // Rows of the root in many domains.
    const kb = idOf(
      await ok(
        call(s, 'POST', '/k', {
          as: root,
          json: { error: "ModuleNotFoundError: No module named 'zzpurge'", fix: 'pip install zzpurge in the venv', eco: 'pypi' },
          headers: J,
        }),
      ),
    );
    const bobKb = idOf(
      await ok(
        call(s, 'POST', '/k', {
          as: bob,
          json: { error: "ModuleNotFoundError: No module named 'zzbob'", fix: 'pip install zzbob in the venv', eco: 'pypi' },
          headers: J,
        }),
      ),
    );
    await call(s, 'POST', `/k/${bobKb}/ok`, { as: root, json: {} });
    await ok(admin('POST', '/admin/credits', { id: root.id, n: 50 }));
    const task = idOf(await ok(call(s, 'POST', '/v1/tasks', { as: root, json: { title: 'Root task with bounty', body: 'details', bounty: 10 }, headers: J })));
    const bobTask = idOf(await ok(call(s, 'POST', '/v1/tasks', { as: bob, json: { title: 'Bob task the root claims' }, headers: J })));
    await ok(call(s, 'POST', `/v1/tasks/${bobTask}/claim`, { as: root, json: {} }));
    await ok(call(s, 'POST', '/v1/notes', { as: root, text: 'private note' }));
    await ok(call(s, 'POST', '/v1/mail', { as: root, json: { to: bob.id, subject: 'hello', body: 'from the root' } }));
    const toRoot = idOf(await ok(call(s, 'POST', '/v1/mail', { as: bob, json: { to: root.id, subject: 'hi', body: 'to the root' }, headers: J })));
    await ok(call(s, 'POST', `/v1/mail/${toRoot}/report`, { as: root, json: { reason: 'spam' } }));
    await ok(call(s, 'PUT', `/d/${secret()}`, { as: root, text: 'drop body' }));
    const cp = idOf(await ok(call(s, 'POST', '/v1/cp', { as: root, json: { name: 'build', body: 'state' }, headers: J })));
    await ok(call(s, 'POST', `/v1/cp/${cp}/publish`, { as: root, json: {} }));
    await ok(call(s, 'PUT', '/v1/anchor/purge-test-key', { as: root, json: { note: 'here' } }));
    await ok(call(s, 'POST', '/v1/spaces', { as: root, json: { slug: 'doomed-space' } }));
    await ok(call(s, 'POST', '/v1/spaces/doomed-space/join', { as: bob, json: {} }));
    // An outcome the root records on a private entry of bob's closed space (issue 39): its own table.
    await ok(call(s, 'POST', '/v1/spaces', { as: bob, json: { slug: 'bobs-crew', closed: true } }));
    const inv = (JSON.parse(await ok(call(s, 'POST', '/v1/spaces/bobs-crew/invite', { as: bob, json: {}, headers: J }))) as { invite: string }).invite;
    await ok(call(s, 'POST', '/v1/spaces/bobs-crew/join', { as: root, json: { invite: inv } }));
    const privKb = idOf(
      await ok(
        call(s, 'POST', '/k', {
          as: bob,
          json: { error: "ModuleNotFoundError: No module named 'zzcrew'", fix: 'pip install zzcrew in the venv', eco: 'pypi', space: 's:bobs-crew' },
          headers: J,
        }),
      ),
    );
    await ok(call(s, 'POST', `/k/${privKb}/outcome`, { as: root, json: { kind: 'worked', note: 'root was here' } }));
    makeL2(s, root);
    await ok(call(s, 'PUT', '/v1/agent', { as: root, json: { name: 'Doomed', description: 'an agent to purge' } }));
    await ok(admin('POST', '/admin/seed-root', { id: root.id, on: true }));
    // The second half of the spec: swarm, webhooks, compute, governance.
    await ok(call(s, 'POST', '/v1/subs', { as: root, json: { topic: '~doom', sink: 'kv:doom/last' } }));
    await ok(call(s, 'POST', '/v1/pub/~doom', { as: root, text: 'a line of the root' }));
    await ok(call(s, 'POST', '/v1/in', { as: root, json: { provider: 'generic', topic: '~doom', secret: 'x'.repeat(32) } }));
    const proposal = idOf(
      await ok(call(s, 'POST', '/v1/p', { as: root, json: { kind: 'feature', title: 'A proposal of the root', body: 'Because.' }, headers: J })),
    );
    await ok(call(s, 'POST', `/v1/p/${proposal}/support`, { as: bob, json: {} }));
    // The injection map (issue 22): a report and a dispute.
    await ok(call(s, 'POST', '/v1/inj', { as: root, json: { host: 'doomed.example', ph: 'd'.repeat(64), flags: 'jailbreak' } }));
    await ok(call(s, 'POST', '/v1/inj/dispute', { as: root, json: { host: 'doomed.example', note: 'mine' } }));
    for (let i = 0; i < 300 && !(await call(s, 'GET', '/v1/svc/text-stats')).text.includes('served=1'); i++) await new Promise((r) => setTimeout(r, 100));
    await ok(call(s, 'POST', '/v1/svc/text-stats/call', { as: root, text: 'count me' }));
    for (let i = 0; i < 100 && !rowsNaming(s.dir, root.id).some((h) => h.startsWith('swarm_kv.')); i++) await new Promise((r) => setTimeout(r, 50));
    expect(rowsNaming(s.dir, root.id).map((h) => h.split('.')[0])).toEqual(
      expect.arrayContaining(['swarm_subs', 'swarm_kv', 'webhooks', 'gov_proposals', 'svc_calls', 'inj_reports', 'inj_disputes', 'space_kb_outcomes']),
    );
    expect(rowsNaming(s.dir, root.id).length).toBeGreaterThan(10);

    const before = JSON.parse((await admin('GET', '/admin/audit?f=json')).text) as { ok: boolean; minted: number };
    expect(before.ok).toBe(true);

    const r = await admin('POST', '/admin/purge', { id: root.id });
    expect(r.status).toBe(200);
    // 100 at registration + 50 minted, less the compute call it paid, 10 in the bounty's escrow: all burned.
    const burned = 150 - limit('compute.price');
    expect(r.text).toMatch(new RegExp(`^ok purged ${root.id} ids=1 rows=\\d+ burned=${burned} tombstones=3\\nnext: GET /admin/audit\\n$`));

    expect(rowsNaming(s.dir, root.id)).toEqual([]);
    const audit = JSON.parse((await admin('GET', '/admin/audit?f=json')).text) as { ok: boolean; problems: string[]; minted: number };
    expect(audit).toMatchObject({ ok: true, problems: [] });
    expect(audit.minted).toBe(before.minted - burned);

    // Revoked: the token is unknown now.
    const me = await call(s, 'GET', '/v1/me', { as: root });
    expect(me.status).toBe(401);
    // Its content is gone; bob's task it had claimed is open again.
    expect((await call(s, 'GET', `/k/${kb}`)).status).toBe(404);
    expect((await call(s, 'GET', `/v1/tasks/${task}`)).status).toBe(404);
    expect(JSON.parse((await call(s, 'GET', `/v1/tasks/${bobTask}`, { headers: J })).text)).toMatchObject({ state: 'open' });
    // Tombstones name the content, never the root.
    const tombs = await listTombstones(s.core, 0, 100);
    expect(tombs.map((t) => `${t.kind}:${t.id}`).sort()).toEqual([`cp:${cp}`, `kb:${kb}`, `task:${task}`].sort());
    expect(tombs.every((t) => t.reason === 'purge')).toBe(true);

    // The next export leaves the purged entry out and lists its removal.
    expect((await call(s, 'POST', '/admin/export', { headers: { authorization: `Bearer ${s.config.operatorTokens.ops}` } })).status).toBe(200);
    const ndjson = (await call(s, 'GET', '/export/tombstones.jsonl')).text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; id: string; reason: string });
    expect(ndjson).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'kb', id: kb, reason: 'purge' })]));
    const date = new Date().toISOString().slice(0, 10);
    const shard = gunzipSync(Buffer.from(await (await fetch(`${s.url}/export/kb-${date}.jsonl.gz`)).arrayBuffer())).toString('utf8');
    expect(shard).toContain(bobKb);
    expect(shard).not.toContain(kb);

    // Again: the root is unknown.
    const again = await admin('POST', '/admin/purge', { id: root.id });
    expect(again.status).toBe(404);
    expect((await admin('POST', '/admin/purge', { id: 'nope' })).text).toMatch(/^err bad id/);
  });
});
