// Mail on PostgreSQL (port: src/core/mail/ports.ts), tables of migration 006 (review columns of
// migration 020). Every inbox statement is scoped by recipient. An insert counts the inbox under an
// advisory lock of the recipient, so concurrent senders on any replica cannot pass the cap; a report
// is one per (msg, reporter) by its unique key; a decision is one conditional UPDATE of an open
// report, so of concurrent decisions exactly one acts.
import type { MailReport, MailRepo, MailRow, NewMail } from '../../core/mail/ports.js';
import type { Q, Sql } from './sql.js';

interface Row extends Omit<MailRow, 'readAt' | 'reported'> {
  read_at: number | null;
  reported: number;
}
const COLS = 'rid, id, sender, recipient, nonce, ct, size, created, read_at, reported';
const toMail = (r: Row): MailRow => ({
  rid: r.rid,
  id: r.id,
  sender: r.sender,
  recipient: r.recipient,
  nonce: r.nonce,
  ct: r.ct,
  size: r.size,
  created: r.created,
  readAt: r.read_at,
  reported: r.reported === 1,
});
const REPORT = 'id, msg, reporter, sender, reason, created';

export function pgMail(sql: Sql): MailRepo {
  const counts = async (q: Q, recipient: string) =>
    (
      await q.query<{ n: number; u: number }>(
        'SELECT count(*) AS n, count(*) FILTER (WHERE read_at IS NULL) AS u FROM mail WHERE recipient = $1 AND deleted = 0',
        [recipient],
      )
    ).rows[0]!;
  return {
    async insert(m: NewMail, max) {
      return sql.tx(async (q): Promise<MailRow | 'full' | 'taken'> => {
        await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.mail.' || $1))", [m.recipient]);
        if ((await counts(q, m.recipient)).n >= max) return 'full';
        const r = (
          await q.query<Row>(
            `INSERT INTO mail (id, sender, recipient, nonce, ct, size, created) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING RETURNING ${COLS}`,
            [m.id, m.sender, m.recipient, m.nonce, m.ct, m.size, m.created],
          )
        ).rows[0];
        return r ? toMail(r) : 'taken';
      });
    },
    async get(id, recipient) {
      const r = (await sql.query<Row>(`SELECT ${COLS} FROM mail WHERE id = $1 AND recipient = $2 AND deleted = 0`, [id, recipient])).rows[0];
      return r ? toMail(r) : null;
    },
    async markRead(id, recipient, now) {
      await sql.query('UPDATE mail SET read_at = $1 WHERE id = $2 AND recipient = $3 AND read_at IS NULL', [now, id, recipient]);
    },
    async inbox(recipient, before, n, unread) {
      const rows = (
        await sql.query<Row>(
          `SELECT ${COLS} FROM mail WHERE recipient = $1 AND deleted = 0 AND rid < $2 AND (NOT $3 OR read_at IS NULL) ORDER BY rid DESC LIMIT $4`,
          [recipient, before ?? Number.MAX_SAFE_INTEGER, unread, n],
        )
      ).rows;
      return rows.map(toMail);
    },
    async counts(recipient) {
      const r = await counts(sql, recipient);
      return { total: r.n, unread: r.u };
    },
    async remove(id, recipient) {
      return sql.tx(async (q) => {
        // The row is locked first, so a report landing meanwhile cannot make both branches miss.
        const r = (
          await q.query<{ reported: number }>('SELECT reported FROM mail WHERE id = $1 AND recipient = $2 AND deleted = 0 FOR UPDATE', [id, recipient])
        ).rows[0];
        if (!r) return false;
        // A reported message leaves the inbox but keeps its ciphertext for the review (locator = id).
        if (r.reported === 1) await q.query('UPDATE mail SET deleted = 1 WHERE id = $1', [id]);
        else await q.query('DELETE FROM mail WHERE id = $1', [id]);
        return true;
      });
    },
    async report(r: MailReport) {
      return sql.tx(async (q): Promise<'ok' | 'dup'> => {
        const made = await q.query(
          'INSERT INTO mail_reports (msg, reporter, sender, reason, created) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (msg, reporter) DO NOTHING',
          [r.msg, r.reporter, r.sender, r.reason, r.created],
        );
        if (made.count === 0) return 'dup';
        await q.query('UPDATE mail SET reported = 1 WHERE id = $1', [r.msg]);
        return 'ok';
      });
    },
    async openReports(n) {
      return (await sql.query<MailReport & { id: number }>(`SELECT ${REPORT} FROM mail_reports WHERE status = 'open' ORDER BY id LIMIT $1`, [n])).rows;
    },
    async reviewQueue(since, n) {
      return (
        await sql.query<MailReport & { id: number; held: boolean; size: number }>(
          `SELECT r.id, r.msg, r.reporter, r.sender, r.reason, r.created, (m.rid IS NOT NULL) AS held, coalesce(m.size, 0) AS size
           FROM mail_reports r LEFT JOIN mail m ON m.id = r.msg WHERE r.status = 'open' AND r.created >= $1 ORDER BY r.id LIMIT $2`,
          [since, n],
        )
      ).rows;
    },
    async decideReport(id, action, note, now) {
      return sql.tx(async (q) => {
        const r = (
          await q.query<MailReport & { id: number }>(
            `UPDATE mail_reports SET status = $2, note = $3, decided = $4 WHERE id = $1 AND status = 'open' RETURNING ${REPORT}`,
            [id, action, note, now],
          )
        ).rows[0];
        if (!r) return (await q.query('SELECT 1 FROM mail_reports WHERE id = $1', [id])).rows.length ? ('decided' as const) : null;
        if (action === 'purge') await q.query('DELETE FROM mail WHERE id = $1', [r.msg]);
        return r;
      });
    },
  };
}
