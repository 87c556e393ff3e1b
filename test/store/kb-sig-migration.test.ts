// Migration 012 and ErrSig v2: a database written before it (entries signed by v1) is re-signed
// when the server starts. The entries answer to v2 signatures (exact and coarse), their v1 hashes
// keep resolving through GET /h/{hex}, and the lookups counted under a v1 hash move to the v2 one.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errsig } from '../../src/core/kb/errsig/errsig.js';
import * as v1 from '../../src/core/kb/errsig/errsig-v1.js';
import { migrate } from '../../src/store/sqlite/db.js';
import { start, type TestServer } from '../helpers/server.js';

const all = fileURLToPath(new URL('../../src/store/sqlite/migrations/', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'cx-sigmig-'));
const data = join(root, 'data');

// A rustc error whose variable name v1 kept (so its v1 hash differs from v2), and one whose
// signature is the same under both versions.
const RUST = (v: string) =>
  `   Compiling shop v0.1.0 (/home/ann/shop)\nerror[E0502]: cannot borrow \`${v}\` as mutable because it is also borrowed as immutable\n --> src/cart.rs:14:9`;
const PY =
  'Traceback (most recent call last):\n  File "/srv/a.py", line 1, in <module>\n    import zzqlegacy\nModuleNotFoundError: No module named \'zzqlegacy\'';

let s: TestServer;
beforeAll(async () => {
  const before = join(root, 'before');
  mkdirSync(before);
  mkdirSync(data);
  for (const f of readdirSync(all).filter((f) => f < '012')) copyFileSync(join(all, f), join(before, f));
  const db = new Database(join(data, 'commons.db'));
  migrate(db, before);
  const put = db.prepare(
    `INSERT INTO kb_entries (n, id, sig, h, title, fix, eco, cls, tags, author, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '', 'aold', 1, 1)`,
  );
  const err = db.prepare('INSERT INTO kb_errors (n, error) VALUES (?, ?)');
  const fts = db.prepare('INSERT INTO kb_fts (rowid, title, error, fix, tags) VALUES (?, ?, ?, ?, ?)');
  const rust = v1.errsig(RUST('items'));
  const py = v1.errsig(PY);
  // The first entry was published without a title: its title is its v1 signature.
  put.run(1, 'krust0001', rust.sig, rust.h, rust.sig, 'End the shared borrow before pushing: copy the value out first.', 'crates', 'e0502');
  err.run(1, RUST('items'));
  fts.run(1, rust.sig, RUST('items'), 'End the shared borrow before pushing', '');
  put.run(2, 'kpy000001', py.sig, py.h, 'zzqlegacy is not installed', 'pip install zzqlegacy in the active environment', 'pypi', 'modulenotfounderror');
  err.run(2, PY);
  fts.run(2, 'zzqlegacy is not installed', PY, 'pip install zzqlegacy', '');
  db.prepare('INSERT INTO kb_sig_hits (h, hits) VALUES (?, 7)').run(rust.h);
  db.close();
  s = await start({ CX_DATA: data, CX_SEED: '0' });
});
afterAll(async () => {
  await s.close();
  rmSync(root, { recursive: true, force: true });
});

const postE = (body: string) => fetch(`${s.url}/e`, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });

describe('migration 012: entries signed by ErrSig v1', () => {
  it('are re-signed with the current version at start (v2 then, v3 now): the hashes differ where v1 kept a variable name', () => {
    expect(v1.errsig(RUST('items')).h).not.toBe(errsig(RUST('items')).h);
    expect(v1.errsig(PY).h).toBe(errsig(PY).h);
  });

  it('answer to v2 signatures: the same error with another variable name is an exact match', async () => {
    const r = await postE(RUST('self.cache'));
    expect(r.status).toBe(200);
    const t = await r.text();
    expect(t.split('\n')[0]).toBe(`e: ${errsig(RUST('self.cache')).sig} hits=1 raw=${RUST('self.cache').length} chars match=exact`);
    expect(t).toContain('k/krust0001 ');
    const j = (await (await fetch(`${s.url}/k/krust0001.json`)).json()) as { sig: string; h: string; title: string };
    expect(j.sig).toBe(errsig(RUST('x')).sig);
    expect(j.h).toBe(errsig(RUST('x')).h);
    // The title was only the old signature: it follows the new one.
    expect(j.title).toBe(errsig(RUST('x')).sig);
  });

  it('keep answering to their v1 hashes (GET /h/{hex}), and to their v2 and coarse hashes', async () => {
    for (const h of [v1.errsig(RUST('items')).h, errsig(RUST('items')).h, v1.errsig(PY).h]) {
      const r = await fetch(`${s.url}/h/${h}`);
      expect(r.status, h).toBe(200);
      expect(await r.text()).toMatch(new RegExp(`^h: ${h.slice(0, 12)} hits=1 match=exact\\n`));
    }
    // A coarse hash names the entry as related (without the text nothing can be compared).
    const c = await fetch(`${s.url}/h/${errsig(PY).ch}`);
    expect(await c.text()).toMatch(/^h: [0-9a-f]{12} hits=0 match=related\nrelated: k\/kpy000001 /);
  });

  it('keep the lookups counted under the v1 hash', async () => {
    const j = (await (await fetch(`${s.url}/k/krust0001.json`)).json()) as { hits: number };
    expect(j.hits).toBeGreaterThanOrEqual(7);
  });

  it('a missing module of another name finds the re-signed entry by its coarse signature', async () => {
    const other = PY.replace(/zzqlegacy/g, 'zzqother');
    const r = await postE(other);
    expect(r.status).toBe(200);
    const t = await r.text();
    // Another module's name: the entry is named, its fix is not claimed as this error's.
    expect(t.split('\n')[0]).toMatch(/ match=(near|related)$/);
    expect(t).toContain('k/kpy000001 ');
    const j = (await (await fetch(`${s.url}/e?f=json`, { method: 'POST', body: other, headers: { 'content-type': 'text/plain' } })).json()) as {
      match: string;
      entries: { id: string }[];
      related: { id: string; why: string }[];
    };
    expect([...j.entries, ...j.related][0]!.id).toBe('kpy000001');
  });

  it('re-signing is done once: a restart finds nothing stale and the v1 hash still resolves', async () => {
    await s.close();
    s = await start({ CX_DATA: data, CX_SEED: '0' });
    expect(await s.core.store.kb.staleSigs(2, 10)).toEqual([]);
    expect((await fetch(`${s.url}/h/${v1.errsig(RUST('items')).h}`)).status).toBe(200);
  });
});
