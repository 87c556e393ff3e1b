// SQLite implementation of the MailRepo port. Every inbox statement is scoped by recipient.
import type { MailRepo, MailReport, MailRow, NewMail, ReviewAction } from '../../core/mail/ports.js';
import { isUnique, LIMIT, type Db } from './db.js';

interface Row extends Omit<MailRow, 'readAt' | 'reported'> {
  read_at: number | null;
  reported: number;
  deleted: number;
}
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

export function sqliteMail(db: Db): MailRepo {
  const cnt = db.prepare('SELECT count(*) AS n, coalesce(sum(read_at IS NULL), 0) AS u FROM mail WHERE recipient = ? AND deleted = 0');
  const ins = db.prepare(
    'INSERT INTO mail (id, sender, recipient, nonce, ct, size, created) VALUES (@id, @sender, @recipient, @nonce, @ct, @size, @created) RETURNING *',
  );
  const sel = db.prepare('SELECT * FROM mail WHERE id = ? AND recipient = ? AND deleted = 0');
  const mark = db.prepare('UPDATE mail SET read_at = ? WHERE id = ? AND recipient = ? AND read_at IS NULL');
  const page = db.prepare(
    'SELECT * FROM mail WHERE recipient = @r AND deleted = 0 AND rid < @before AND (@unread = 0 OR read_at IS NULL) ORDER BY rid DESC LIMIT CAST(@n AS INTEGER)',
  );
  // A reported message leaves the inbox but keeps its ciphertext for the review (locator = id).
  const hide = db.prepare('UPDATE mail SET deleted = 1 WHERE id = ? AND recipient = ? AND deleted = 0 AND reported = 1');
  const del = db.prepare('DELETE FROM mail WHERE id = ? AND recipient = ? AND deleted = 0 AND reported = 0');
  const flag = db.prepare('UPDATE mail SET reported = 1 WHERE id = ?');
  const insReport = db.prepare('INSERT INTO mail_reports (msg, reporter, sender, reason, created) VALUES (@msg, @reporter, @sender, @reason, @created)');
  const open = db.prepare(`SELECT id, msg, reporter, sender, reason, created FROM mail_reports WHERE status = 'open' ORDER BY id ${LIMIT}`);

  const queue = db.prepare(
    `SELECT r.id, r.msg, r.reporter, r.sender, r.reason, r.created, (m.rid IS NOT NULL) AS held, coalesce(m.size, 0) AS size
     FROM mail_reports r LEFT JOIN mail m ON m.id = r.msg WHERE r.status = 'open' AND r.created >= ? ORDER BY r.id ${LIMIT}`,
  );
  const selReport = db.prepare('SELECT id, msg, reporter, sender, reason, created, status FROM mail_reports WHERE id = ?');
  const closeReport = db.prepare("UPDATE mail_reports SET status = ?, note = ?, decided = ? WHERE id = ? AND status = 'open'");
  const dropMsg = db.prepare('DELETE FROM mail WHERE id = ?');
  const decide = db.transaction((id: number, action: ReviewAction, note: string, now: number) => {
    const r = selReport.get(id) as (MailReport & { id: number; status: string }) | undefined;
    if (!r) return null;
    if (r.status !== 'open') return 'decided' as const;
    closeReport.run(action, note, now, id);
    if (action === 'purge') dropMsg.run(r.msg);
    const { status: _s, ...rep } = r;
    return rep;
  });

  const insert = db.transaction((m: NewMail, max: number): MailRow | 'full' | 'taken' => {
    if ((cnt.get(m.recipient) as { n: number }).n >= max) return 'full';
    try {
      return toMail(ins.get(m) as Row);
    } catch (e) {
      if (isUnique(e)) return 'taken';
      throw e;
    }
  });
  const remove = db.transaction((id: string, recipient: string) => hide.run(id, recipient).changes + del.run(id, recipient).changes === 1);
  const report = db.transaction((r: MailReport): 'ok' | 'dup' => {
    try {
      insReport.run(r);
    } catch (e) {
      if (isUnique(e)) return 'dup';
      throw e;
    }
    flag.run(r.msg);
    return 'ok';
  });

  return {
    async insert(m, max) {
      return insert(m, max);
    },
    async get(id, recipient) {
      const r = sel.get(id, recipient) as Row | undefined;
      return r ? toMail(r) : null;
    },
    async markRead(id, recipient, now) {
      mark.run(now, id, recipient);
    },
    async inbox(recipient, before, n, unread) {
      return (page.all({ r: recipient, before: before ?? Number.MAX_SAFE_INTEGER, n, unread: unread ? 1 : 0 }) as Row[]).map(toMail);
    },
    async counts(recipient) {
      const r = cnt.get(recipient) as { n: number; u: number };
      return { total: r.n, unread: r.u };
    },
    async remove(id, recipient) {
      return remove(id, recipient);
    },
    async report(r) {
      return report(r);
    },
    async openReports(n) {
      return open.all(n) as Array<MailReport & { id: number }>;
    },
    async reviewQueue(since, n) {
      return (queue.all(since, n) as Array<MailReport & { id: number; held: number; size: number }>).map((r) => ({ ...r, held: r.held === 1 }));
    },
    async decideReport(id, action, note, now) {
      return decide(id, action, note, now);
    },
  };
}
