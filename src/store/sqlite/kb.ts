// SQLite implementation of the KB port: entries, libraries, votes, FTS5 search, demand.
import type { Digest, KbHit, KbRepo, NewEntry, OutcomeNote, OutcomeResult, Resign, StaleSig, Wanted } from '../../core/kb/ports.js';
import type { OutcomeKind, OutcomeRow, OutcomeWrite, TallyFn } from '../../core/kb/outcomes.js';
import type { Background } from './background.js';
import { ftsQuery, retrievalTerms } from '../shared.js';
import { LIMIT, type Db } from './db.js';
import { kbSearch } from './kb-search.js';
import { bestBy, COLS, toEntry, toKbHit, type HitRow, type Row } from './kb-rows.js';
import { Memo } from '../memo.js';

type LibChange = Awaited<ReturnType<KbRepo['byLib']>>[number];

export function sqliteKb(db: Db, bg: Pick<Background, 'countHits'>): KbRepo & { flush(): void; changed(): void } {
  const insEntry = db.prepare(
    `INSERT INTO kb_entries (id, sig, h, ch, sigv, title, fix, eco, cls, tags, author, created, updated) VALUES (@id, @sig, @h, @ch, @sigv, @title, @fix, @eco, @cls, @tags, @author, @created, @created)`,
  );
  const insError = db.prepare('INSERT INTO kb_errors (n, error) VALUES (?, ?)');
  const insLib = db.prepare('INSERT OR REPLACE INTO kb_libs (entry, name, ver) VALUES (?, ?, ?)');
  const insFts = db.prepare('INSERT INTO kb_fts (rowid, title, error, fix, tags) VALUES (?, ?, ?, ?, ?)');
  const selId = db.prepare(`SELECT ${COLS} FROM kb_entries e WHERE e.id = ? AND e.hidden = 0`);
  const selN = db.prepare(`SELECT ${COLS} FROM kb_entries e WHERE e.n = ?`);
  // The best entries of one signature straight off the kb_by_h index, already in rank order. One
  // statement reading only what a lookup prints: about a fifth less per hit at 1M entries than
  // reading the numbers, then each whole entry.
  const bestH = db.prepare(bestBy('kb_entries e', 'e.h'));
  // The same read for the two other ways an error text reaches entries: its coarse signature, and a
  // hash its entries answered to under an earlier ErrSig version (kb_sig_alias).
  const bestCh = db.prepare(bestBy('kb_entries e', 'e.ch'));
  const bestOld = db.prepare(bestBy('kb_sig_alias a JOIN kb_entries e ON e.n = a.n', 'a.h'));
  const stale = db.prepare(
    `SELECT e.id, e.sig, e.title, (SELECT error FROM kb_errors WHERE n = e.n) AS error FROM kb_entries e WHERE e.sigv < ? ORDER BY e.n ${LIMIT}`,
  );
  const selResign = db.prepare('SELECT n, h, sigv, title, fix, tags, (SELECT error FROM kb_errors WHERE n = e.n) AS error FROM kb_entries e WHERE id = ?');
  const aliasSeen = db.prepare('SELECT 1 FROM kb_sig_alias WHERE h = ? LIMIT 1').pluck();
  const insAlias = db.prepare('INSERT OR IGNORE INTO kb_sig_alias (h, n, v) VALUES (?, ?, ?)');
  const moveHits = db.prepare(
    `INSERT INTO kb_sig_hits (h, hits) SELECT ?, hits FROM kb_sig_hits WHERE h = ? AND hits > 0 ON CONFLICT(h) DO UPDATE SET hits = kb_sig_hits.hits + excluded.hits`,
  );
  const setSig = db.prepare('UPDATE kb_entries SET sig = ?, h = ?, ch = ?, cls = ?, title = ?, sigv = ? WHERE n = ?');
  const delFts = db.prepare('DELETE FROM kb_fts WHERE rowid = ?');
  // Lookups are counted in memory and handed to the background writer a few times a second, so a
  // read never waits for a write: measured at 1M entries, writing hits on the serving thread
  // halved POST /e throughput and pushed p99 from 27 ms to 455 ms.
  let pending = new Map<string, number>();
  const flush = () => {
    try {
      flushWants();
    } catch {
      /* busy: the next tick writes them */
    }
    if (!pending.size) return;
    bg.countHits(pending);
    pending = new Map();
  };
  const timer = setInterval(flush, 200);
  timer.unref();
  // Outcomes (src/core/kb/outcomes.ts): one per identity and entry; the entry's figures and its
  // author's reputation are written from a tally of all its outcomes in the same transaction.
  const selOutcome = db.prepare('SELECT kind, note, evidence FROM kb_outcomes WHERE entry = ? AND voter = ?');
  const putOutcome = db.prepare(
    `INSERT INTO kb_outcomes (entry, voter, kind, note, evidence, net, root, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(entry, voter) DO UPDATE SET kind = excluded.kind, note = excluded.note, evidence = excluded.evidence, net = excluded.net, root = excluded.root, created = excluded.created`,
  );
  const outcomesOf = db.prepare(
    'SELECT o.voter, o.kind, o.net, o.root, i.created, i.rep, i.confirmed, i.frozen FROM kb_outcomes o LEFT JOIN identities i ON i.id = o.voter WHERE o.entry = ?',
  );
  const selFigures = db.prepare('SELECT disputed, disputed_at, rep_given FROM kb_entries WHERE n = ?');
  const setFigures = db.prepare(
    `UPDATE kb_entries SET confirms = ?, fails = ?, changes = ?, w_worked = ?, w_changes = ?, w_failed = ?, principals = ?, disputed = ?, disputed_at = ?, rep_given = ?, updated = ? WHERE n = ?`,
  );
  // Rep moves by what the entry's weighted outcomes give (floored at 0); confirmed = the author's
  // visible entries with weighted worked that are not disputed.
  const rep = db.prepare(
    `UPDATE identities SET rep = max(0, rep + ?),
       confirmed = (SELECT count(*) FROM kb_entries WHERE author = identities.id AND w_worked + w_changes > 0 AND disputed = 0 AND hidden = 0)
     WHERE id = ?`,
  );
  const notesOf = db.prepare(
    `SELECT o.note, o.evidence, o.created AS at FROM kb_outcomes o JOIN kb_entries e ON e.n = o.entry
     WHERE e.id = ? AND e.hidden = 0 AND o.kind = ? AND (o.note <> '' OR o.evidence IS NOT NULL) ORDER BY o.created DESC, o.voter ${LIMIT}`,
  );
  const disputes = db.prepare(
    `SELECT ${COLS} FROM kb_entries e WHERE e.disputed = 1 AND e.hidden = 0 AND e.disputed_at >= ? ORDER BY e.disputed_at DESC, e.n DESC ${LIMIT}`,
  );
  // Every write that can change what reads return moves the generation on; memoized reads of an
  // older one are recomputed. Library changes and digests are asked for on every brief.
  let gen = 0;
  const changed = () => void gen++;
  const search = kbSearch(db, { gen: () => gen });
  const libMemo = new Memo<LibChange[]>({ ttlMs: 60_000, max: 5000, gen: () => gen });
  const digestMemo = new Memo<Digest[]>({ ttlMs: 60_000, max: 5000, gen: () => gen });
  // The answers of a signature (fine, coarse or earlier-version hash) until the KB changes: agents
  // hit the same errors again and again, and a hot one then costs no page reads. Empty answers are
  // kept apart, 1,024 of them, so that random hashes push out only each other: a miss asked again
  // (a brief's words, one new error many agents hit) then costs no cold page either. At most
  // ~4096 x 5 hits of ~1 KB. Only signatures asked twice are kept (`second`, see Memo): most of a
  // million signatures are asked once, and keeping those cost more than it saved.
  const sigMemo = new Memo<KbHit[]>({ ttlMs: 60_000, max: 4096, gen: () => gen, keep: (v) => v.length > 0, apart: 1024, second: 1 << 16, freeze: true });
  const month = db.prepare(`SELECT ${COLS} FROM kb_entries e WHERE e.hidden = 0 AND e.created >= ? AND e.created < ? ORDER BY e.created DESC ${LIMIT}`);
  const prevM = db.prepare('SELECT max(created) AS t FROM kb_entries WHERE hidden = 0 AND created < ?');
  const nextM = db.prepare('SELECT min(created) AS t FROM kb_entries WHERE hidden = 0 AND created >= ?');
  const eco = db.prepare(`SELECT ${COLS} FROM kb_entries e WHERE e.eco = ? AND e.hidden = 0 ORDER BY e.created DESC ${LIMIT}`);
  const ecoN = db.prepare('SELECT count(*) AS n FROM kb_entries WHERE eco = ? AND hidden = 0');
  const clsRows = db.prepare(`SELECT ${COLS} FROM kb_entries e WHERE e.cls = ? AND e.hidden = 0 ORDER BY e.created DESC ${LIMIT}`);
  const clsN = db.prepare('SELECT count(*) AS n FROM kb_entries WHERE cls = ? AND hidden = 0');
  const clsLibs = db.prepare(
    `SELECT l.name, count(*) AS n FROM kb_entries e JOIN kb_libs l ON l.entry = e.n WHERE e.cls = ? AND e.hidden = 0
       GROUP BY l.name ORDER BY n DESC, l.name LIMIT 20`,
  );
  // Newest first by entry number (entries are numbered as they are published), so the newest few
  // come straight off kb_libs_by_name; ordering by created joined every entry of a popular library.
  // Only what a brief's changes lines show: the entry's other columns and its other libraries
  // would cost a subquery each per row (measured 183 us against about 90 us per call at 1M entries).
  const lib = db.prepare(
    `SELECT e.id, e.title, l.ver FROM kb_libs l JOIN kb_entries e ON e.n = l.entry WHERE l.name = ? AND e.hidden = 0 ORDER BY l.entry DESC ${LIMIT}`,
  );
  // Feeds: newest first by entry number. A tag is found through the FTS index's tags column (its
  // tokens), then checked whole against the stored tags (a tag such as node.js is two tokens).
  const recentAll = db.prepare(`SELECT ${COLS} FROM kb_entries e WHERE e.hidden = 0 AND e.created >= ? ORDER BY e.created DESC, e.n DESC ${LIMIT}`);
  const recentBy = db.prepare(`SELECT ${COLS} FROM kb_entries e WHERE e.author = ? AND e.hidden = 0 AND e.created >= ? ORDER BY e.n DESC ${LIMIT}`);
  const recentTag = db.prepare(
    `SELECT ${COLS} FROM kb_fts f JOIN kb_entries e ON e.n = f.rowid
     WHERE kb_fts MATCH ? AND e.hidden = 0 AND e.created >= ? AND instr(' ' || e.tags || ' ', ' ' || ? || ' ') > 0
       AND (? IS NULL OR e.author = ?) ORDER BY f.rowid DESC ${LIMIT}`,
  );
  const releases = db.prepare(
    `WITH top AS (SELECT l.name, count(*) AS c FROM kb_libs l JOIN kb_entries e ON e.n = l.entry WHERE e.hidden = 0 AND l.ver <> '*' GROUP BY l.name ORDER BY c DESC ${LIMIT})
     SELECT l.name AS lib, l.ver AS ver, max(e.created) AS date FROM kb_libs l JOIN kb_entries e ON e.n = l.entry JOIN top ON top.name = l.name
     WHERE e.hidden = 0 AND e.confirms > 0 AND l.ver <> '*' GROUP BY l.name, l.ver ORDER BY date DESC, lib ${LIMIT}`,
  );
  const want = db.prepare(
    `INSERT INTO kb_wanted (h, sig, libs, misses, first, last) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(h) DO UPDATE SET misses = misses + excluded.misses, last = excluded.last, sig = coalesce(kb_wanted.sig, excluded.sig),
       libs = CASE WHEN excluded.libs <> '' THEN excluded.libs ELSE kb_wanted.libs END`,
  );
  // Misses are recorded in memory and written together, in one transaction, every 200 ms and
  // before any read of kb_wanted here (so reads see every miss): one upsert with its own commit
  // cost a miss about 45 µs of the serving thread at 1M entries. Merged as the upserts would have
  // merged them (first signature given, last time, last libraries given). A crash loses at most
  // 200 ms of demand (statistics); past WANTS_MAX distinct signatures waiting they are written at once.
  type PendingWant = { sig: string | null; libs: string; misses: number; first: number; last: number };
  const WANTS_MAX = 10_000;
  let wants = new Map<string, PendingWant>();
  const writeWants = db.transaction((rows: Array<[string, PendingWant]>) => {
    for (const [h, w] of rows) want.run(h, w.sig, w.libs, w.misses, w.first, w.last);
  });
  const flushWants = () => {
    if (!wants.size) return;
    writeWants([...wants]); // a throw (busy) keeps them for the next try
    wants = new Map();
  };
  const wanted = db.prepare(`SELECT * FROM kb_wanted ORDER BY last DESC ${LIMIT}`);
  const wantedOld = db.prepare('DELETE FROM kb_wanted WHERE last < ?');
  // Past the cap, the least recently asked go: everything older than the keep-th newest `last`.
  const wantedOver = db.prepare(`DELETE FROM kb_wanted WHERE last < (SELECT last FROM kb_wanted ORDER BY last DESC LIMIT 1 OFFSET CAST(? AS INTEGER))`);
  const count = db.prepare('SELECT count(*) AS n FROM kb_entries WHERE hidden = 0');
  const pageAfter = db.prepare(`SELECT ${COLS} FROM kb_entries e WHERE e.n > ? AND e.hidden = 0 ORDER BY e.n ${LIMIT}`);
  const WORKED = "v.kind IN ('worked', 'worked-with-changes')";
  const confirmedSince = db.prepare(
    `SELECT count(DISTINCT v.entry) AS n FROM kb_outcomes v JOIN kb_entries e ON e.n = v.entry WHERE ${WORKED} AND v.created >= ? AND e.hidden = 0`,
  );
  const latestConfirmed = db.prepare(
    `SELECT ${COLS}, max(v.created) AS confirmed_at FROM kb_outcomes v JOIN kb_entries e ON e.n = v.entry WHERE ${WORKED} AND e.hidden = 0 GROUP BY v.entry ORDER BY confirmed_at DESC, e.n DESC ${LIMIT}`,
  );
  const countByAuthor = db.prepare('SELECT count(*) AS n FROM kb_entries WHERE author = ? AND hidden = 0');
  const putDigest = db.prepare(
    `INSERT INTO kb_digests (lib, ver, topic, author, lines, score, created) VALUES (@lib, @ver, @topic, @author, @lines, @score, @created)
     ON CONFLICT(lib, ver, topic, author) DO UPDATE SET lines = excluded.lines, created = excluded.created`,
  );
  // Most libraries have no digest: a plain index probe answers those without the window query's sorters.
  const hasDigests = db.prepare('SELECT 1 FROM kb_digests WHERE lib = ? LIMIT 1').pluck();
  // Best per (ver, topic): window over score then recency.
  const digestsOf = db.prepare(
    `SELECT lib, ver, topic, author, lines, score, created FROM (
       SELECT *, row_number() OVER (PARTITION BY ver, topic ORDER BY score DESC, created DESC) AS k FROM kb_digests WHERE lib = ?)
     WHERE k = 1 ORDER BY created DESC ${LIMIT}`,
  );
  const bestDigest = db.prepare(
    'SELECT lib, ver, topic, author, lines, score, created FROM kb_digests WHERE lib = ? AND ver = ? AND topic = ? ORDER BY score DESC, created DESC LIMIT 1',
  );

  // Notices hide and remove entries (src/core/gov); libraries, votes and errors go by cascade.
  const setHiddenSt = db.prepare('UPDATE kb_entries SET hidden = ? WHERE id = ?');
  const selNOf = db.prepare('SELECT n FROM kb_entries WHERE id = ?').pluck();
  const delEntry = db.prepare('DELETE FROM kb_entries WHERE n = ?');
  const delSigned = db.prepare('DELETE FROM kb_signed_confirms WHERE entry = ?');
  const removeTx = db.transaction((id: string): boolean => {
    const n = selNOf.get(id) as number | undefined;
    if (n === undefined) return false;
    delFts.run(n);
    delSigned.run(id);
    delEntry.run(n);
    return true;
  });
  const insertOne = (e: NewEntry): number => {
    const n = Number(insEntry.run({ ...e, ch: e.ch ?? '', sigv: e.sigv ?? 0, tags: e.tags.join(' ') }).lastInsertRowid);
    insError.run(n, e.error);
    for (const l of e.libs) insLib.run(n, l.name, l.ver);
    insFts.run(n, e.title, e.error, e.fix, e.tags.join(' '));
    return n;
  };
  const insertTx = db.transaction((e: NewEntry) => insertOne(e));
  const insertManyTx = db.transaction((rows: NewEntry[]) => {
    for (const r of rows) insertOne(r);
    return rows.length;
  });
  const resignTx = db.transaction((rows: Resign[], version: number): number => {
    let done = 0;
    for (const r of rows) {
      const cur = selResign.get(r.id) as { n: number; h: string; sigv: number; title: string; fix: string; tags: string; error: string } | undefined;
      if (!cur) continue;
      if (cur.h !== r.h) {
        // The first entry of an old signature to move takes its lookup count along (entries of one
        // signature share it; signatures that v2 merges add up).
        if (!aliasSeen.get(cur.h)) moveHits.run(r.h, cur.h);
        insAlias.run(cur.h, cur.n, cur.sigv);
      }
      setSig.run(r.sig, r.h, r.ch, r.cls, r.title, version, cur.n);
      if (r.title !== cur.title) {
        delFts.run(cur.n);
        insFts.run(cur.n, r.title, cur.error, cur.fix, cur.tags);
      }
      done++;
    }
    return done;
  });
  const outcomeTx = db.transaction((o: OutcomeWrite, tallyOf: TallyFn): OutcomeResult | null => {
    const e = selId.get(o.entry) as Row | undefined;
    if (!e) return null;
    if (e.author === o.voter) return { result: 'own', prev: null };
    const prev = selOutcome.get(e.n, o.voter) as { kind: OutcomeKind; note: string; evidence: string | null } | undefined;
    const evidence = o.evidence ? JSON.stringify(o.evidence) : null;
    if (prev && prev.kind === o.kind && (o.keep || (prev.note === o.note && prev.evidence === evidence))) return { result: 'same', prev: prev.kind };
    putOutcome.run(e.n, o.voter, o.kind, o.note, evidence, o.net, o.root, o.at);
    const rows = (
      outcomesOf.all(e.n) as Array<{
        voter: string;
        kind: OutcomeKind;
        net: string;
        root: string;
        created: number | null;
        rep: number;
        confirmed: number;
        frozen: number;
      }>
    ).map(
      (r): OutcomeRow => ({
        voter: r.voter,
        kind: r.kind,
        net: r.net,
        root: r.root,
        who: r.created === null ? null : { created: r.created, rep: r.rep, confirmed: r.confirmed, frozen: r.frozen === 1 },
      }),
    );
    const { tally: t, rep: given } = tallyOf(rows, o.at);
    const before = selFigures.get(e.n) as { disputed: number; disputed_at: number; rep_given: number };
    const disputedAt = t.disputed ? (before.disputed === 1 ? before.disputed_at : o.at) : 0;
    setFigures.run(
      t.worked + t.changes,
      t.failed,
      t.changes,
      t.w_worked,
      t.w_changes,
      t.w_failed,
      t.principals,
      t.disputed ? 1 : 0,
      disputedAt,
      given,
      o.at,
      e.n,
    );
    rep.run(given - before.rep_given, e.author);
    return { result: prev ? 'changed' : 'new', prev: prev?.kind ?? null };
  });

  return {
    async insert(e) {
      changed();
      try {
        return toEntry(selN.get(insertTx(e)) as Row);
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && String(err).includes('kb_entries.id')) return null;
        throw err;
      }
    },
    async byId(id) {
      const r = selId.get(id) as Row | undefined;
      return r ? toEntry(r) : null;
    },
    flush() {
      clearInterval(timer);
      flush();
    },
    /** Another repository changed KB rows (a purge): memoized reads start afresh. */
    changed,
    async byHash(h, limit, hit) {
      const rows = sigMemo.get(`h\0${limit}\0${h}`, Date.now(), () => (bestH.all(h, limit) as HitRow[]).map(toKbHit));
      // Only lookups that find entries are hits; misses are demand (kb_wanted), or every random
      // hash asked for would add a row of counts.
      if (hit && rows.length) pending.set(h, (pending.get(h) ?? 0) + 1);
      return rows;
    },
    async byCoarse(ch, limit) {
      return ch ? sigMemo.get(`c\0${limit}\0${ch}`, Date.now(), () => (bestCh.all(ch, limit) as HitRow[]).map(toKbHit)) : [];
    },
    async byOldHash(h, limit) {
      return sigMemo.get(`o\0${limit}\0${h}`, Date.now(), () => (bestOld.all(h, limit) as HitRow[]).map(toKbHit));
    },
    async staleSigs(version, limit) {
      return stale.all(version, limit) as StaleSig[];
    },
    async resign(rows, version) {
      changed();
      return resignTx(rows, version);
    },
    async outcome(o, tallyOf) {
      changed();
      return outcomeTx(o, tallyOf);
    },
    async outcomeNotes(id, kind, limit) {
      return (notesOf.all(id, kind, limit) as Array<{ note: string; evidence: string | null; at: number }>).map(
        (r): OutcomeNote => ({ note: r.note, evidence: r.evidence ? JSON.parse(r.evidence) : null, at: r.at }),
      );
    },
    async disputes(since, limit) {
      return (disputes.all(since, limit) as Row[]).map(toEntry);
    },
    async search(q, limit) {
      const m = ftsQuery(q);
      return m ? search.run(m, limit) : [];
    },
    async retrieve(words, limit) {
      const terms = retrievalTerms(words);
      return terms.length ? search.any(terms, limit) : [];
    },
    async byMonth(from, to, limit) {
      return (month.all(from, to, limit) as Row[]).map(toEntry);
    },
    async monthNeighbours(from, to) {
      const p = (prevM.get(from) as { t: number | null }).t;
      const n = (nextM.get(to) as { t: number | null }).t;
      return { prev: p, next: n };
    },
    async byEco(name, limit) {
      return { rows: (eco.all(name, limit) as Row[]).map(toEntry), count: (ecoN.get(name) as { n: number }).n };
    },
    async byClass(cls, limit) {
      return {
        rows: (clsRows.all(cls, limit) as Row[]).map(toEntry),
        count: (clsN.get(cls) as { n: number }).n,
        libs: clsLibs.all(cls) as Array<{ name: string; n: number }>,
      };
    },
    async recent(f, since, limit) {
      if (f.tag !== undefined) {
        const terms = f.tag.toLowerCase().match(/[\p{L}\p{N}_]+/gu);
        if (!terms) return [];
        const by = f.author ?? null;
        return (recentTag.all(`tags : ${terms.map((t) => `"${t}"`).join(' ')}`, since, f.tag, by, by, limit) as Row[]).map(toEntry);
      }
      return ((f.author !== undefined ? recentBy.all(f.author, since, limit) : recentAll.all(since, limit)) as Row[]).map(toEntry);
    },
    async byLib(name, limit) {
      return libMemo.get(`${limit}\0${name}`, Date.now(), () => lib.all(name, limit) as LibChange[]);
    },
    async releases(topLibs, rows) {
      return releases.all(topLibs, rows) as Array<{ date: number; lib: string; ver: string }>;
    },
    async want(h, sig, libs, now) {
      const w = wants.get(h);
      if (w) {
        w.misses++;
        w.last = now;
        w.sig ??= sig;
        if (libs) w.libs = libs;
        return;
      }
      if (wants.size >= WANTS_MAX) flushWants();
      wants.set(h, { sig, libs, misses: 1, first: now, last: now });
    },
    async wanted(limit) {
      flushWants();
      return wanted.all(limit) as Wanted[];
    },
    async pruneWanted(before, keep) {
      flushWants();
      return Number(wantedOld.run(before).changes) + Number(wantedOver.run(Math.max(0, keep - 1)).changes);
    },
    async count() {
      return (count.get() as { n: number }).n;
    },
    async confirmedSince(since) {
      return (confirmedSince.get(since) as { n: number }).n;
    },
    async latestConfirmed(limit) {
      return (latestConfirmed.all(limit) as Array<Row & { confirmed_at: number }>).map((r) => ({ ...toEntry(r), confirmed_at: r.confirmed_at }));
    },
    async countByAuthor(author) {
      return (countByAuthor.get(author) as { n: number }).n;
    },
    async putDigest(d) {
      changed();
      putDigest.run(d);
    },
    async digestsOf(lib, limit) {
      return digestMemo.get(`${limit}\0${lib}`, Date.now(), () => (hasDigests.get(lib) ? (digestsOf.all(lib, limit) as Digest[]) : []));
    },
    async bestDigest(lib, ver, topic) {
      return (bestDigest.get(lib, ver, topic) as Digest | undefined) ?? null;
    },
    async insertMany(rows) {
      changed();
      return insertManyTx(rows);
    },
    async pageAfter(after, limit) {
      return (pageAfter.all(after, limit) as Row[]).map(toEntry);
    },
    async setHidden(id, hidden) {
      changed();
      return setHiddenSt.run(hidden ? 1 : 0, id).changes === 1;
    },
    async remove(id) {
      changed();
      return removeTx(id);
    },
  };
}
