// Private notes: sealed at rest with AES-256-GCM (title and body together), owner-scoped in every
// query. Search cannot use an index over ciphertext, so it decrypts the owner's notes in memory:
// the per-identity cap (note.max) bounds that work, and nothing about the words is ever stored.
import { CxError, notFound } from '../kernel/errors.js';
import { NONCE, open, seal, subkey } from '../kernel/crypto/aead.js';
import { newId } from '../platform/identity/tokens.js';
import { limit } from '../kernel/limits.js';
import type { Ctx } from '../kernel/types.js';
import { checkBytes, cursorOf, flat1, iso, seqOf } from '../platform/workspace.js';
import type { NoteRow } from './ports.js';

export interface NoteView {
  id: string;
  title: string;
  body: string;
  size: number;
  created: string;
  updated: string;
}

export interface NoteLine {
  id: string;
  title: string;
  size: number;
  updated: string;
}

const keys = new WeakMap<Buffer, Buffer>();
function noteKey(ctx: Ctx): Buffer {
  const m = ctx.core.config.workspaceKey;
  let k = keys.get(m);
  if (!k) keys.set(m, (k = subkey(m, 'cx-notes-v1')));
  return k;
}
const aad = (id: string, owner: string) => `note|${id}|${owner}`;

function sealNote(ctx: Ctx, id: string, owner: string, title: string, body: string): { nonce: Buffer; ct: Buffer } {
  const nonce = ctx.core.random(NONCE);
  return { nonce, ct: seal(noteKey(ctx), nonce, JSON.stringify({ t: title, b: body }), aad(id, owner)) };
}

function openNote(ctx: Ctx, r: NoteRow): { title: string; body: string } {
  const plain = open(noteKey(ctx), r.nonce, r.ct, aad(r.id, r.owner));
  if (!plain) {
    // A row that fails authentication was tampered with or moved: never shown, logged for the operator.
    ctx.core.log.error({ reqId: ctx.reqId, note: r.id }, 'note ciphertext failed authentication');
    throw new CxError('internal', `request ${ctx.reqId}`, 500);
  }
  const o = JSON.parse(plain.toString('utf8')) as { t: string; b: string };
  return { title: o.t, body: o.b };
}

/** The title, or the start of the body when there is none. */
const label = (title: string, body: string) => flat1(title || body).slice(0, limit('note.title'));

const view = (r: NoteRow, n: { title: string; body: string }): NoteView => ({
  id: r.id,
  title: n.title,
  body: n.body,
  size: r.size,
  created: iso(r.created),
  updated: iso(r.updated),
});

const me = (ctx: Ctx) => ctx.caller.identity!.id;

export async function createNote(ctx: Ctx, title: string, body: string): Promise<NoteView> {
  checkBytes('body', body, limit('note.body'));
  const owner = me(ctx);
  const now = ctx.core.now();
  for (let i = 0; i < 5; i++) {
    const id = newId('n', ctx.core.random, 8);
    const r = await ctx.core.store.notes.insert(
      { id, owner, ...sealNote(ctx, id, owner, title, body), size: Buffer.byteLength(body), created: now, updated: now },
      limit('note.max'),
    );
    if (r === 'full') throw new CxError('dup', `at most ${limit('note.max')} notes: delete some first`);
    if (r !== 'taken') return view(r, { title, body });
  }
  throw new CxError('busy', 'id space contention, retry', 503);
}

export async function getNote(ctx: Ctx, id: string): Promise<NoteView> {
  const r = await ctx.core.store.notes.get(id, me(ctx));
  if (!r) throw notFound();
  return view(r, openNote(ctx, r));
}

export async function updateNote(ctx: Ctx, id: string, title: string | undefined, body: string | undefined): Promise<NoteView> {
  if (title === undefined && body === undefined) throw new CxError('bad', 'input: give title or body');
  if (body !== undefined) checkBytes('body', body, limit('note.body'));
  const owner = me(ctx);
  const r = await ctx.core.store.notes.get(id, owner);
  if (!r) throw notFound();
  const prev = openNote(ctx, r);
  const next = { title: title ?? prev.title, body: body ?? prev.body };
  const now = ctx.core.now();
  const patch = { ...sealNote(ctx, id, owner, next.title, next.body), size: Buffer.byteLength(next.body), updated: now };
  if (!(await ctx.core.store.notes.update(id, owner, patch))) throw notFound();
  return view({ ...r, ...patch }, next);
}

export async function listNotes(ctx: Ctx, cursor: string | undefined, n: number): Promise<{ total: number; rows: NoteLine[]; next: string | null }> {
  const owner = me(ctx);
  const rows = await ctx.core.store.notes.list(owner, seqOf(cursor), n + 1);
  const more = rows.length > n;
  const page = rows.slice(0, n);
  return {
    total: await ctx.core.store.notes.count(owner),
    rows: page.map((r) => {
      const o = openNote(ctx, r);
      return { id: r.id, title: label(o.title, o.body), size: r.size, updated: iso(r.updated) };
    }),
    next: more ? cursorOf(page.at(-1)!.rid) : null,
  };
}

/** Every word (case-insensitive) must occur in the title or body. Newest notes first. */
export async function searchNotes(ctx: Ctx, q: string, n: number): Promise<{ q: string; scanned: number; rows: Array<NoteLine & { excerpt: string }> }> {
  const words = [...new Set(q.toLowerCase().split(/\s+/).filter(Boolean))];
  if (!words.length) throw new CxError('bad', 'q: give at least one word');
  const all = await ctx.core.store.notes.list(me(ctx), null, limit('note.max'));
  const rows: Array<NoteLine & { excerpt: string }> = [];
  let scanned = 0;
  for (const r of all) {
    scanned++;
    const o = openNote(ctx, r);
    const text = `${o.title}\n${o.body}`;
    const hay = text.toLowerCase();
    if (!words.every((w) => hay.includes(w))) continue;
    const at = Math.max(0, hay.indexOf(words[0]!) - 30);
    rows.push({ id: r.id, title: label(o.title, o.body), size: r.size, updated: iso(r.updated), excerpt: flat1(text.slice(at, at + 120)) });
    if (rows.length >= n) break;
  }
  return { q, scanned, rows };
}

export async function deleteNote(ctx: Ctx, id: string): Promise<void> {
  if (!(await ctx.core.store.notes.remove(id, me(ctx)))) throw notFound();
}
