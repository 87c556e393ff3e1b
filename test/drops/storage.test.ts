// Encryption at rest, burning as deletion, the expiry sweep, and key persistence.
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { dropKeys, open, seal } from '../../src/core/drops/crypto.js';
import { startDropSweep } from '../../src/core/drops/sweep.js';
import { startServer } from '../../src/server.js';
import { register, start, type TestServer } from '../helpers/server.js';
import { get, put, secret, wkey, xff } from './helpers.js';

let s: TestServer;
let tok: string;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  tok = (await register(s.url, undefined, xff())).token;
});
afterAll(async () => s.stop());

const dbFiles = (dir: string) =>
  ['commons.db', 'commons.db-wal', 'commons.db-shm']
    .map((f) => join(dir, f))
    .filter(existsSync)
    .map((f) => readFileSync(f));

function rowsFor(dir: string, key: Buffer): { ct: Buffer; nonce: Buffer; reads: number; owner: string | null; wkey: Buffer | null }[] {
  const db = new Database(join(dir, 'commons.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT ct, nonce, reads, owner, wkey FROM drops WHERE key = ?').all(key) as never;
  } finally {
    db.close();
  }
}

describe('at rest', () => {
  it('the database files contain no body, secret or write key (searched as bytes), live and after checkpoint', async () => {
    const t = await start({ CX_TRUST_PROXY: '1' });
    try {
      const me = await register(t.url, undefined, xff());
      const items: { body: string; sec: string; k: string }[] = [];
      for (let i = 0; i < 24; i++) {
        const body = `PLAINTEXT-MARKER-${randomBytes(8).toString('hex')} ` + 'payload text '.repeat(i * 20);
        const item = { body, sec: secret(22 + i), k: wkey(24 + i) };
        const res = i % 2 ? await put(t.url, item.sec, body, { wk: item.k }) : await put(t.url, item.sec, body, { token: me.token, wk: item.k });
        expect(res.status).toBe(201);
        items.push(item);
        if (i % 3 === 0) expect(await (await get(t.url, item.sec)).text()).toBe(body); // some read
      }
      const needles = items.flatMap((i) => [i.body.slice(0, 40), i.sec, i.k]).map((x) => Buffer.from(x, 'utf8'));
      const check = () => {
        const files = dbFiles(t.dir);
        expect(files.length).toBeGreaterThan(0);
        // The search itself works: plaintext columns (the identity id) are found.
        expect(files.some((f) => f.includes(Buffer.from(me.id)))).toBe(true);
        for (const f of files) for (const n of needles) expect(f.includes(n), n.toString()).toBe(false);
      };
      check();
      // The rows are there, as ciphertext of the body's length plus the GCM tag.
      const [row] = rowsFor(t.dir, dropKeys(t.config.dropKey, items[5]!.sec).id);
      expect(row!.ct.length).toBe(Buffer.byteLength(items[5]!.body) + 16);
      await t.close(); // checkpoints the WAL into the main file
      check();
    } finally {
      await t.stop();
    }
  });

  it('rows decrypt only with the secret and the server key; the AAD binds the row', async () => {
    const sec = secret();
    await put(s.url, sec, 'bound to its row', { token: tok });
    const keys = dropKeys(s.config.dropKey, sec);
    const [row] = rowsFor(s.dir, keys.id);
    expect(row!.owner).toMatch(/^a[0-9a-z]{6}$/);
    expect(open(keys, row!.nonce, row!.ct)).toBe('bound to its row');
    expect(open(dropKeys(s.config.dropKey, secret()), row!.nonce, row!.ct)).toBeNull();
    expect(open(dropKeys(randomBytes(32), sec), row!.nonce, row!.ct)).toBeNull();
    expect(open({ id: randomBytes(32), enc: keys.enc }, row!.nonce, row!.ct)).toBeNull();
    // Fresh nonce per write: the same body sealed twice differs.
    expect(seal(keys, randomBytes(12), 'x').equals(seal(keys, randomBytes(12), 'x'))).toBe(false);
  });

  it('a burn deletes the row (ciphertext gone), not a flag', async () => {
    const sec = secret();
    await put(s.url, sec, 'burn me', { token: tok, query: 'reads=2' });
    const key = dropKeys(s.config.dropKey, sec).id;
    expect(rowsFor(s.dir, key)).toHaveLength(1);
    await get(s.url, sec);
    expect(rowsFor(s.dir, key)[0]!.reads).toBe(1);
    await get(s.url, sec);
    expect(rowsFor(s.dir, key)).toHaveLength(0);
  });

  it('DELETE removes the row', async () => {
    const sec = secret();
    const k = wkey();
    await put(s.url, sec, 'delete me', { wk: k });
    const key = dropKeys(s.config.dropKey, sec).id;
    expect(rowsFor(s.dir, key)).toHaveLength(1);
    await fetch(`${s.url}/d/${sec}`, { method: 'DELETE', headers: { 'x-drop-write': k } });
    expect(rowsFor(s.dir, key)).toHaveLength(0);
  });

  it('the sweep purges expired rows and keeps live ones', async () => {
    const old = secret();
    const live = secret();
    await put(s.url, old, 'short', { token: tok, query: 'ttl=1' });
    await put(s.url, live, 'long', { token: tok, query: 'ttl=5' });
    const real = s.core.now;
    s.core.now = () => real() + 2 * 3_600_000;
    const stop = startDropSweep(s.core, 20);
    try {
      await new Promise((r) => setTimeout(r, 120));
    } finally {
      stop();
      s.core.now = real;
    }
    expect(rowsFor(s.dir, dropKeys(s.config.dropKey, old).id)).toHaveLength(0);
    expect(rowsFor(s.dir, dropKeys(s.config.dropKey, live).id)).toHaveLength(1);
  });
});

describe('server key', () => {
  it('lives in drops.key (0600) and survives a restart: drops stay readable', async () => {
    const file = join(s.dir, 'drops.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);

    const t = await start();
    const dir = t.dir;
    const sec = secret();
    const k = wkey();
    expect((await put(t.url, sec, 'across restarts', { wk: k })).status).toBe(201);
    await t.close();
    const again = await startServer(loadConfig({ CX_DATA: dir, PORT: '0', CATALOG_PORT: '0', HOST: '127.0.0.1', CX_POW_BITS: '8' }), { logger: false });
    try {
      expect(await (await get(again.url, sec)).text()).toBe('across restarts');
    } finally {
      await again.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
