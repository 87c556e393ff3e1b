// Operator state on SQLite (port: src/core/admin/ports.ts): announcements, marks, ASN policy, content
// origin, the durable inbox, demand rows, tombstones, platform counters and the purge of a root.
import type {
  AdminRepo,
  Announcement,
  AsnPolicy,
  InboxEvent,
  InboxItem,
  Mark,
  OriginRow,
  PlatformCounts,
  StorageClass,
  Tombstone,
} from '../../core/admin/ports.js';
import { type Db, LIMIT } from './db.js';
import type { SqliteEvents } from './events.js';
import { AsnTable } from '../files/asn.js';
import { PURGE_DELETE } from '../purge-targets.js';
import { DOMAIN_CLASSES, PLATFORM_COUNTERS } from '../platform-counters.js';

interface AnnRow extends Omit<Announcement, 'kind'> {
  kind: Announcement['kind'];
}

/** `kbChanged` is told when a purge removed KB entries: the KB's memoized reads start afresh. */
export function sqliteAdmin(db: Db, events: SqliteEvents, dataDir: string, now: () => number, kbChanged: () => void = () => {}): AdminRepo {
  const asn = new AsnTable(dataDir, now);
  const insAnn = db.prepare(
    'INSERT INTO announcements (kind, starts, ends, text, line, maint, created) VALUES (@kind, @starts, @ends, @text, @line, @maint, @created)',
  );
  const lineAnn = db.prepare('UPDATE announcements SET line = ? WHERE id = ?');
  const selAnn = db.prepare(`SELECT * FROM announcements WHERE ends > ? ORDER BY id DESC ${LIMIT}`);

  const insMark = db.prepare('INSERT INTO operator_marks (mark, ref, note, at) VALUES (?, ?, ?, ?) ON CONFLICT (mark, ref) DO UPDATE SET note = excluded.note');
  const delMark = db.prepare('DELETE FROM operator_marks WHERE mark = ? AND ref = ?');
  const selMark = db.prepare('SELECT 1 FROM operator_marks WHERE mark = ? AND ref = ?');
  const selMarks = db.prepare('SELECT ref FROM operator_marks WHERE mark = ? ORDER BY ref');
  const setMark = db.transaction((mark: Mark, ref: string, on: boolean, note: string, at: number) => {
    const was = selMark.get(mark, ref) !== undefined;
    if (on) insMark.run(mark, ref, note, at);
    else delMark.run(mark, ref);
    return was !== on;
  });

  const upAsn = db.prepare(
    'INSERT INTO asn_policy (asn, class, note, at) VALUES (@asn, @class, @note, @at) ON CONFLICT (asn) DO UPDATE SET class = excluded.class, note = excluded.note, at = excluded.at',
  );
  const delAsn = db.prepare('DELETE FROM asn_policy WHERE asn = ?');
  const selAsn = db.prepare('SELECT asn, class, note, at FROM asn_policy WHERE asn = ?');

  const insOrigin = db.prepare('INSERT OR IGNORE INTO content_origin (kind, ref, root, net, at) VALUES (@kind, @ref, @root, @net, @at)');
  const selOrigin = db.prepare(
    `SELECT kind, ref, root, net, at FROM content_origin WHERE (@ref IS NULL OR ref = @ref OR root = @ref) AND (@kind IS NULL OR kind = @kind) AND (@root IS NULL OR root = @root)
     ORDER BY at DESC LIMIT CAST(@n AS INTEGER)`,
  );

  // Inbox: copy bus events of every `inbox.<kind>` topic after the stored cursor.
  const inboxTopics = db.prepare(
    "SELECT h.topic, h.head, coalesce(c.last, 0) AS last FROM event_heads h LEFT JOIN inbox_cursors c ON c.topic = h.topic WHERE h.topic >= 'inbox.' AND h.topic < 'inbox/'",
  );
  const evAfter = db.prepare('SELECT id, time, payload FROM events WHERE topic = ? AND id > ? ORDER BY id LIMIT 500');
  const setCursor = db.prepare('INSERT INTO inbox_cursors (topic, last) VALUES (?, ?) ON CONFLICT (topic) DO UPDATE SET last = excluded.last');
  const insItem = db.prepare(
    `INSERT INTO inbox_items (kind, ref, scope, title, support_w, groups, url, status, created) VALUES (@kind, @ref, @scope, @title, @support_w, @groups, @url, @status, @created)
     ON CONFLICT (kind, ref) DO UPDATE SET scope = CASE WHEN @has_scope THEN excluded.scope ELSE scope END, title = CASE WHEN @has_title THEN excluded.title ELSE title END,
       support_w = CASE WHEN @has_w THEN excluded.support_w ELSE support_w END, groups = CASE WHEN @has_groups THEN excluded.groups ELSE groups END,
       url = CASE WHEN @has_url THEN excluded.url ELSE url END, status = CASE WHEN @has_status THEN excluded.status ELSE status END`,
  );
  const ingest = db.transaction((): number => {
    let n = 0;
    for (const t of inboxTopics.all() as { topic: string; head: number; last: number }[]) {
      if (t.head <= t.last) continue;
      const kind = t.topic.slice('inbox.'.length).slice(0, 24);
      let last = t.last;
      for (;;) {
        const rows = evAfter.all(t.topic, last) as { id: number; time: number; payload: string }[];
        for (const r of rows) {
          last = r.id;
          let p: InboxEvent;
          try {
            p = JSON.parse(r.payload) as InboxEvent;
          } catch {
            continue;
          }
          if (!p || typeof p.ref !== 'string' || !p.ref || !kind) continue;
          const str = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : '');
          const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
          insItem.run({
            kind,
            ref: p.ref.slice(0, 64),
            scope: str(p.scope, 80),
            title: str(p.title, 200),
            support_w: num(p.support_w),
            groups: Math.trunc(num(p.groups)),
            url: str(p.url, 300),
            status: str(p.status, 24) || 'open',
            created: r.time,
            has_scope: p.scope !== undefined ? 1 : 0,
            has_title: p.title !== undefined ? 1 : 0,
            has_w: p.support_w !== undefined ? 1 : 0,
            has_groups: p.groups !== undefined ? 1 : 0,
            has_url: p.url !== undefined ? 1 : 0,
            has_status: p.status !== undefined ? 1 : 0,
          });
          n++;
        }
        if (rows.length < 500) break;
      }
      // Events pruned before they were copied are gone: the cursor still moves to the head.
      setCursor.run(t.topic, Math.max(last, t.head));
    }
    return n;
  });
  // rank: how many items of the same kind arrived that UTC day up to this one (the per-day cap).
  const selItems = db.prepare(
    `SELECT i.*, (SELECT count(*) FROM inbox_items j WHERE j.kind = i.kind AND j.created >= i.created - (i.created % 86400000) AND j.created < i.created - (i.created % 86400000) + 86400000 AND j.seq <= i.seq) AS rank
     FROM inbox_items i WHERE i.seq > @since AND (@kind IS NULL OR i.kind = @kind) ORDER BY i.seq LIMIT CAST(@n AS INTEGER)`,
  );

  const insDemand = db.prepare('INSERT INTO demand_queries (src, q, impressions, clicks, position, page, at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const addDemand = db.transaction((src: string, rows: Parameters<AdminRepo['addDemand']>[1], at: number) => {
    for (const r of rows) insDemand.run(src, r.q, r.impressions, r.clicks, r.position, r.page, at);
    return rows.length;
  });

  // The exports' table of removals (one table: exports leave these rows out for good).
  const insTomb = db.prepare(
    'INSERT INTO export_tombstones (id, kind, removed_at, reason) VALUES (@id, @kind, @removed_at, @reason) ON CONFLICT (kind, id) DO UPDATE SET removed_at = excluded.removed_at, reason = excluded.reason',
  );

  const freezeId = db.prepare('UPDATE identities SET frozen = ? WHERE id = ?');

  // ---- purge ----
  const tableCols = (table: string): Set<string> =>
    new Set((db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((r) => r.name));
  const has = (table: string, col: string) => tableCols(table).has(col);
  const escrows = db.prepare(
    "SELECT bounty, credits FROM tasks WHERE creator = ? AND bounty IS NOT NULL AND state IN ('open', 'claimed', 'done') AND credits > 0",
  );

  const purge = db.transaction((ids: string[], pseudo: (id: string) => string, tombsOf: Parameters<AdminRepo['purgeRoots']>[2]) => {
    let rows = 0;
    const run = (sql: string, ...args: unknown[]) => (rows += db.prepare(sql).run(...args).changes);
    const kb: string[] = [];
    const tasks: string[] = [];
    const cps: string[] = [];
    for (const id of ids) {
      // Published content: removed with its search rows, remembered as tombstones.
      for (const e of db.prepare('SELECT n, id FROM kb_entries WHERE author = ?').all(id) as { n: number; id: string }[]) {
        kb.push(e.id);
        run('DELETE FROM kb_fts WHERE rowid = ?', e.n);
        run('DELETE FROM kb_signed_confirms WHERE entry = ?', e.id);
        run('DELETE FROM kb_entries WHERE n = ?', e.n);
      }
      for (const t of db.prepare('SELECT n, id FROM tasks WHERE creator = ?').all(id) as { n: number; id: string }[]) {
        tasks.push(t.id);
        run('DELETE FROM tasks_fts WHERE rowid = ?', t.n);
        run('DELETE FROM task_tags WHERE task = ?', t.n);
        run('DELETE FROM tasks WHERE n = ?', t.n);
      }
      for (const c of db.prepare('SELECT id FROM checkpoints WHERE owner = ? AND published = 1').all(id) as { id: string }[]) cps.push(c.id);
      // Other people's tasks forget the identity: a claim it held is released.
      run("UPDATE tasks SET claimant = NULL, claimed = NULL, result = NULL, state = 'open' WHERE claimant = ? AND state IN ('claimed', 'done')", id);
      run('UPDATE tasks SET claimant = NULL WHERE claimant = ?', id);
      run('UPDATE tasks SET hunter = NULL WHERE hunter = ?', id);
      // Spaces it created go with their memberships.
      for (const s of db.prepare('SELECT slug FROM spaces WHERE creator = ?').all(id) as { slug: string }[]) {
        run('DELETE FROM space_members WHERE space = ?', s.slug);
        run('DELETE FROM spaces WHERE slug = ?', s.slug);
      }
      for (const [table, col] of PURGE_DELETE) if (has(table, col)) run(`DELETE FROM ${table} WHERE ${col} = ?`, id);
      run('DELETE FROM operator_marks WHERE ref = ?', id);
      // Bus events and jobs whose payload names the identity (lines, task events, inbox items).
      const quoted = `%"${id}"%`;
      run('DELETE FROM events WHERE payload LIKE ?', quoted);
      run('DELETE FROM jobs WHERE payload LIKE ?', quoted);
      // Its personal topics (`~<id>.<n>`) with their lines and heads.
      run("DELETE FROM events WHERE topic LIKE 'ps:~' || ? || '.%'", id);
      run("DELETE FROM event_heads WHERE topic LIKE 'ps:~' || ? || '.%'", id);
      // Governance: its undecided proposals go; decided ones are the record and keep a pseudonym.
      if (has('gov_proposals', 'author')) {
        run("DELETE FROM gov_proposals WHERE author = ? AND state IN ('open', 'later')", id);
        run('UPDATE gov_proposals SET author = ? WHERE author = ?', pseudo(id), id);
      }
      // Services it published keep running for their callers under a pseudonym.
      if (has('svc_names', 'owner')) run('UPDATE svc_names SET owner = ? WHERE owner = ?', pseudo(id), id);
      if (has('svc_versions', 'publisher')) run('UPDATE svc_versions SET publisher = ? WHERE publisher = ?', pseudo(id), id);
      if (has('cjob_slots', 'donor')) run('UPDATE cjob_slots SET donor = ? WHERE donor = ?', pseudo(id), id);
      // The ledger keeps its history under a pseudonym: every transaction still sums to zero.
      const p = pseudo(id);
      const acct = db.prepare('SELECT kind, balance FROM ledger_accounts WHERE id = ?').get(id) as { kind: string; balance: number } | undefined;
      if (acct) {
        if (acct.balance !== 0) throw new Error(`purge: account ${id} still holds ${acct.balance}`);
        run('INSERT INTO ledger_accounts (id, kind, balance) VALUES (?, ?, 0)', p, acct.kind);
        run('UPDATE ledger_postings SET account = ? WHERE account = ?', p, id);
        run('DELETE FROM ledger_accounts WHERE id = ?', id);
      }
      run('UPDATE ledger_tx SET ref = ? WHERE ref = ?', p, id);
      // Last: the identity, its tokens (cascade) and anything else that cascades from it.
      run('DELETE FROM tokens WHERE id = ?', id);
      run('DELETE FROM identities WHERE id = ?', id);
    }
    const tombs = tombsOf({ kb, tasks, cps });
    for (const t of tombs) insTomb.run(t);
    return { rows, tombstones: tombs.length };
  });

  // ---- counters ----
  const count = (table: string, where = '') => (db.prepare(`SELECT count(*) AS n FROM ${table} ${where}`).get() as { n: number }).n;
  const bytes = (sql: string) => (db.prepare(sql).get() as { n: number | null }).n ?? 0;

  return {
    async addAnnouncement(a) {
      const id = Number(insAnn.run(a).lastInsertRowid);
      return { id, ...a };
    },
    async setAnnouncementLine(id, line) {
      lineAnn.run(line, id);
    },
    async announcements(after, n) {
      return selAnn.all(after ?? -1, n) as AnnRow[];
    },
    async setMark(mark, ref, on, note, at) {
      return setMark(mark, ref, on, note, at);
    },
    async hasMark(mark, ref) {
      return selMark.get(mark, ref) !== undefined;
    },
    async marks(mark) {
      return (selMarks.all(mark) as { ref: string }[]).map((r) => r.ref);
    },
    async setAsnPolicy(p: AsnPolicy) {
      if (p.class === 'open') delAsn.run(p.asn);
      else upAsn.run(p);
    },
    async asnPolicy(n) {
      return (selAsn.get(n) as AsnPolicy | undefined) ?? null;
    },
    asnOf(net) {
      return asn.lookupNet(net);
    },
    asnMapped() {
      return asn.loaded();
    },
    async recordOrigin(o: OriginRow) {
      insOrigin.run(o);
    },
    async origins(q, n) {
      return selOrigin.all({ ref: q.ref ?? null, kind: q.kind ?? null, root: q.root ?? null, n }) as OriginRow[];
    },
    async ingestInbox() {
      return events.after(() => ingest());
    },
    async inboxAfter(since, n, kind) {
      return selItems.all({ since, n, kind }) as InboxItem[];
    },
    async addDemand(src, rows, at) {
      return addDemand(src, rows, at);
    },
    async setIdentityFrozen(id, on) {
      return freezeId.run(on ? 1 : 0, id).changes === 1;
    },
    async purgeRoots(ids, pseudo, tombs) {
      try {
        return await events.after(() => purge(ids, pseudo, tombs));
      } finally {
        kbChanged();
      }
    },
    async escrowsOf(ids) {
      return ids.flatMap((id) => escrows.all(id) as Array<{ bounty: string; credits: number }>);
    },
    async counts(): Promise<PlatformCounts> {
      const counters: Record<string, number> = Object.fromEntries(PLATFORM_COUNTERS.map(([k, t, w]) => [k, count(t, w)]));
      // Storage classes: what kind of data sits where, by rows and payload bytes.
      const storage: StorageClass[] = [
        {
          cls: 'sealed',
          rows: count('drops') + count('notes') + count('mail'),
          bytes: bytes(
            'SELECT (SELECT coalesce(sum(length(ct)), 0) FROM drops) + (SELECT coalesce(sum(length(ct)), 0) FROM notes) + (SELECT coalesce(sum(length(ct)), 0) FROM mail) AS n',
          ),
        },
        {
          cls: 'public',
          rows: count('kb_entries') + count('tasks') + count('checkpoints', 'WHERE published = 1'),
          bytes: bytes(
            'SELECT (SELECT coalesce(sum(length(title) + length(fix)), 0) FROM kb_entries) + (SELECT coalesce(sum(length(error)), 0) FROM kb_errors) + (SELECT coalesce(sum(length(title) + length(body)), 0) FROM tasks) + (SELECT coalesce(sum(size), 0) FROM checkpoints WHERE published = 1) AS n',
          ),
        },
        {
          cls: 'private',
          rows: count('checkpoints', 'WHERE published = 0') + count('cache') + count('anchors'),
          bytes: bytes('SELECT (SELECT coalesce(sum(size), 0) FROM checkpoints WHERE published = 0) + (SELECT coalesce(sum(size), 0) FROM cache) AS n'),
        },
        { cls: 'blob', rows: count('blob_data'), bytes: bytes('SELECT coalesce(sum(length(bytes)), 0) AS n FROM blob_data') },
        { cls: 'ledger', rows: count('ledger_postings'), bytes: 0 },
        { cls: 'events', rows: count('events'), bytes: bytes('SELECT coalesce(sum(length(payload)), 0) AS n FROM events') },
        ...DOMAIN_CLASSES.map(([cls, parts]) => ({
          cls,
          rows: parts.reduce((n, p) => n + (p.rows === false ? 0 : count(p.table, p.where)), 0),
          bytes: parts.reduce((n, p) => n + (p.bytes ? bytes(`SELECT coalesce(sum(${p.bytes.sqlite}), 0) AS n FROM ${p.table} ${p.where ?? ''}`) : 0), 0),
        })),
      ];
      const page = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
      return { counters, storage, engine: `sqlite-${String(db.pragma('journal_mode', { simple: true }))}`, file_bytes: page };
    },
  };
}
