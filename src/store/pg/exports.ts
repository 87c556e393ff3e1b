// ExportRepo on PostgreSQL (port: src/core/exports/ports.ts): keyset pages of the public rows
// (short statements, no transaction held across an export) and the tombstones of migration 018, as
// the SQLite adapter (src/store/sqlite/exports.ts) reads them. Text keys are compared and ordered
// COLLATE "C" (bytes, as SQLite's BINARY), so the pages and their cursors agree on every server.
import type { DigestKey, ExportRepo, Tombstone } from '../../core/exports/ports.js';
import type { Digest, KbEntry } from '../../core/kb/ports.js';
import type { Task } from '../../core/tasks/ports.js';
import { COLS as KB_COLS, toEntry, type Row as KbRow } from './kb.js';
import type { Sql } from './sql.js';

// A row is withheld by its own tombstone or by its author's `identity` one (a purged root): two
// probes of the primary key.
const gone = (kind: string, idExpr: string, authorExpr: string) =>
  `NOT EXISTS (SELECT 1 FROM export_tombstones x WHERE x.kind = '${kind}' AND x.id = ${idExpr})
   AND NOT EXISTS (SELECT 1 FROM export_tombstones y WHERE y.kind = 'identity' AND y.id = ${authorExpr})`;

const TASK_COLS =
  't.n, t.id, t.title, t.body, t.tags, t.creator, t.space, t.state, t.claimant, t.claimed, t.result, t.note, t.hunter, t.bounty, t.credits, t.created, t.updated';
const C = 'COLLATE "C"';
const DIGEST_COLS = 'd.lib, d.ver, d.topic, d.author, d.lines, d.score, d.created';
const DIGEST_KEY = `d.lib ${C}, d.ver ${C}, d.topic ${C}, d.author ${C}`;
const DIGEST_GONE = gone('digest', "d.lib || '@' || d.ver || '/' || d.topic || '/' || d.author", 'd.author');
// Claims of entries that are themselves exported: visible and not removed.
const CLAIM_WHERE = `c.at >= $1 AND ${gone('claim', "c.entry || '/' || c.id", 'c.id')}
  AND EXISTS (SELECT 1 FROM kb_entries e WHERE e.id = c.entry AND NOT e.hidden AND ${gone('kb', 'e.id', 'e.author')})`;

export function pgExports(sql: Sql): ExportRepo<KbEntry, Task, Digest> {
  return {
    async kb(after, since, limit) {
      const rows = await sql.query<KbRow>(
        `SELECT ${KB_COLS} FROM kb_entries e WHERE e.n > $1 AND e.updated >= $2 AND NOT e.hidden AND ${gone('kb', 'e.id', 'e.author')} ORDER BY e.n LIMIT $3`,
        [after, since, limit],
      );
      return rows.rows.map(toEntry);
    },
    async tasks(after, since, limit) {
      return (
        await sql.query<Task>(
          `SELECT ${TASK_COLS} FROM tasks t WHERE t.n > $1 AND t.updated >= $2 AND ${gone('task', 't.id', 't.creator')} ORDER BY t.n LIMIT $3`,
          [after, since, limit],
        )
      ).rows;
    },
    async digests(after: DigestKey | null, since, limit) {
      const r = after
        ? await sql.query<Digest>(
            `SELECT ${DIGEST_COLS} FROM kb_digests d WHERE (${DIGEST_KEY}) > ($1, $2, $3, $4) AND d.created >= $5 AND ${DIGEST_GONE} ORDER BY ${DIGEST_KEY} LIMIT $6`,
            [after.lib, after.ver, after.topic, after.author, since, limit],
          )
        : await sql.query<Digest>(`SELECT ${DIGEST_COLS} FROM kb_digests d WHERE d.created >= $1 AND ${DIGEST_GONE} ORDER BY ${DIGEST_KEY} LIMIT $2`, [
            since,
            limit,
          ]);
      return r.rows;
    },
    async claims(after, since, limit) {
      type Claim = Awaited<ReturnType<ExportRepo['claims']>>[number];
      const r = after
        ? await sql.query<Claim>(
            `SELECT c.entry, c.id, c.kind, c.pub, c.sig, c.at FROM kb_signed_confirms c WHERE (c.entry ${C}, c.id ${C}) > ($2, $3) AND ${CLAIM_WHERE} ORDER BY c.entry ${C}, c.id ${C} LIMIT $4`,
            [since, after.entry, after.id, limit],
          )
        : await sql.query<Claim>(
            `SELECT c.entry, c.id, c.kind, c.pub, c.sig, c.at FROM kb_signed_confirms c WHERE ${CLAIM_WHERE} ORDER BY c.entry ${C}, c.id ${C} LIMIT $2`,
            [since, limit],
          );
      return r.rows;
    },
    async tombstones(since, after, limit) {
      const r = after
        ? await sql.query<Tombstone>(
            'SELECT id, kind, removed_at, reason FROM export_tombstones WHERE removed_at >= $1 AND (removed_at, kind, id) > ($2, $3, $4) ORDER BY removed_at, kind, id LIMIT $5',
            [since, after.removed_at, after.kind, after.id, limit],
          )
        : await sql.query<Tombstone>(
            'SELECT id, kind, removed_at, reason FROM export_tombstones WHERE removed_at >= $1 ORDER BY removed_at, kind, id LIMIT $2',
            [since, limit],
          );
      return r.rows;
    },
    async tombstone(t) {
      await sql.query(
        `INSERT INTO export_tombstones (kind, id, removed_at, reason) VALUES ($1, $2, $3, $4)
         ON CONFLICT (kind, id) DO UPDATE SET removed_at = excluded.removed_at, reason = excluded.reason`,
        [t.kind, t.id, t.removed_at, t.reason],
      );
    },
    async untomb(kind, id) {
      return (await sql.query('DELETE FROM export_tombstones WHERE kind = $1 AND id = $2', [kind, id])).count === 1;
    },
  };
}
