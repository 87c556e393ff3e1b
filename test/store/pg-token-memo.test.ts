// The token memo and the "no subscription" memo on PostgreSQL (issue 38: src/store/pg/token-memo.ts,
// swarm.ts, notifier.ts). Two sets of repositories on one database, each on its own connections,
// stand for two replicas. A token asked again is answered from memory (no statement); the other
// replica's freeze, an outcome that moves the author's reputation, and a purge reach it as soon as
// their NOTIFY arrives, while a change written behind the store's back is not seen: the memo really
// serves. Unknown tokens are never kept. A topic with no subscription is asked once; the other
// replica's new subscription on it is seen as soon as its notification arrives.
// On PGlite always, on a real server with CX_PG_REAL (scripts/pg-test.sh).
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/compose/store.js';
import type { Identity } from '../../src/core/platform/identity/ports.js';
import { limit } from '../../src/core/kernel/limits.js';
import { pgAdmin } from '../../src/store/pg/admin.js';
import { pgEvents } from '../../src/store/pg/events.js';
import { pgIdentities } from '../../src/store/pg/identities.js';
import { kbShared, pgKb, type PgKb } from '../../src/store/pg/kb.js';
import { migratePg } from '../../src/store/pg/migrate.js';
import type { Sql } from '../../src/store/pg/sql.js';
import { pgPair } from '../helpers/pg-pair.js';
import { pgSwarm, type PgSwarm } from '../../src/store/pg/swarm.js';
import { tokenMemo, type TokenMemo } from '../../src/store/pg/token-memo.js';
import { newId, vote } from '../contract/fixtures.js';

const schema = `tokmemo${process.pid}`;
const hash = (s: string) => createHash('sha256').update(s).digest('hex');

const { engines, onClose } = pgPair(schema);

/** Polls `read` until `ok`; the milliseconds it took. */
async function within<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (ok(await read())) return Date.now() - t0;
    if (Date.now() - t0 > ms) throw new Error(`not seen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** One replica's share of the store: what the memos sit in, as src/store/pg/index.ts wires it. */
function replica(sql: Sql) {
  const tokens = tokenMemo(sql);
  const kb = pgKb(sql, sql, kbShared(sql, tokens.changed));
  const events = pgEvents(sql, Date.now);
  return {
    tokens,
    kb,
    swarm: pgSwarm(sql),
    identities: pgIdentities(sql, tokens),
    admin: pgAdmin(sql, events, undefined, Date.now, () => kb.changed(), tokens.changed),
  };
}
type Replica = ReturnType<typeof replica>;

for (const engine of engines)
  describe(`${engine.name}: token and subscription memos`, () => {
    let sqlA: Sql;
    let sqlB: Sql;
    let a: Replica;
    let b: Replica;
    // Well under the TTLs: what is seen this fast was told, not timed out.
    const PROMPT = Math.min(1500, limit('db.token_memo_ttl') / 3, limit('db.subs_memo_ttl') / 3);

    /** A new identity with one user token; its token's hash. */
    async function someone(): Promise<{ id: string; h: string }> {
      const id = newId('a', 6);
      const h = hash(`cx_${id}`);
      const rec: Identity = { id, name: null, created: Date.now(), rep: 0, confirmed: 0, frozen: false };
      await a.identities.create(rec, h);
      return { id, h };
    }

    beforeAll(async () => {
      [sqlA, sqlB] = await engine.open();
      await migratePg(sqlA);
      a = replica(sqlA);
      b = replica(sqlB);
      for (const r of [a, b]) {
        await r.tokens.start();
        await r.kb.start();
        await r.swarm.start();
      }
      onClose(async () => {
        for (const r of [a, b]) {
          await r.tokens.close();
          await r.kb.close();
          await r.swarm.close();
        }
      });
    }, 120_000);

    it('a token asked again is answered from memory, frozen; an unknown token is read every time', async () => {
      const { id, h } = await someone();
      const first = await a.identities.byToken(h, 'user');
      expect(first?.id).toBe(id);
      expect(Object.isFrozen(first)).toBe(true);
      const sent = sqlA.counts().statements;
      for (let i = 0; i < 10; i++) expect(await a.identities.byToken(h, 'user')).toBe(first);
      expect(sqlA.counts().statements).toBe(sent);
      // The class is part of the key: the same hash as a url token is not this user token.
      expect(await a.identities.byToken(h, 'url')).toBeNull();
      const before = sqlA.counts().statements;
      for (let i = 0; i < 3; i++) expect(await a.identities.byToken(hash('nobody'), 'user')).toBeNull();
      expect(sqlA.counts().statements).toBe(before + 3);
    });

    it("the other replica's freeze, an outcome moving the author's reputation and a purge are seen as soon as they are told", async () => {
      const { id, h } = await someone();
      const read = () => a.identities.byToken(h, 'user');
      await read();
      // B freezes it: A refuses it within milliseconds, not after the TTL.
      expect(await b.admin.setIdentityFrozen(id, true)).toBe(true);
      const took = await within(read, (i) => i?.frozen === true, PROMPT);
      console.log(`${engine.name}: another replica's freeze seen after ${took} ms (db.token_memo_ttl ${limit('db.token_memo_ttl')} ms)`);
      expect(await b.admin.setIdentityFrozen(id, false)).toBe(true);
      await within(read, (i) => i?.frozen === false, PROMPT);

      // Its entry confirmed through B: its reputation (and so its level) moves on A too.
      const entry = (await b.kb.insert({
        id: newId('k', 6),
        sig: 'py:ValueError:zztok',
        h: hash('py:ValueError:zztok'),
        title: 'zztok',
        error: 'ValueError: zztok',
        fix: 'do not zztok',
        eco: 'pypi',
        cls: 'ValueError',
        tags: [],
        libs: [],
        author: id,
        created: Date.now(),
      }))!;
      // Written behind the store's back (no NOTIFY): A keeps serving what it holds...
      const held = await read();
      await sqlB.query('UPDATE identities SET rep = rep + 1000 WHERE id = $1', [id]);
      await new Promise((r) => setTimeout(r, 200));
      expect(await read()).toBe(held);
      // ...until an outcome on its entry, recorded through B, moves its reputation: A reads it afresh.
      expect(await vote({ kb: b.kb } as unknown as Store, entry.id, 'a_voter9', true, Date.now())).toBe('new');
      await within(read, (i) => (i?.rep ?? 0) >= 1000, PROMPT);

      // B purges it: its token no longer resolves on A.
      await b.admin.purgeRoots(
        [id],
        (x) => `p_${x}`,
        () => [],
      );
      await within(read, (i) => i === null, PROMPT);
    });

    it("a topic with no subscription is asked once; the other replica's new subscription on it is seen when told", async () => {
      const topic = `zz.memo.${process.pid}`;
      const { id: owner } = await someone();
      expect(await a.swarm.onTopic(topic)).toEqual([]);
      const sent = sqlA.counts().statements;
      for (let i = 0; i < 5; i++) expect(await a.swarm.onTopic(topic)).toEqual([]);
      expect(sqlA.counts().statements).toBe(sent);
      const sub = {
        id: newId('u', 9),
        owner,
        topic,
        sink: 'mb:me',
        target: null,
        filter: null,
        mode: 'each' as const,
        hopMax: 3,
        creditsDay: 0,
        expires: Date.now() + 3_600_000,
        created: Date.now(),
        cursor: 0,
      };
      expect(await b.swarm.create(sub, 10)).toBe('ok');
      const took = await within(
        () => a.swarm.onTopic(topic),
        (rows) => rows.some((r) => r.id === sub.id),
        PROMPT,
      );
      console.log(`${engine.name}: another replica's new subscription seen after ${took} ms`);
      // A topic with subscriptions is read every time (their cursors and due times move).
      const again = sqlA.counts().statements;
      await a.swarm.onTopic(topic);
      expect(sqlA.counts().statements).toBe(again + 1);
    });
  });
