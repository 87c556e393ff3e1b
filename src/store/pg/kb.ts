// The knowledge base on PostgreSQL (port: src/core/kb/ports.ts), the SQLite adapter's design
// (src/store/sqlite/kb.ts) on migrations 003/012: error texts and the search vectors in side
// tables so lookups read narrow rows, lookups counted per signature, free text through a tsvector
// GIN index (fts.ts). Lookups are counted in memory per signature and written every `kb.hits_flush`
// (5 s) in one statement (and on close), so a lookup never waits for a write and the rows written
// are bounded by the distinct signatures looked up in that time, not by lookups (issue 38); other
// replicas' counts are summed into the same rows. A replica killed with SIGKILL loses at most the
// counts of its last flush period (statistics).
// Hot reads are memoized as on SQLite (src/store/memo.ts: the same keys, options and frozen
// answers): a signature's entries (fine, coarse, earlier-version hash), searches, library changes
// and digests. They are kept until the KB's generation moves (kb-gen.ts: this replica's KB writes
// once committed, and the other replicas' as soon as their NOTIFY arrives) or kb.memo_ttl passes
// (the bound when a notification is lost). A hot lookup then costs no statement.
// `reading(rq)` is the same repository with its read methods on `rq` (a read standby's,
// standby.ts), with memos of their own on the standby's generation; its writes, lookup counts and
// wanted records stay on the primary.
import type { Digest, KbEntry, KbHit, KbRepo, Lib, NewEntry, OutcomeResult, StaleSig, Wanted } from '../../core/kb/ports.js';
import type { Evidence, OutcomeKind, OutcomeRow } from '../../core/kb/outcomes.js';
import { anyTerms, ftsWords, tsQuery } from './fts.js';
import { DfMemo, RARE_DF, rareTerms } from '../shared.js';
import { Memo } from '../memo.js';
import { limit } from '../../core/kernel/limits.js';
import { kbGen, type KbGen } from './kb-gen.js';
import type { Q, Sql } from './sql.js';

export interface Row extends Omit<KbEntry, 'libs'> {
  libs: string | null;
}
interface HitRow extends Omit<KbHit, 'libs'> {
  libs: string | null;
}

const HITS = '(SELECT hits FROM kb_sig_hits WHERE h = e.h)';
const LIBS = "(SELECT string_agg(name || '@' || ver, ' ' ORDER BY name) FROM kb_libs WHERE entry = e.n)";
/** The outcome figures of an entry (src/core/kb/outcomes.ts), read with every entry and hit. */
const FIGURES = 'e.changes, e.w_worked, e.w_changes, e.w_failed, e.principals, e.disputed';
export const COLS = `e.n, e.id, e.sig, e.h, e.ch, e.title, (SELECT error FROM kb_errors WHERE n = e.n) AS error, e.fix, e.eco, e.cls, e.tags, e.author, e.created, e.updated, e.confirms, e.fails,
  coalesce(${HITS}, 0)::int8 AS hits, ${LIBS} AS libs, ${FIGURES}, e.disputed_at`;
const HIT_COLS = `e.id, e.title, e.fix, e.confirms, e.fails, ${LIBS} AS libs, e.sig, e.eco, ${FIGURES}`;
// Best first: undisputed before disputed, then confirmations outweigh failures, then demand, then recency.
const RANK = `e.disputed, (e.confirms * 3 - e.fails * 2) DESC, ${HITS} DESC NULLS LAST, e.created DESC`;
/** The rank within one signature (its entries share the hits): straight off kb_by_h / kb_by_ch. */
const SIG_RANK = 'e.disputed, (e.confirms * 3 - e.fails * 2) DESC, e.created DESC';
/** Newest matches ranked by a search (SQLite: the same bound on its FTS walk). */
const CANDIDATES = 200;

function parseLibs(s: string | null): Lib[] {
  if (!s) return [];
  return s.split(' ').map((x) => {
    const at = x.lastIndexOf('@');
    return { name: x.slice(0, at), ver: x.slice(at + 1) };
  });
}
export const toEntry = (r: Row): KbEntry => ({ ...r, libs: parseLibs(r.libs) });
const toHit = (r: HitRow): KbHit => ({ ...r, libs: parseLibs(r.libs) });

/** What a repository and its `reading` twins share: lookup counts and their flush, term frequencies, the generation. */
interface KbShared {
  dfs: DfMemo;
  pending: Map<string, number>;
  gen: KbGen;
  /** Identities whose reputation an outcome moved, once committed (the token memo drops them). */
  identChanged: (ids: readonly string[]) => void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function kbShared(sql: Sql, identChanged: (ids: readonly string[]) => void = () => {}): KbShared {
  // Lookup counts waiting to be written, by signature hash.
  const pending = new Map<string, number>();
  let writing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    if (!pending.size) return writing;
    // Hashes in order: two replicas writing the same signatures lock their rows in one order.
    const batch = [...pending].sort(([a], [b]) => (a < b ? -1 : 1));
    pending.clear();
    writing = writing.then(() =>
      sql
        .query(
          `INSERT INTO kb_sig_hits AS k (h, hits) SELECT * FROM unnest($1::text[], $2::int8[])
           ON CONFLICT (h) DO UPDATE SET hits = k.hits + excluded.hits`,
          [batch.map(([h]) => h), batch.map(([, n]) => n)],
        )
        .then(
          () => undefined,
          () => undefined, // statistics: a failed batch is dropped, the next one is written
        ),
    );
    return writing;
  };
  const timer = setInterval(() => void flush(), limit('kb.hits_flush') * 1000);
  timer.unref();
  const gen = kbGen(sql);
  return {
    dfs: new DfMemo(),
    pending,
    gen,
    identChanged,
    flush,
    close: () => {
      clearInterval(timer);
      return gen.close();
    },
  };
}

export type PgKb = KbRepo & {
  flush(): Promise<void>;
  /** LISTENs for the other replicas' KB writes (store open). */
  start(): Promise<void>;
  close(): Promise<void>;
  /** KB rows changed outside this repository (a purge, committed): memoized reads start afresh, here and on the other replicas. */
  changed(): void;
  reading(rq: Sql): KbRepo;
};

type LibChange = Awaited<ReturnType<KbRepo['byLib']>>[number];

/** The KB on `sql`; `rq` serves the read methods (default `sql`), a standby's when `standby`. */
export function pgKb(sql: Sql, rq: Sql = sql, shared: KbShared = kbShared(sql), standby = false): PgKb {
  const { dfs, pending, flush } = shared;
  // The memos of src/store/sqlite/kb.ts and kb-search.ts, same keys and options; the TTL is
  // kb.memo_ttl (the bound on a lost notification, kb-gen.ts) instead of 60 s.
  const gen = standby ? shared.gen.standby : shared.gen.primary;
  const ttlMs = limit('kb.memo_ttl');
  const sigMemo = new Memo<KbHit[]>({ ttlMs, max: 4096, gen, keep: (v) => v.length > 0, apart: 1024, second: 1 << 16, freeze: true });
  const searchMemo = new Memo<KbHit[]>({ ttlMs, max: 2000, gen });
  const libMemo = new Memo<LibChange[]>({ ttlMs, max: 5000, gen });
  const digestMemo = new Memo<Digest[]>({ ttlMs, max: 5000, gen });
  // Whole entries by id (the answer path reads each candidate's error text): kept from the second
  // read, frozen, on the same generation (bench:scale 2026-11-28: 0.49 statements per POST /e hit).
  const idMemo = new Memo<readonly KbEntry[]>({ ttlMs, max: 4096, gen, keep: (v) => v.length > 0, second: 1 << 16, freeze: true });
  /** A write's promise: the generation moves once it has ended (committed, or maybe committed). */
  const wrote = async <T>(p: Promise<T>): Promise<T> => {
    try {
      return await p;
    } finally {
      shared.gen.changed();
    }
  };
  const entries = async (text: string, params: unknown[]) => (await rq.query<Row>(text, params)).rows.map(toEntry);
  const hits = async (text: string, params: unknown[]) => (await rq.query<HitRow>(text, params)).rows.map(toHit);
  const num = async (text: string, params: unknown[]) => (await rq.query<{ n: number }>(text, params)).rows[0]!.n;

  const insertOne = async (q: Q, e: NewEntry): Promise<number | null> => {
    const n = (
      await q.query<{ n: number }>(
        `INSERT INTO kb_entries (id, sig, h, ch, sigv, title, fix, eco, cls, tags, author, created, updated)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) ON CONFLICT (id) DO NOTHING RETURNING n`,
        [e.id, e.sig, e.h, e.ch ?? '', e.sigv ?? 0, e.title, e.fix, e.eco, e.cls, e.tags, e.author, e.created],
      )
    ).rows[0]?.n;
    if (n === undefined) return null;
    await q.query('INSERT INTO kb_errors (n, error) VALUES ($1, $2)', [n, e.error]);
    for (const l of e.libs)
      await q.query('INSERT INTO kb_libs (entry, name, ver) VALUES ($1, $2, $3) ON CONFLICT (entry, name) DO UPDATE SET ver = excluded.ver', [
        n,
        l.name,
        l.ver,
      ]);
    await q.query('INSERT INTO kb_search (n, fts) VALUES ($1, array_to_tsvector($2::text[]))', [n, ftsWords(e.title, e.error, e.fix, ...e.tags)]);
    return n;
  };

  return {
    flush,
    async insert(e) {
      const n = await wrote(sql.tx((q) => insertOne(q, e)));
      // Read back on the primary: the row was just written there.
      return n === null ? null : (await sql.query<Row>(`SELECT ${COLS} FROM kb_entries e WHERE e.n = $1`, [n])).rows.map(toEntry)[0]!;
    },
    async byId(id) {
      const got = await idMemo.getAsync(id, Date.now(), async () =>
        (await entries(`SELECT ${COLS} FROM kb_entries e WHERE e.id = $1 AND NOT e.hidden`, [id])).map((e) => Object.freeze(e)),
      );
      return got[0] ?? null;
    },
    async byHash(h, limit, hit) {
      const rows = await sigMemo.getAsync(`h\0${limit}\0${h}`, Date.now(), () =>
        hits(`SELECT ${HIT_COLS} FROM kb_entries e WHERE e.h = $1 AND NOT e.hidden ORDER BY ${SIG_RANK} LIMIT $2`, [h, limit]),
      );
      // Only lookups that find entries are hits; misses are demand (kb_wanted).
      if (hit && rows.length) pending.set(h, (pending.get(h) ?? 0) + 1);
      return rows;
    },
    async byCoarse(ch, limit) {
      return ch
        ? sigMemo.getAsync(`c\0${limit}\0${ch}`, Date.now(), () =>
            hits(`SELECT ${HIT_COLS} FROM kb_entries e WHERE e.ch = $1 AND NOT e.hidden ORDER BY ${SIG_RANK} LIMIT $2`, [ch, limit]),
          )
        : [];
    },
    async byOldHash(h, limit) {
      return sigMemo.getAsync(`o\0${limit}\0${h}`, Date.now(), () =>
        hits(`SELECT ${HIT_COLS} FROM kb_sig_alias a JOIN kb_entries e ON e.n = a.n WHERE a.h = $1 AND NOT e.hidden ORDER BY ${SIG_RANK} LIMIT $2`, [h, limit]),
      );
    },
    async staleSigs(version, limit) {
      return (
        await sql.query<StaleSig>(
          'SELECT e.id, e.sig, e.title, (SELECT error FROM kb_errors WHERE n = e.n) AS error FROM kb_entries e WHERE e.sigv < $1 ORDER BY e.n LIMIT $2',
          [version, limit],
        )
      ).rows;
    },
    async resign(rows, version) {
      return wrote(
        sql.tx(async (q) => {
          let done = 0;
          for (const r of rows) {
            const cur = (
              await q.query<{ n: number; h: string; sigv: number; title: string; fix: string; tags: string[]; error: string }>(
                'SELECT n, h, sigv, title, fix, tags, (SELECT error FROM kb_errors WHERE n = e.n) AS error FROM kb_entries e WHERE id = $1 FOR UPDATE',
                [r.id],
              )
            ).rows[0];
            if (!cur) continue;
            if (cur.h !== r.h) {
              // The first entry of an old signature to move takes its lookup count along.
              const seen = (await q.query('SELECT 1 FROM kb_sig_alias WHERE h = $1 LIMIT 1', [cur.h])).rows.length > 0;
              if (!seen)
                await q.query(
                  `INSERT INTO kb_sig_hits AS k (h, hits) SELECT $1, hits FROM kb_sig_hits WHERE h = $2 AND hits > 0
                 ON CONFLICT (h) DO UPDATE SET hits = k.hits + excluded.hits`,
                  [r.h, cur.h],
                );
              await q.query('INSERT INTO kb_sig_alias (h, n, v) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [cur.h, cur.n, cur.sigv]);
            }
            await q.query('UPDATE kb_entries SET sig = $1, h = $2, ch = $3, cls = $4, title = $5, sigv = $6 WHERE n = $7', [
              r.sig,
              r.h,
              r.ch,
              r.cls,
              r.title,
              version,
              cur.n,
            ]);
            if (r.title !== cur.title)
              await q.query('UPDATE kb_search SET fts = array_to_tsvector($2::text[]) WHERE n = $1', [
                cur.n,
                ftsWords(r.title, cur.error, cur.fix, ...cur.tags),
              ]);
            done++;
          }
          return done;
        }),
      );
    },
    async outcome(o, tallyOf) {
      // Only an outcome recorded (new or changed) moves the entry's figures, and so the generation.
      let moved = false;
      let author = '';
      const done = sql.tx(async (q): Promise<OutcomeResult | null> => {
        // The entry's row lock orders concurrent outcomes on it (one voter's repeats count once,
        // and each tally sees every outcome committed before it).
        const e = (
          await q.query<{ n: number; author: string; disputed: boolean; disputed_at: number; rep_given: number }>(
            'SELECT n, author, disputed, disputed_at, rep_given FROM kb_entries WHERE id = $1 AND NOT hidden FOR UPDATE',
            [o.entry],
          )
        ).rows[0];
        if (!e) return null;
        if (e.author === o.voter) return { result: 'own', prev: null };
        const prev = (
          await q.query<{ kind: OutcomeKind; note: string; evidence: string | null }>(
            'SELECT kind, note, evidence FROM kb_outcomes WHERE entry = $1 AND voter = $2',
            [e.n, o.voter],
          )
        ).rows[0];
        const evidence = o.evidence ? JSON.stringify(o.evidence) : null;
        if (prev && prev.kind === o.kind && (o.keep || (prev.note === o.note && prev.evidence === evidence))) return { result: 'same', prev: prev.kind };
        await q.query(
          `INSERT INTO kb_outcomes (entry, voter, kind, note, evidence, net, root, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (entry, voter) DO UPDATE SET kind = excluded.kind, note = excluded.note, evidence = excluded.evidence, net = excluded.net, root = excluded.root, created = excluded.created`,
          [e.n, o.voter, o.kind, o.note, evidence, o.net, o.root, o.at],
        );
        const rows = (
          await q.query<{
            voter: string;
            kind: OutcomeKind;
            net: string;
            root: string;
            created: number | null;
            rep: number;
            confirmed: number;
            frozen: boolean;
          }>(
            'SELECT o.voter, o.kind, o.net, o.root, i.created, i.rep, i.confirmed, i.frozen FROM kb_outcomes o LEFT JOIN identities i ON i.id = o.voter WHERE o.entry = $1',
            [e.n],
          )
        ).rows.map(
          (r): OutcomeRow => ({
            voter: r.voter,
            kind: r.kind,
            net: r.net,
            root: r.root,
            who: r.created === null ? null : { created: Number(r.created), rep: r.rep, confirmed: r.confirmed, frozen: r.frozen },
          }),
        );
        const { tally: t, rep: given } = tallyOf(rows, o.at);
        const disputedAt = t.disputed ? (e.disputed ? Number(e.disputed_at) : o.at) : 0;
        await q.query(
          `UPDATE kb_entries SET confirms = $1, fails = $2, changes = $3, w_worked = $4, w_changes = $5, w_failed = $6, principals = $7, disputed = $8, disputed_at = $9, rep_given = $10, updated = $11
           WHERE n = $12`,
          [t.worked + t.changes, t.failed, t.changes, t.w_worked, t.w_changes, t.w_failed, t.principals, t.disputed, disputedAt, given, o.at, e.n],
        );
        // Rep moves by what the entry's weighted outcomes give (floored at 0); confirmed = the
        // author's visible entries with weighted worked that are not disputed.
        await q.query(
          `UPDATE identities SET rep = greatest(0, rep + $1),
             confirmed = (SELECT count(*) FROM kb_entries WHERE author = identities.id AND w_worked + w_changes > 0 AND NOT disputed AND NOT hidden)
           WHERE id = $2`,
          [given - e.rep_given, e.author],
        );
        moved = true;
        author = e.author;
        return { result: prev ? 'changed' : 'new', prev: prev?.kind ?? null };
      });
      return done.finally(() => {
        if (!moved) return;
        shared.gen.changed();
        shared.identChanged([author]);
      });
    },
    async outcomeNotes(id, kind, limit) {
      const rows = (
        await rq.query<{ note: string; evidence: string | null; at: number }>(
          `SELECT o.note, o.evidence, o.created AS at FROM kb_outcomes o JOIN kb_entries e ON e.n = o.entry
           WHERE e.id = $1 AND NOT e.hidden AND o.kind = $2 AND (o.note <> '' OR o.evidence IS NOT NULL) ORDER BY o.created DESC, o.voter LIMIT $3`,
          [id, kind, limit],
        )
      ).rows;
      return rows.map((r) => ({ note: r.note, evidence: r.evidence ? (JSON.parse(r.evidence) as Evidence) : null, at: Number(r.at) }));
    },
    async disputes(since, limit) {
      return entries(
        `SELECT ${COLS} FROM kb_entries e WHERE e.disputed AND NOT e.hidden AND e.disputed_at >= $1 ORDER BY e.disputed_at DESC, e.n DESC LIMIT $2`,
        [since, limit],
      );
    },
    async search(text, limit) {
      const m = tsQuery(text);
      if (!m) return [];
      // The newest matches (bounded, as on SQLite), then ranked.
      return searchMemo.getAsync(`${limit}\0${m}`, Date.now(), () =>
        hits(
          `SELECT ${HIT_COLS} FROM kb_entries e JOIN (
             SELECT s.n FROM kb_search s JOIN kb_entries x ON x.n = s.n WHERE s.fts @@ $1::tsquery AND NOT x.hidden ORDER BY s.n DESC LIMIT ${CANDIDATES}
           ) c ON c.n = e.n ORDER BY ${RANK} LIMIT $2`,
          [m, limit],
        ),
      );
    },
    async retrieve(words, limit) {
      // Only rare terms (RARE_DF, as on SQLite): each term's entries counted up to RARE_DF + 1 once.
      const all = anyTerms(words);
      for (const t of all) {
        if (dfs.get(t) !== undefined) continue;
        const r = await rq.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM kb_search WHERE fts @@ $1::tsquery LIMIT ${RARE_DF + 1}) x`, [
          `'${t}'`,
        ]);
        dfs.set(t, r.rows[0]!.n);
      }
      const rare = rareTerms(all, (t) => dfs.get(t) ?? 0);
      if (!rare.length) return [];
      const m = rare.map((t) => `'${t}'`).join(' | ');
      return searchMemo.getAsync(`any\0${limit}\0${m}`, Date.now(), () =>
        hits(
          `SELECT ${HIT_COLS} FROM kb_entries e JOIN (
             SELECT s.n, ts_rank(s.fts, $1::tsquery) AS r FROM kb_search s WHERE s.fts @@ $1::tsquery ORDER BY r DESC, s.n DESC LIMIT ${CANDIDATES}
           ) c ON c.n = e.n WHERE NOT e.hidden ORDER BY c.r DESC, e.n DESC LIMIT $2`,
          [m, limit],
        ),
      );
    },
    async byMonth(from, to, limit) {
      return entries(`SELECT ${COLS} FROM kb_entries e WHERE NOT e.hidden AND e.created >= $1 AND e.created < $2 ORDER BY e.created DESC LIMIT $3`, [
        from,
        to,
        limit,
      ]);
    },
    async monthNeighbours(from, to) {
      const r = (
        await rq.query<{ prev: number | null; next: number | null }>(
          'SELECT (SELECT max(created) FROM kb_entries WHERE NOT hidden AND created < $1) AS prev, (SELECT min(created) FROM kb_entries WHERE NOT hidden AND created >= $2) AS next',
          [from, to],
        )
      ).rows[0]!;
      return { prev: r.prev, next: r.next };
    },
    async byEco(eco, limit) {
      return {
        rows: await entries(`SELECT ${COLS} FROM kb_entries e WHERE e.eco = $1 AND NOT e.hidden ORDER BY e.created DESC LIMIT $2`, [eco, limit]),
        count: await num('SELECT count(*) AS n FROM kb_entries WHERE eco = $1 AND NOT hidden', [eco]),
      };
    },
    async byClass(cls, limit) {
      return {
        rows: await entries(`SELECT ${COLS} FROM kb_entries e WHERE e.cls = $1 AND NOT e.hidden ORDER BY e.created DESC LIMIT $2`, [cls, limit]),
        count: await num('SELECT count(*) AS n FROM kb_entries WHERE cls = $1 AND NOT hidden', [cls]),
        libs: (
          await rq.query<{ name: string; n: number }>(
            `SELECT l.name, count(*) AS n FROM kb_entries e JOIN kb_libs l ON l.entry = e.n WHERE e.cls = $1 AND NOT e.hidden
             GROUP BY l.name ORDER BY n DESC, l.name LIMIT 20`,
            [cls],
          )
        ).rows,
      };
    },
    async recent(f, since, limit) {
      // A tag is matched whole against the stored tags (node.js is one tag), through their GIN index.
      if (f.tag !== undefined)
        return entries(
          `SELECT ${COLS} FROM kb_entries e WHERE e.tags @> ARRAY[$1::text] AND NOT e.hidden AND e.created >= $2 AND ($3::text IS NULL OR e.author = $3) ORDER BY e.n DESC LIMIT $4`,
          [f.tag, since, f.author ?? null, limit],
        );
      if (f.author !== undefined)
        return entries(`SELECT ${COLS} FROM kb_entries e WHERE e.author = $1 AND NOT e.hidden AND e.created >= $2 ORDER BY e.n DESC LIMIT $3`, [
          f.author,
          since,
          limit,
        ]);
      return entries(`SELECT ${COLS} FROM kb_entries e WHERE NOT e.hidden AND e.created >= $1 ORDER BY e.created DESC, e.n DESC LIMIT $2`, [since, limit]);
    },
    async byLib(name, limit) {
      return libMemo.getAsync(
        `${limit}\0${name}`,
        Date.now(),
        async () =>
          (
            await rq.query<{ id: string; title: string; ver: string }>(
              'SELECT e.id, e.title, l.ver FROM kb_libs l JOIN kb_entries e ON e.n = l.entry WHERE l.name = $1 AND NOT e.hidden ORDER BY l.entry DESC LIMIT $2',
              [name, limit],
            )
          ).rows,
      );
    },
    async releases(topLibs, rows) {
      return (
        await rq.query<{ date: number; lib: string; ver: string }>(
          `WITH top AS (SELECT l.name, count(*) AS c FROM kb_libs l JOIN kb_entries e ON e.n = l.entry WHERE NOT e.hidden AND l.ver <> '*' GROUP BY l.name ORDER BY c DESC LIMIT $1)
           SELECT l.name AS lib, l.ver AS ver, max(e.created) AS date FROM kb_libs l JOIN kb_entries e ON e.n = l.entry JOIN top ON top.name = l.name
           WHERE NOT e.hidden AND e.confirms > 0 AND l.ver <> '*' GROUP BY l.name, l.ver ORDER BY date DESC, lib LIMIT $2`,
          [topLibs, rows],
        )
      ).rows;
    },
    async want(h, sig, libs, now) {
      // least/greatest: concurrent misses on several replicas commit in any order; the times stay right.
      await sql.query(
        `INSERT INTO kb_wanted AS w (h, sig, libs, misses, first, last) VALUES ($1, $2, $3, 1, $4, $4)
         ON CONFLICT (h) DO UPDATE SET misses = w.misses + 1, first = least(w.first, excluded.first), last = greatest(w.last, excluded.last), sig = coalesce(w.sig, excluded.sig),
           libs = CASE WHEN excluded.libs <> '' THEN excluded.libs ELSE w.libs END`,
        [h, sig, libs, now],
      );
    },
    async wanted(limit) {
      return (await rq.query<Wanted>('SELECT h, sig, libs, misses, first, last FROM kb_wanted ORDER BY last DESC LIMIT $1', [limit])).rows;
    },
    async pruneWanted(before, keep) {
      const old = (await sql.query('DELETE FROM kb_wanted WHERE last < $1', [before])).count;
      // Past the cap, the least recently asked go: everything older than the keep-th newest `last`.
      const over = (
        await sql.query('DELETE FROM kb_wanted WHERE last < (SELECT last FROM kb_wanted ORDER BY last DESC LIMIT 1 OFFSET $1)', [Math.max(0, keep - 1)])
      ).count;
      return old + over;
    },
    count: () => num('SELECT count(*) AS n FROM kb_entries WHERE NOT hidden', []),
    confirmedSince: (since) =>
      num(
        `SELECT count(DISTINCT v.entry) AS n FROM kb_outcomes v JOIN kb_entries e ON e.n = v.entry WHERE v.kind IN ('worked', 'worked-with-changes') AND v.created >= $1 AND NOT e.hidden`,
        [since],
      ),
    async latestConfirmed(limit) {
      const rows = (
        await rq.query<Row & { confirmed_at: number }>(
          `SELECT ${COLS}, max(v.created) AS confirmed_at FROM kb_outcomes v JOIN kb_entries e ON e.n = v.entry WHERE v.kind IN ('worked', 'worked-with-changes') AND NOT e.hidden
           GROUP BY e.n ORDER BY confirmed_at DESC, e.n DESC LIMIT $1`,
          [limit],
        )
      ).rows;
      return rows.map((r) => ({ ...toEntry(r), confirmed_at: r.confirmed_at }));
    },
    countByAuthor: (author) => num('SELECT count(*) AS n FROM kb_entries WHERE author = $1 AND NOT hidden', [author]),
    async putDigest(d) {
      await wrote(
        sql.query(
          `INSERT INTO kb_digests (lib, ver, topic, author, lines, score, created) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (lib, ver, topic, author) DO UPDATE SET lines = excluded.lines, created = excluded.created`,
          [d.lib, d.ver, d.topic, d.author, d.lines, d.score, d.created],
        ),
      );
    },
    async digestsOf(lib, limit) {
      return digestMemo.getAsync(
        `${limit}\0${lib}`,
        Date.now(),
        async () =>
          (
            await rq.query<Digest>(
              `SELECT lib, ver, topic, author, lines, score, created FROM (
                 SELECT *, row_number() OVER (PARTITION BY ver, topic ORDER BY score DESC, created DESC) AS k FROM kb_digests WHERE lib = $1) d
               WHERE k = 1 ORDER BY created DESC LIMIT $2`,
              [lib, limit],
            )
          ).rows,
      );
    },
    async bestDigest(lib, ver, topic) {
      return (
        (
          await rq.query<Digest>(
            'SELECT lib, ver, topic, author, lines, score, created FROM kb_digests WHERE lib = $1 AND ver = $2 AND topic = $3 ORDER BY score DESC, created DESC LIMIT 1',
            [lib, ver, topic],
          )
        ).rows[0] ?? null
      );
    },
    async setHidden(id, hidden) {
      return (await wrote(sql.query('UPDATE kb_entries SET hidden = $2 WHERE id = $1', [id, hidden]))).count === 1;
    },
    async remove(id) {
      // Libraries, votes, errors, the search row and aliases go by cascade.
      return wrote(
        sql.tx(async (q) => {
          await q.query('DELETE FROM kb_signed_confirms WHERE entry = $1', [id]);
          return (await q.query('DELETE FROM kb_entries WHERE id = $1', [id])).count === 1;
        }),
      );
    },
    async insertMany(rows) {
      return wrote(
        sql.tx(async (q) => {
          let n = 0;
          for (const r of rows) if ((await insertOne(q, r)) !== null) n++;
          return n;
        }),
      );
    },
    async pageAfter(after, limit) {
      return entries(`SELECT ${COLS} FROM kb_entries e WHERE e.n > $1 AND NOT e.hidden ORDER BY e.n LIMIT $2`, [after, limit]);
    },
    start: () => shared.gen.start(),
    changed: () => shared.gen.changed(),
    // Stops the timers and the listening; the caller awaits `flush()` before closing the connection.
    close: shared.close,
    reading: (r: Sql): KbRepo => pgKb(sql, r, shared, true),
  } as PgKb;
}
