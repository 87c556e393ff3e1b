// ExportRepo on SQLite: keyset pages of the public rows (short statements, so the serving
// connection is never held across a whole export) and the tombstones of migration 018.
import type { DigestKey, ExportRepo, Tombstone } from '../../core/exports/ports.js';
import type { Digest, KbEntry } from '../../core/kb/ports.js';
import type { Task } from '../../core/tasks/ports.js';
import { type Db, LIMIT } from './db.js';
import { COLS as KB_COLS, toEntry, type Row as KbRow } from './kb-rows.js';

// A row is withheld by its own tombstone or by its author's `identity` one (a purged root).
// Two probes of the primary key (an OR of both would scan the tombstones for every row).
const gone = (kind: string, idExpr: string, authorExpr: string) =>
  `NOT EXISTS (SELECT 1 FROM export_tombstones x WHERE x.kind = '${kind}' AND x.id = ${idExpr})
   AND NOT EXISTS (SELECT 1 FROM export_tombstones y WHERE y.kind = 'identity' AND y.id = ${authorExpr})`;

const TASK_COLS =
  't.n, t.id, t.title, t.body, t.tags, t.creator, t.space, t.state, t.claimant, t.claimed, t.result, t.note, t.hunter, t.bounty, t.credits, t.created, t.updated';

export function sqliteExports(db: Db): ExportRepo<KbEntry, Task, Digest> {
  const kb = db.prepare(
    `SELECT ${KB_COLS} FROM kb_entries e WHERE e.n > ? AND e.updated >= ? AND e.hidden = 0 AND ${gone('kb', 'e.id', 'e.author')} ORDER BY e.n ${LIMIT}`,
  );
  const tasks = db.prepare(`SELECT ${TASK_COLS} FROM tasks t WHERE t.n > ? AND t.updated >= ? AND ${gone('task', 't.id', 't.creator')} ORDER BY t.n ${LIMIT}`);
  const digestCols = 'd.lib, d.ver, d.topic, d.author, d.lines, d.score, d.created';
  const digestGone = gone('digest', "d.lib || '@' || d.ver || '/' || d.topic || '/' || d.author", 'd.author');
  const digests0 = db.prepare(
    `SELECT ${digestCols} FROM kb_digests d WHERE d.created >= ? AND ${digestGone} ORDER BY d.lib, d.ver, d.topic, d.author ${LIMIT}`,
  );
  const digests = db.prepare(
    `SELECT ${digestCols} FROM kb_digests d WHERE (d.lib, d.ver, d.topic, d.author) > (?, ?, ?, ?) AND d.created >= ? AND ${digestGone} ORDER BY d.lib, d.ver, d.topic, d.author ${LIMIT}`,
  );
  // Claims of entries that are themselves exported: visible and not removed.
  const claimWhere = `c.at >= ? AND ${gone('claim', "c.entry || '/' || c.id", 'c.id')}
    AND EXISTS (SELECT 1 FROM kb_entries e WHERE e.id = c.entry AND e.hidden = 0 AND ${gone('kb', 'e.id', 'e.author')})`;
  const claims0 = db.prepare(`SELECT c.entry, c.id, c.kind, c.pub, c.sig, c.at FROM kb_signed_confirms c WHERE ${claimWhere} ORDER BY c.entry, c.id ${LIMIT}`);
  const claims = db.prepare(
    `SELECT c.entry, c.id, c.kind, c.pub, c.sig, c.at FROM kb_signed_confirms c WHERE (c.entry, c.id) > (?, ?) AND ${claimWhere} ORDER BY c.entry, c.id ${LIMIT}`,
  );
  const tombs0 = db.prepare(`SELECT id, kind, removed_at, reason FROM export_tombstones WHERE removed_at >= ? ORDER BY removed_at, kind, id ${LIMIT}`);
  const tombs = db.prepare(
    `SELECT id, kind, removed_at, reason FROM export_tombstones WHERE removed_at >= ? AND (removed_at, kind, id) > (?, ?, ?) ORDER BY removed_at, kind, id ${LIMIT}`,
  );
  const put = db.prepare(
    `INSERT INTO export_tombstones (kind, id, removed_at, reason) VALUES (@kind, @id, @removed_at, @reason)
     ON CONFLICT(kind, id) DO UPDATE SET removed_at = excluded.removed_at, reason = excluded.reason`,
  );
  const del = db.prepare('DELETE FROM export_tombstones WHERE kind = ? AND id = ?');
  return {
    async kb(after, since, limit) {
      return (kb.all(after, since, limit) as KbRow[]).map(toEntry);
    },
    async tasks(after, since, limit) {
      return (tasks.all(after, since, limit) as Array<Omit<Task, 'tags'> & { tags: string }>).map((r) => ({ ...r, tags: r.tags ? r.tags.split(' ') : [] }));
    },
    async digests(after: DigestKey | null, since, limit) {
      return (after ? digests.all(after.lib, after.ver, after.topic, after.author, since, limit) : digests0.all(since, limit)) as Digest[];
    },
    async claims(after, since, limit) {
      return (after ? claims.all(after.entry, after.id, since, limit) : claims0.all(since, limit)) as Awaited<ReturnType<ExportRepo['claims']>>;
    },
    async tombstones(since, after, limit) {
      return (after ? tombs.all(since, after.removed_at, after.kind, after.id, limit) : tombs0.all(since, limit)) as Tombstone[];
    },
    async tombstone(t) {
      put.run(t);
    },
    async untomb(kind, id) {
      return del.run(kind, id).changes === 1;
    },
  };
}
