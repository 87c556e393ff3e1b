// The KB read memo across replicas (issue 38): two servers on one database, each with a data
// directory of its own. Replica A answers a signature, from then on from memory (a change written
// behind the KB's back, with no notification, is not seen); replica B adds an entry of that
// signature, then records an outcome on it, then it is hidden through B's store (as a notice
// does), and each time A's next answers show it within the notification's delay, far under
// kb.memo_ttl (the bound when a notification is lost, src/store/pg/kb-gen.ts). On PGlite
// (in-process, shared by both) always; on a real PostgreSQL too with CX_PG_REAL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { limit } from '../../src/core/kernel/limits.js';
import type { Running } from '../../src/server.js';
import { newSecretsFile, replica, type SharedDb, sharedDbs } from '../helpers/replicas.js';
import { register } from '../helpers/server.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const backends = sharedDbs('cx_kbmemo');

/** A statement on the shared database, not through any replica. */
async function raw(db: SharedDb, text: string, params: unknown[]): Promise<void> {
  if (db.kind === 'pglite') {
    await db.db.query(text, params);
    return;
  }
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    await c.query(text, params);
  } finally {
    await c.end();
  }
}

type Answer = { entries: Array<{ id: string; confirms: number; fix: string }> };
// Well under kb.memo_ttl: what is seen this fast was told, not timed out.
const PROMPT = Math.min(2000, limit('kb.memo_ttl') / 2);

for (const [name, open] of backends)
  describe(`KB read memo on two replicas (${name})`, () => {
    it("replica A's memoized answer to a signature shows replica B's new entry, outcome and hiding within the notification's delay", async () => {
      const work = mkdtempSync(join(tmpdir(), 'cx-kbmemo-'));
      dirs.push(work);
      const db = await open();
      const env = { CX_SECRETS_FILE: newSecretsFile(join(work, 'secrets.json')) };
      const started: Running[] = [];
      try {
        const a = await replica(db, env);
        started.push(a);
        dirs.push(a.dir);
        const b = await replica(db, env);
        started.push(b);
        dirs.push(b.dir);
        const author = await register(b.url, 'memoauthor', { 'x-forwarded-for': '10.91.0.1' });
        const voter = await register(b.url, 'memovoter', { 'x-forwarded-for': '10.91.1.1' });
        const add = async (fix: string): Promise<{ id: string; h: string }> => {
          const r = await fetch(`${b.url}/k`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${author.token}`,
              'content-type': 'application/json',
              accept: 'application/json',
              'x-forwarded-for': '10.91.0.1',
            },
            body: JSON.stringify({ error: "ModuleNotFoundError: No module named 'zzkbmemo'", fix, eco: 'pypi' }),
          });
          expect(r.status, await r.clone().text()).toBe(201);
          return (await r.json()) as { id: string; h: string };
        };
        const first = await add('pip install zzkbmemo inside the active virtualenv');
        let n = 0;
        const answer = async (): Promise<Answer> => {
          const r = await fetch(`${a.url}/h/${first.h}`, { headers: { accept: 'application/json', 'x-forwarded-for': `10.92.${n++ & 255}.1` } });
          expect(r.status).toBe(200);
          return (await r.json()) as Answer;
        };
        const within = async (ok: (x: Answer) => boolean): Promise<number> => {
          const t0 = Date.now();
          while (!ok(await answer())) {
            if (Date.now() - t0 > PROMPT) throw new Error(`replica A did not show it within ${PROMPT} ms`);
            await new Promise((r) => setTimeout(r, 5));
          }
          return Date.now() - t0;
        };
        // A answers, and keeps the answer (a signature is kept from its second lookup).
        for (let i = 0; i < 3; i++) expect((await answer()).entries.map((e) => e.id)).toEqual([first.id]);
        // Served from memory: a change written behind the KB's back (no notification) is not seen.
        await raw(db, "UPDATE kb_entries SET fix = 'changed behind its back' WHERE id = $1", [first.id]);
        await new Promise((r) => setTimeout(r, 200));
        expect((await answer()).entries[0]!.fix).not.toBe('changed behind its back');

        // B adds an entry of the same signature.
        const second = await add('python -m pip install zzkbmemo==2.0 (the 1.x wheels were yanked)');
        expect(second.h).toBe(first.h);
        const took = await within((x) => x.entries.some((e) => e.id === second.id));
        expect((await answer()).entries.find((e) => e.id === first.id)!.fix).toBe('changed behind its back');
        console.log(`${name}: replica B's entry in replica A's answer after ${took} ms (kb.memo_ttl ${limit('kb.memo_ttl')} ms)`);

        // An outcome recorded through B moves the entry's figures in A's answer.
        const ok = await fetch(`${b.url}/k/${second.id}/ok`, {
          method: 'POST',
          headers: { authorization: `Bearer ${voter.token}`, 'x-forwarded-for': '10.91.1.1' },
        });
        expect(ok.status, await ok.clone().text()).toBeLessThan(300);
        await within((x) => x.entries.find((e) => e.id === second.id)?.confirms === 1);

        // Hidden (what a notice does, through B's store): gone from A's answer.
        expect(await b.core.store.kb.setHidden(second.id, true)).toBe(true);
        await within((x) => x.entries.every((e) => e.id !== second.id));
      } finally {
        for (const r of started) await r.close();
        if (db.kind === 'pglite') await db.db.close();
      }
    }, 120_000);
  });
