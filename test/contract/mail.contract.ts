// Mail: inboxes scoped by recipient, a cap that holds under concurrent senders, newest-first
// pages with a cursor, read marks set once, removal, reports (one per reporter, oldest first).
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { MailRow, NewMail } from '../../src/core/mail/ports.js';
import { type Adapter, storeFor } from './adapters.js';
import { identity, newId, together } from './fixtures.js';

const mail = (sender: string, recipient: string, created: number, o: Partial<NewMail> = {}): NewMail => ({
  id: newId('m', 10),
  sender,
  recipient,
  nonce: randomBytes(12),
  ct: randomBytes(48),
  size: 32,
  created,
  ...o,
});

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  async function setup() {
    const s = await open();
    const now = s.clock.now();
    const [a, b, c] = [await identity(s.store, now), await identity(s.store, now), await identity(s.store, now)];
    return { s, now, a: a.id, b: b.id, c: c.id };
  }

  it('insert then get hands the message back to its recipient only, bytes intact; it survives a restart', async () => {
    const { s, now, a, b, c } = await setup();
    const m = mail(a, b, now);
    const row = (await s.store.mail.insert(m, 10)) as MailRow;
    expect(row).toMatchObject({ id: m.id, sender: a, recipient: b, size: 32, created: now, readAt: null, reported: false });
    expect(row.ct.equals(m.ct) && row.nonce.equals(m.nonce)).toBe(true);
    expect(await s.store.mail.get(m.id, b)).toEqual(row);
    expect(await s.store.mail.get(m.id, a)).toBeNull();
    expect(await s.store.mail.get(m.id, c)).toBeNull();
    expect(await (await s.reopen()).mail.get(m.id, b)).toEqual(row);
  });

  it('an id in use is taken; a full inbox refuses, also under 20 concurrent senders', async () => {
    const { s, now, a, b, c } = await setup();
    const m = mail(a, b, now);
    await s.store.mail.insert(m, 10);
    expect(await s.store.mail.insert(mail(a, c, now, { id: m.id }), 10)).toBe('taken');
    const res = await together(20, () => s.store.mail.insert(mail(a, c, now), 5));
    expect(res.filter((r) => typeof r === 'object')).toHaveLength(5);
    expect(res.filter((r) => r === 'full')).toHaveLength(15);
    expect(await s.store.mail.counts(c)).toEqual({ total: 5, unread: 5 });
  });

  it('inbox: newest first, a cursor that pages through once, unread only on demand; counts follow read marks', async () => {
    const { s, now, a, b } = await setup();
    const ids: MailRow[] = [];
    for (let i = 0; i < 7; i++) ids.push((await s.store.mail.insert(mail(a, b, now + i), 100)) as MailRow);
    const all = await s.store.mail.inbox(b, null, 100, false);
    expect(all.map((m) => m.id)).toEqual([...ids].reverse().map((m) => m.id));
    const seen: string[] = [];
    let before: number | null = null;
    for (;;) {
      const page: MailRow[] = await s.store.mail.inbox(b, before, 3, false);
      seen.push(...page.map((m) => m.id));
      if (page.length < 3) break;
      before = page.at(-1)!.rid;
    }
    expect(seen).toEqual(all.map((m) => m.id));
    await s.store.mail.markRead(ids[1]!.id, b, now + 50);
    await s.store.mail.markRead(ids[1]!.id, b, now + 60); // the first read mark stays
    await s.store.mail.markRead(ids[2]!.id, a, now + 50); // not the recipient: nothing
    expect((await s.store.mail.get(ids[1]!.id, b))!.readAt).toBe(now + 50);
    expect((await s.store.mail.get(ids[2]!.id, b))!.readAt).toBeNull();
    expect(await s.store.mail.counts(b)).toEqual({ total: 7, unread: 6 });
    expect((await s.store.mail.inbox(b, null, 100, true)).map((m) => m.id)).not.toContain(ids[1]!.id);
    expect(await s.store.mail.inbox(b, null, 100, true)).toHaveLength(6);
    expect(await s.store.mail.inbox(a, null, 100, false)).toEqual([]);
  });

  it('remove: only the recipient, once; the message leaves the inbox and its count, also when reported', async () => {
    const { s, now, a, b } = await setup();
    const m1 = (await s.store.mail.insert(mail(a, b, now), 10)) as MailRow;
    const m2 = (await s.store.mail.insert(mail(a, b, now + 1), 10)) as MailRow;
    expect(await s.store.mail.remove(m1.id, a)).toBe(false);
    expect(await s.store.mail.remove(m1.id, b)).toBe(true);
    expect(await s.store.mail.remove(m1.id, b)).toBe(false);
    expect(await s.store.mail.get(m1.id, b)).toBeNull();
    expect(await s.store.mail.report({ msg: m2.id, reporter: b, sender: a, reason: 'spam', created: now + 2 })).toBe('ok');
    expect((await s.store.mail.get(m2.id, b))!.reported).toBe(true);
    expect(await s.store.mail.remove(m2.id, b)).toBe(true);
    expect(await s.store.mail.remove(m2.id, b)).toBe(false);
    expect(await s.store.mail.get(m2.id, b)).toBeNull();
    expect(await s.store.mail.counts(b)).toEqual({ total: 0, unread: 0 });
    expect(await s.store.mail.inbox(b, null, 10, false)).toEqual([]);
    // The report stays open for the review after the message left the inbox.
    expect((await s.store.mail.openReports(10)).map((r) => r.msg)).toEqual([m2.id]);
  });

  it('reports: one per reporter and message (also under concurrent reports), open ones oldest first, after a restart too', async () => {
    const { s, now, a, b, c } = await setup();
    const m1 = (await s.store.mail.insert(mail(a, b, now), 10)) as MailRow;
    const m2 = (await s.store.mail.insert(mail(a, c, now), 10)) as MailRow;
    const res = await together(10, () => s.store.mail.report({ msg: m1.id, reporter: b, sender: a, reason: 'spam', created: now + 1 }));
    expect(res.filter((r) => r === 'ok')).toHaveLength(1);
    expect(res.filter((r) => r === 'dup')).toHaveLength(9);
    await s.store.mail.report({ msg: m2.id, reporter: c, sender: a, reason: 'abuse', created: now + 2 });
    const again = await s.reopen();
    const reports = await again.mail.openReports(10);
    expect(reports.map((r) => [r.msg, r.reporter, r.sender, r.reason, r.created])).toEqual([
      [m1.id, b, a, 'spam', now + 1],
      [m2.id, c, a, 'abuse', now + 2],
    ]);
    expect(await again.mail.openReports(1)).toHaveLength(1);
    expect(await again.mail.report({ msg: m1.id, reporter: b, sender: a, reason: 'again', created: now + 3 })).toBe('dup');
  });

  it('review: the queue lists open reports since a time with whether the ciphertext is held; a report is decided once (also concurrently); purge deletes the ciphertext', async () => {
    const { s, now, a, b, c } = await setup();
    const m1 = (await s.store.mail.insert(mail(a, b, now), 10)) as MailRow;
    const m2 = (await s.store.mail.insert(mail(a, c, now), 10)) as MailRow;
    await s.store.mail.report({ msg: m1.id, reporter: b, sender: a, reason: 'spam', created: now + 1 });
    await s.store.mail.report({ msg: m2.id, reporter: c, sender: a, reason: 'abuse', created: now + 5 });
    const q = await s.store.mail.reviewQueue(0, 10);
    expect(q.map((r) => [r.msg, r.held, r.size])).toEqual([
      [m1.id, true, 32],
      [m2.id, true, 32],
    ]);
    expect((await s.store.mail.reviewQueue(now + 5, 10)).map((r) => r.msg)).toEqual([m2.id]);
    const res = await together(5, () => s.store.mail.decideReport(q[0]!.id, 'purge', 'spam', now + 6));
    expect(res.filter((r) => typeof r === 'object' && r !== null)).toHaveLength(1);
    expect(res.filter((r) => r === 'decided')).toHaveLength(4);
    expect(await s.store.mail.get(m1.id, b)).toBeNull();
    expect(await s.store.mail.decideReport(987654, 'dismiss', '', now)).toBeNull();
    const again = await s.reopen();
    expect((await again.mail.reviewQueue(0, 10)).map((r) => r.msg)).toEqual([m2.id]);
    expect(await again.mail.decideReport(q[1]!.id, 'dismiss', '', now + 7)).toMatchObject({ msg: m2.id, sender: a });
    expect(await again.mail.get(m2.id, c)).not.toBeNull();
    expect(await again.mail.reviewQueue(0, 10)).toEqual([]);
  });

  it('a message removed by concurrent calls of its recipient is removed once', async () => {
    const { s, now, a, b } = await setup();
    const m = (await s.store.mail.insert(mail(a, b, now), 10)) as MailRow;
    const res = await together(6, () => s.store.mail.remove(m.id, b));
    expect(res.filter(Boolean)).toHaveLength(1);
    expect(await s.store.mail.counts(b)).toEqual({ total: 0, unread: 0 });
  });
}
