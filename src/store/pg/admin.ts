// Operator state on PostgreSQL (port: src/core/admin/ports.ts; migration 020), as the SQLite adapter
// (src/store/sqlite/admin.ts) keeps it: announcements, marks, ASN policy, content origin, the durable
// inbox, demand rows, tombstones (export_tombstones, migration 018), platform counters and the purge
// of a root. Marks and origins are single conditional statements (ON CONFLICT), so replicas setting
// them at once agree on one change; the inbox copy runs under an advisory lock, so bus events are
// copied once whichever replicas ingest at once. The operator's asn.csv is a file of each replica's
// data directory (`dataDir`; without one no ASN is known), re-read when it changes.
import type { AdminRepo, Announcement, AsnPolicy, InboxEvent, InboxItem, Mark, OriginRow, PlatformCounts, StorageClass } from '../../core/admin/ports.js';
import { AsnTable } from '../files/asn.js';
import { PURGE_DELETE } from '../purge-targets.js';
import { DOMAIN_CLASSES, PLATFORM_COUNTERS } from '../platform-counters.js';
import type { PgEvents } from './events.js';
import { groupWriter } from './group.js';
import type { Q, Sql } from './sql.js';

// What a purge deletes: src/store/purge-targets.ts (both engines); a table or column absent from
// the schema is passed over.

/** Rows copied per round trip of the inbox ingest. */
const INBOX_PAGE = 500;
const DAY = 86_400_000;

/**
 * `kbChanged` is told when a purge has ended (KB entries, outcomes, digests removed): the KB's
 * memoized reads start afresh, on every replica. `identChanged`: identities frozen, thawed or
 * purged, once committed (the token memo, token-memo.ts, drops them on every replica).
 */
export function pgAdmin(
  sql: Sql,
  events: PgEvents,
  dataDir: string | undefined,
  now: () => number,
  kbChanged: () => void = () => {},
  identChanged: (ids: readonly string[]) => void = () => {},
): AdminRepo {
  const asn = dataDir === undefined ? null : new AsnTable(dataDir, now);
  // Origin rows of concurrent writes go in one statement (group.ts); the first of a (kind, ref) stays.
  const origin = groupWriter<OriginRow>(async (rows) => {
    await sql.query(
      `INSERT INTO content_origin (kind, ref, root, net, at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int8[]) ON CONFLICT (kind, ref) DO NOTHING`,
      [rows.map((o) => o.kind), rows.map((o) => o.ref), rows.map((o) => o.root), rows.map((o) => o.net), rows.map((o) => o.at)],
    );
  });
  // The schema's tables and columns (fixed once migrated): read once.
  let schema: Promise<Map<string, Set<string>>> | null = null;
  const columns = () =>
    (schema ??= sql
      .query<{ t: string; c: string }>('SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = current_schema()')
      .then((r) => {
        const m = new Map<string, Set<string>>();
        for (const { t, c } of r.rows) (m.get(t) ?? m.set(t, new Set()).get(t)!).add(c);
        return m;
      })
      .catch((e: unknown) => {
        schema = null;
        throw e;
      }));

  // Inbox: copies bus events of every `inbox.<kind>` topic after the stored cursor.
  async function ingest(q: Q): Promise<number> {
    // One copier at a time across replicas: a second waits, then finds the cursors moved.
    await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.inbox.' || current_schema()))");
    const topics = (
      await q.query<{ topic: string; head: number; last: number }>(
        "SELECT h.topic, h.head, coalesce(c.last, 0)::int8 AS last FROM event_heads h LEFT JOIN inbox_cursors c ON c.topic = h.topic WHERE starts_with(h.topic, 'inbox.') AND h.head > coalesce(c.last, 0)",
      )
    ).rows;
    let n = 0;
    for (const t of topics) {
      const kind = t.topic.slice('inbox.'.length).slice(0, 24);
      let last = t.last;
      for (;;) {
        const rows = (
          await q.query<{ id: number; time: number; payload: unknown }>(
            'SELECT id, time, payload FROM events WHERE topic = $1 AND id > $2 ORDER BY id LIMIT $3',
            [t.topic, last, INBOX_PAGE],
          )
        ).rows;
        for (const r of rows) {
          last = r.id;
          const p = r.payload as InboxEvent | null;
          if (!p || typeof p !== 'object' || typeof p.ref !== 'string' || !p.ref || !kind) continue;
          const str = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : '');
          const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
          await q.query(
            `INSERT INTO inbox_items AS i (kind, ref, scope, title, support_w, groups, url, status, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (kind, ref) DO UPDATE SET scope = CASE WHEN $10 THEN excluded.scope ELSE i.scope END, title = CASE WHEN $11 THEN excluded.title ELSE i.title END,
               support_w = CASE WHEN $12 THEN excluded.support_w ELSE i.support_w END, groups = CASE WHEN $13 THEN excluded.groups ELSE i.groups END,
               url = CASE WHEN $14 THEN excluded.url ELSE i.url END, status = CASE WHEN $15 THEN excluded.status ELSE i.status END`,
            [
              kind,
              p.ref.slice(0, 64),
              str(p.scope, 80),
              str(p.title, 200),
              num(p.support_w),
              Math.trunc(num(p.groups)),
              str(p.url, 300),
              str(p.status, 24) || 'open',
              r.time,
              p.scope !== undefined,
              p.title !== undefined,
              p.support_w !== undefined,
              p.groups !== undefined,
              p.url !== undefined,
              p.status !== undefined,
            ],
          );
          n++;
        }
        if (rows.length < INBOX_PAGE) break;
      }
      // Events pruned before they were copied are gone: the cursor still moves to the head.
      await q.query('INSERT INTO inbox_cursors (topic, last) VALUES ($1, $2) ON CONFLICT (topic) DO UPDATE SET last = excluded.last', [
        t.topic,
        Math.max(last, t.head),
      ]);
    }
    return n;
  }

  return {
    async addAnnouncement(a) {
      const id = (
        await sql.query<{ id: number }>(
          'INSERT INTO announcements (kind, starts, ends, text, line, maint, created) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id',
          [a.kind, a.starts, a.ends, a.text, a.line, a.maint, a.created],
        )
      ).rows[0]!.id;
      return { id, ...a };
    },
    async setAnnouncementLine(id, line) {
      await sql.query('UPDATE announcements SET line = $2 WHERE id = $1', [id, line]);
    },
    async announcements(after, n) {
      return (
        await sql.query<Announcement>(
          'SELECT id, kind, starts, ends, text, line, maint, created FROM announcements WHERE ends > $1 ORDER BY id DESC LIMIT $2',
          [after ?? -1, n],
        )
      ).rows;
    },
    async setMark(mark: Mark, ref, on, note, at) {
      if (!on) return (await sql.query('DELETE FROM operator_marks WHERE mark = $1 AND ref = $2', [mark, ref])).count === 1;
      // Of concurrent setters exactly one inserts (a change); the others only update the note.
      if (
        (await sql.query('INSERT INTO operator_marks (mark, ref, note, at) VALUES ($1, $2, $3, $4) ON CONFLICT (mark, ref) DO NOTHING', [mark, ref, note, at]))
          .count === 1
      )
        return true;
      await sql.query('UPDATE operator_marks SET note = $3 WHERE mark = $1 AND ref = $2', [mark, ref, note]);
      return false;
    },
    async hasMark(mark, ref) {
      return (await sql.query('SELECT 1 FROM operator_marks WHERE mark = $1 AND ref = $2', [mark, ref])).rows.length > 0;
    },
    async marks(mark) {
      return (await sql.query<{ ref: string }>('SELECT ref FROM operator_marks WHERE mark = $1 ORDER BY ref', [mark])).rows.map((r) => r.ref);
    },
    async setAsnPolicy(p: AsnPolicy) {
      if (p.class === 'open') await sql.query('DELETE FROM asn_policy WHERE asn = $1', [p.asn]);
      else
        await sql.query(
          'INSERT INTO asn_policy (asn, class, note, at) VALUES ($1, $2, $3, $4) ON CONFLICT (asn) DO UPDATE SET class = excluded.class, note = excluded.note, at = excluded.at',
          [p.asn, p.class, p.note, p.at],
        );
    },
    async asnPolicy(n) {
      return (await sql.query<AsnPolicy>('SELECT asn, class, note, at FROM asn_policy WHERE asn = $1', [n])).rows[0] ?? null;
    },
    asnOf(net) {
      return asn ? asn.lookupNet(net) : null;
    },
    asnMapped() {
      return asn ? asn.loaded() : false;
    },
    recordOrigin: (o: OriginRow) => origin(o),
    async origins(q, n) {
      return (
        await sql.query<OriginRow>(
          `SELECT kind, ref, root, net, at FROM content_origin WHERE ($1::text IS NULL OR ref = $1 OR root = $1) AND ($2::text IS NULL OR kind = $2) AND ($3::text IS NULL OR root = $3)
           ORDER BY at DESC LIMIT $4`,
          [q.ref ?? null, q.kind ?? null, q.root ?? null, n],
        )
      ).rows;
    },
    async ingestInbox() {
      return events.after(() => sql.tx(ingest));
    },
    async inboxAfter(since, n, kind) {
      // rank: how many items of the same kind arrived that UTC day up to this one (the per-day cap).
      return (
        await sql.query<InboxItem>(
          `SELECT i.seq, i.kind, i.ref, i.scope, i.title, i.support_w, i.groups, i.url, i.status, i.created,
             (SELECT count(*) FROM inbox_items j WHERE j.kind = i.kind AND j.created >= i.created - (i.created % ${DAY}) AND j.created < i.created - (i.created % ${DAY}) + ${DAY} AND j.seq <= i.seq) AS rank
           FROM inbox_items i WHERE i.seq > $1 AND ($2::text IS NULL OR i.kind = $2) ORDER BY i.seq LIMIT $3`,
          [since, kind, n],
        )
      ).rows;
    },
    async addDemand(src, rows, at) {
      if (!rows.length) return 0;
      // One statement for the batch (one transaction).
      await sql.query(
        `INSERT INTO demand_queries (src, q, impressions, clicks, position, page, at)
         SELECT $1, q, impressions, clicks, position, page, $7 FROM unnest($2::text[], $3::int[], $4::int[], $5::float8[], $6::text[]) AS r(q, impressions, clicks, position, page)`,
        [src, rows.map((r) => r.q), rows.map((r) => r.impressions), rows.map((r) => r.clicks), rows.map((r) => r.position), rows.map((r) => r.page), at],
      );
      return rows.length;
    },
    async setIdentityFrozen(id, on) {
      try {
        return (await sql.query('UPDATE identities SET frozen = $1 WHERE id = $2', [on, id])).count === 1;
      } finally {
        identChanged([id]);
      }
    },
    async purgeRoots(ids, pseudo, tombsOf) {
      const cols = await columns();
      const has = (table: string, col: string) => cols.get(table)?.has(col) === true;
      const done = events.after(() =>
        sql.tx(async (q) => {
          let rows = 0;
          const run = async (text: string, params: unknown[]) => (rows += (await q.query(text, params)).count);
          const kb: string[] = [];
          const tasks: string[] = [];
          const cps: string[] = [];
          for (const id of ids) {
            // Published content: removed (side tables cascade), remembered as tombstones.
            await run('DELETE FROM kb_signed_confirms WHERE entry IN (SELECT id FROM kb_entries WHERE author = $1)', [id]);
            const gone = await q.query<{ id: string }>('DELETE FROM kb_entries WHERE author = $1 RETURNING id', [id]);
            rows += gone.count;
            kb.push(...gone.rows.map((r) => r.id));
            const t = await q.query<{ id: string }>('DELETE FROM tasks WHERE creator = $1 RETURNING id', [id]);
            rows += t.count;
            tasks.push(...t.rows.map((r) => r.id));
            // `published::int`: the flag is INTEGER until the checkpoints port makes it BOOLEAN.
            cps.push(
              ...(await q.query<{ id: string }>('SELECT id FROM checkpoints WHERE owner = $1 AND published::int = 1 ORDER BY rid', [id])).rows.map((r) => r.id),
            );
            // Other people's tasks forget the identity: a claim it held is released.
            await run("UPDATE tasks SET claimant = NULL, claimed = NULL, result = NULL, state = 'open' WHERE claimant = $1 AND state IN ('claimed', 'done')", [
              id,
            ]);
            await run('UPDATE tasks SET claimant = NULL WHERE claimant = $1', [id]);
            await run('UPDATE tasks SET hunter = NULL WHERE hunter = $1', [id]);
            // Spaces it created go with their memberships.
            await run('DELETE FROM space_members WHERE space IN (SELECT slug FROM spaces WHERE creator = $1)', [id]);
            await run('DELETE FROM spaces WHERE creator = $1', [id]);
            for (const [table, col] of PURGE_DELETE) if (has(table, col)) await run(`DELETE FROM ${table} WHERE "${col}" = $1`, [id]);
            await run('DELETE FROM operator_marks WHERE ref = $1', [id]);
            // Its quota buckets (`<bucket>|<id>`; PostgreSQL only: SQLite keeps them in memory).
            await run("DELETE FROM quota_buckets WHERE right(id, length($1) + 1) = '|' || $1", [id]);
            // Bus events and jobs whose payload names the identity (lines, task events, inbox items).
            const quoted = `"${id}"`;
            await run('DELETE FROM events WHERE strpos(payload::text, $1) > 0', [quoted]);
            await run('DELETE FROM jobs WHERE strpos(payload::text, $1) > 0', [quoted]);
            // Its personal topics (`~<id>.<n>`) with their lines and heads.
            await run('DELETE FROM events WHERE starts_with(topic, $1)', [`ps:~${id}.`]);
            await run('DELETE FROM event_heads WHERE starts_with(topic, $1)', [`ps:~${id}.`]);
            const p = pseudo(id);
            // Governance: its undecided proposals go; decided ones are the record and keep a pseudonym.
            await run("DELETE FROM gov_proposals WHERE author = $1 AND state IN ('open', 'later')", [id]);
            await run('UPDATE gov_proposals SET author = $2 WHERE author = $1', [id, p]);
            // Services it published keep running for their callers under a pseudonym.
            await run('UPDATE svc_names SET owner = $2 WHERE owner = $1', [id, p]);
            await run('UPDATE svc_versions SET publisher = $2 WHERE publisher = $1', [id, p]);
            await run('UPDATE cjob_slots SET donor = $2 WHERE donor = $1', [id, p]);
            // The ledger keeps its history under a pseudonym: every transaction still sums to zero.
            const acct = (await q.query<{ kind: string; balance: number }>('SELECT kind, balance FROM ledger_accounts WHERE id = $1 FOR UPDATE', [id])).rows[0];
            if (acct) {
              if (acct.balance !== 0) throw new Error(`purge: account ${id} still holds ${acct.balance}`);
              await run('INSERT INTO ledger_accounts (id, kind, balance) VALUES ($1, $2, 0)', [p, acct.kind]);
              await run('UPDATE ledger_postings SET account = $2 WHERE account = $1', [id, p]);
              await run('DELETE FROM ledger_accounts WHERE id = $1', [id]);
            }
            await run('UPDATE ledger_tx SET ref = $2 WHERE ref = $1', [id, p]);
            // Last: the identity, its tokens and anything else that cascades from it.
            await run('DELETE FROM tokens WHERE id = $1', [id]);
            await run('DELETE FROM identities WHERE id = $1', [id]);
          }
          const tombs = tombsOf({ kb, tasks, cps });
          for (const t of tombs)
            await q.query(
              'INSERT INTO export_tombstones (id, kind, removed_at, reason) VALUES ($1, $2, $3, $4) ON CONFLICT (kind, id) DO UPDATE SET removed_at = excluded.removed_at, reason = excluded.reason',
              [t.id, t.kind, t.removed_at, t.reason],
            );
          return { rows, tombstones: tombs.length };
        }),
      );
      return done.finally(() => {
        kbChanged();
        identChanged(ids);
      });
    },
    async escrowsOf(ids) {
      return (
        await sql.query<{ bounty: string; credits: number }>(
          "SELECT bounty, credits FROM tasks WHERE creator = ANY($1::text[]) AND bounty IS NOT NULL AND state IN ('open', 'claimed', 'done') AND credits > 0 ORDER BY array_position($1::text[], creator), n",
          [ids],
        )
      ).rows;
    },
    async counts(): Promise<PlatformCounts> {
      const cols = await columns();
      // A table absent from the schema counts 0. The 0/1 flags of migration 006 are compared as
      // ::int, so the counts hold whether a column is INTEGER or BOOLEAN.
      const count = (table: string, where = '') => (cols.has(table) ? `(SELECT count(*) FROM ${table} ${where})` : '0::int8');
      const sum = (table: string, expr: string, where = '') =>
        cols.has(table) ? `(SELECT coalesce(sum(${expr}), 0)::int8 FROM ${table} ${where})` : '0::int8';
      const counters: Record<string, string> = Object.fromEntries(PLATFORM_COUNTERS.map(([k, t, w]) => [k, count(t, w)]));
      // Storage classes: what kind of data sits where, by rows and payload bytes.
      const storage: Record<string, [rows: string, bytes: string]> = {
        sealed: [
          `${count('drops')} + ${count('notes')} + ${count('mail')}`,
          `${sum('drops', 'octet_length(ct)')} + ${sum('notes', 'octet_length(ct)')} + ${sum('mail', 'octet_length(ct)')}`,
        ],
        public: [
          `${count('kb_entries')} + ${count('tasks')} + ${count('checkpoints', 'WHERE published::int = 1')}`,
          `${sum('kb_entries', 'length(title) + length(fix)')} + ${sum('kb_errors', 'length(error)')} + ${sum('tasks', 'length(title) + length(body)')} + ${sum('checkpoints', 'size', 'WHERE published::int = 1')}`,
        ],
        private: [
          `${count('checkpoints', 'WHERE published::int = 0')} + ${count('cache')} + ${count('anchors')}`,
          `${sum('checkpoints', 'size', 'WHERE published::int = 0')} + ${sum('cache', 'size')}`,
        ],
        blob: [count('blob_data'), sum('blob_data', 'octet_length(bytes)')],
        ledger: [count('ledger_postings'), '0::int8'],
        events: [count('events'), sum('events', 'octet_length(payload::text)')],
      };
      for (const [cls, parts] of DOMAIN_CLASSES) {
        const rows = parts.filter((p) => p.rows !== false).map((p) => count(p.table, p.where));
        const bytes = parts.flatMap((p) => (p.bytes ? [sum(p.table, p.bytes.pg, p.where)] : []));
        storage[cls] = [rows.join(' + ') || '0::int8', bytes.join(' + ') || '0::int8'];
      }
      const select = [
        ...Object.entries(counters).map(([k, e]) => `${e} AS c_${k}`),
        ...Object.entries(storage).flatMap(([k, [r, b]]) => [`(${r})::int8 AS r_${k}`, `(${b})::int8 AS b_${k}`]),
        "current_setting('server_version') AS version",
        `(SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::int8 FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
          WHERE s.nspname = current_schema() AND c.relkind IN ('r', 'm')) AS bytes`,
      ];
      const row = (await sql.query<Record<string, number | string>>(`SELECT ${select.join(',\n')}`)).rows[0]!;
      const out: Record<string, number> = {};
      for (const k of Object.keys(counters)) out[k] = Number(row[`c_${k}`]);
      const classes: StorageClass[] = Object.keys(storage).map((cls) => ({ cls, rows: Number(row[`r_${cls}`]), bytes: Number(row[`b_${cls}`]) }));
      return { counters: out, storage: classes, engine: `postgres-${String(row.version).split(' ')[0]}`, file_bytes: Number(row.bytes) };
    },
  };
}
