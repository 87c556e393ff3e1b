// Mail between identities: scrubbed on the way in, sealed at rest (AES-256-GCM, subject and body
// together, AAD = id, sender and recipient), readable only by its recipient. A recipient can report a
// message: the report stores a locator (the message id) and the sender, never plaintext; the
// ciphertext stays until the review decides, even if the recipient deletes the message.
import { CxError, notFound } from '../kernel/errors.js';
import { NONCE, open, seal, subkey } from '../kernel/crypto/aead.js';
import { newId } from '../platform/identity/tokens.js';
import { limit } from '../kernel/limits.js';
import type { Core, Ctx } from '../kernel/types.js';
import { checkBytes, cursorOf, flat1, iso, seqOf } from '../platform/workspace.js';
import type { MailRow } from './ports.js';
import { postInbox } from '../platform/events/topics.js';

export interface MailView {
  id: string;
  from: string;
  to: string;
  date: string;
  subject: string;
  body: string;
  size: number;
  read: boolean;
  reported: boolean;
}

export interface MailLine {
  id: string;
  from: string;
  date: string;
  size: number;
  read: boolean;
  subject: string;
}

const keys = new WeakMap<Buffer, Buffer>();
function mailKey(ctx: Pick<Ctx, 'core'>): Buffer {
  const m = ctx.core.config.workspaceKey;
  let k = keys.get(m);
  if (!k) keys.set(m, (k = subkey(m, 'cx-mail-v1')));
  return k;
}
const aad = (r: Pick<MailRow, 'id' | 'sender' | 'recipient'>) => `mail|${r.id}|${r.sender}|${r.recipient}`;

function openMail(ctx: Ctx, r: MailRow): { subject: string; body: string } {
  const plain = open(mailKey(ctx), r.nonce, r.ct, aad(r));
  if (!plain) {
    ctx.core.log.error({ reqId: ctx.reqId, mail: r.id }, 'mail ciphertext failed authentication');
    throw new CxError('internal', `request ${ctx.reqId}`, 500);
  }
  const o = JSON.parse(plain.toString('utf8')) as { s: string; b: string };
  return { subject: o.s, body: o.b };
}

const me = (ctx: Ctx) => ctx.caller.identity!.id;

export async function sendMail(ctx: Ctx, to: string, subject: string, body: string): Promise<{ id: string; to: string; size: number; date: string }> {
  checkBytes('body', body, limit('mail.body'));
  const { core } = ctx;
  // Unknown and frozen recipients read alike: nobody to deliver to.
  const rcpt = await core.store.identities.byId(to);
  if (!rcpt || rcpt.frozen) throw new CxError('notfound', `no agent ${to}`);
  const now = core.now();
  for (let i = 0; i < 5; i++) {
    const id = newId('m', core.random, 10);
    const head = { id, sender: me(ctx), recipient: to };
    const nonce = core.random(NONCE);
    const ct = seal(mailKey(ctx), nonce, JSON.stringify({ s: subject, b: body }), aad(head));
    const r = await core.store.mail.insert({ ...head, nonce, ct, size: Buffer.byteLength(body), created: now }, limit('mail.inbox'));
    if (r === 'full') throw new CxError('dup', `inbox of ${to} is full (${limit('mail.inbox')} messages)`);
    if (r !== 'taken') return { id, to, size: r.size, date: iso(now) };
  }
  throw new CxError('busy', 'id space contention, retry', 503);
}

/**
 * Mail written by the system on an identity's behalf (swarm mb: deliveries): the caller picks the
 * id (a delivery derives it from what it delivers, so a repeated delivery is 'taken', not a second
 * message). 'full' when the recipient's inbox is full.
 */
export async function putMail(core: Core, m: { id: string; from: string; to: string; subject: string; body: string }): Promise<'ok' | 'full' | 'taken'> {
  const head = { id: m.id, sender: m.from, recipient: m.to };
  const nonce = core.random(NONCE);
  const ct = seal(mailKey({ core }), nonce, JSON.stringify({ s: m.subject, b: m.body }), aad(head));
  const r = await core.store.mail.insert({ ...head, nonce, ct, size: Buffer.byteLength(m.body), created: core.now() }, limit('mail.inbox'));
  return r === 'full' || r === 'taken' ? r : 'ok';
}

export async function inbox(
  ctx: Ctx,
  cursor: string | undefined,
  n: number,
  unread: boolean,
): Promise<{ total: number; unread: number; rows: MailLine[]; next: string | null }> {
  const rows = await ctx.core.store.mail.inbox(me(ctx), seqOf(cursor), n + 1, unread);
  const more = rows.length > n;
  const page = rows.slice(0, n);
  const c = await ctx.core.store.mail.counts(me(ctx));
  return {
    total: c.total,
    unread: c.unread,
    rows: page.map((r) => ({
      id: r.id,
      from: r.sender,
      date: iso(r.created),
      size: r.size,
      read: r.readAt !== null,
      subject: flat1(openMail(ctx, r).subject),
    })),
    next: more ? cursorOf(page.at(-1)!.rid) : null,
  };
}

export async function readMail(ctx: Ctx, id: string): Promise<MailView> {
  const r = await ctx.core.store.mail.get(id, me(ctx));
  if (!r) throw notFound();
  const m = openMail(ctx, r);
  if (r.readAt === null) await ctx.core.store.mail.markRead(id, me(ctx), ctx.core.now());
  return { id: r.id, from: r.sender, to: r.recipient, date: iso(r.created), subject: m.subject, body: m.body, size: r.size, read: true, reported: r.reported };
}

export async function deleteMail(ctx: Ctx, id: string): Promise<void> {
  if (!(await ctx.core.store.mail.remove(id, me(ctx)))) throw notFound();
}

export async function reportMail(ctx: Ctx, id: string, reason: string): Promise<{ id: string; from: string }> {
  const r = await ctx.core.store.mail.get(id, me(ctx));
  if (!r) throw notFound();
  const res = await ctx.core.store.mail.report({ msg: id, reporter: me(ctx), sender: r.sender, reason, created: ctx.core.now() });
  if (res === 'dup') throw new CxError('dup', `already reported ${id}`);
  // One operator inbox item per reported message (the review queue lists each report).
  await postInbox(ctx.core, 'mail_report', { ref: id, scope: 'mail', title: `mail report on ${id}`, url: '/admin/x/queue', status: 'open' }).catch((err) =>
    ctx.core.log.warn({ err }, 'inbox item not posted'),
  );
  return { id, from: r.sender };
}
