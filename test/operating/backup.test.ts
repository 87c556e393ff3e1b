// npm run backup / restore on SQLite: writers keep writing (sealed notes of several identities)
// while the backup runs in another process; the backup is restored into a fresh directory, a
// server started on it, and every write acknowledged before the backup began is read back (its
// keys came with it: notes are sealed with the workspace key).
import { spawnSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backupDataDir, restoreDataDir } from '../../src/store/sqlite/backup.js';
import { agent, req, type Who } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';

const tmp = mkdtempSync(join(tmpdir(), 'cx-backup-'));
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
});

/** Runs scripts/<name>.ts as `npm run <name>` does (tsx), in its own process. */
function script(name: string, file: string, dataDir: string): Promise<{ code: number | null; out: string }> {
  return new Promise((ok) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, file], {
      env: { ...process.env, CX_DATA: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.once('exit', (code) => ok({ code, out }));
  });
}

describe('backup and restore (SQLite)', () => {
  it('a backup taken under writes restores every write acknowledged before it began', async () => {
    const s = await start({ CX_QUOTA_MULT: '1000', CX_TRUST_PROXY: '1' });
    servers.push(s);
    const who: Who[] = await Promise.all(Array.from({ length: 4 }, () => agent(s)));
    const acked: Array<{ w: Who; id: string; body: string; at: number }> = [];
    let stop = false;
    let n = 0;
    const writer = async (w: Who) => {
      while (!stop) {
        const body = `note ${n++} of ${w.id} ${'x'.repeat(n % 300)}`;
        const r = await req(s, 'POST', '/v1/notes?f=json', { as: w, json: { body } });
        if (r.status === 201) acked.push({ w, id: ((await r.json()) as { id: string }).id, body, at: Date.now() });
        else await r.text();
      }
    };
    const writers = who.map(writer);
    while (acked.length < 40) await new Promise((r) => setTimeout(r, 20));
    // Everything acknowledged up to here must be in the backup.
    const before = acked.length;
    const file = join(tmp, 'commons.tar.gz');
    const b = await script('backup', file, s.dir);
    const during = acked.length - before;
    stop = true;
    await Promise.all(writers);
    expect(b.out).toMatch(/^ok backup \S+ files=\d+ bytes=\d+ created=\S+\nnote: it holds the service keys/);
    expect(b.code).toBe(0);
    // Writes went on while it ran (the copy is of a database being written).
    expect(during).toBeGreaterThan(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const listing = spawnSync('tar', ['-tzf', file], { encoding: 'utf8' }).stdout.split('\n');
    for (const f of ['./BACKUP.json', './commons.db', './kb-hits.db', './catalog.db', './workspace.key', './drops.key', './seal.key', './operator-tokens.json'])
      expect(listing).toContain(f);
    expect(listing.some((f) => f.startsWith('./git'))).toBe(false);

    const fresh = join(tmp, 'restored');
    const r = await script('restore', file, fresh);
    expect(r.out).toMatch(/^ok restore \S+ files=\d+ backup_created=\S+\n$/);
    expect(r.code).toBe(0);
    expect(statSync(join(fresh, 'workspace.key')).mode & 0o777).toBe(0o600);
    const t = await start({ CX_QUOTA_MULT: '1000', CX_TRUST_PROXY: '1' }, { dir: fresh });
    servers.push(t);
    // The operator tokens came along too.
    expect(t.config.operatorTokens.poll).toBe(s.config.operatorTokens.poll);
    const missing: string[] = [];
    for (const a of acked.slice(0, before)) {
      const g = await req(t, 'GET', `/v1/notes/${a.id}?f=json`, { as: a.w });
      if (g.status !== 200 || ((await g.json()) as { body: string }).body !== a.body) missing.push(a.id);
    }
    expect(missing).toEqual([]);
  }, 90_000);

  it('restore refuses a directory that holds a database, a damaged file, and a file that is no backup', async () => {
    // The first test's service directory and a plain tar of it (the functions behind the commands).
    const s = servers[0]!;
    const file = join(tmp, 'plain.tar');
    await backupDataDir(s.dir, file);
    expect(() => restoreDataDir(file, s.dir)).toThrow(/^restore: \S+ already holds .*commons\.db.*; restore into an empty data directory/);
    // One byte changed inside the tar (a database page): the checksum catches it.
    const buf = readFileSync(file);
    const at = buf.indexOf(Buffer.from('SQLite format 3\0')) + 5000;
    buf[at] = buf[at]! ^ 0xff;
    writeFileSync(join(tmp, 'bad.tar'), buf);
    expect(() => restoreDataDir(join(tmp, 'bad.tar'), join(tmp, 'r2'))).toThrow(/^restore: \S+\.db is damaged or missing \(checksum\)/);
    // Nothing was put in place.
    expect(readdirSync(join(tmp, 'r2'))).toEqual([]);
    writeFileSync(join(tmp, 'none.tar'), Buffer.alloc(10240));
    expect(() => restoreDataDir(join(tmp, 'none.tar'), join(tmp, 'r3'))).toThrow(/^restore: not a backup/);
  });
});
