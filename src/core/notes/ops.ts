// Note operations: private per identity, encrypted at rest. REST under /v1/notes.
import { z } from 'zod';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import type { AnyOperation, Ctx } from '../kernel/types.js';
import { flat1 } from '../platform/workspace.js';
import { createNote, deleteNote, getNote, listNotes, searchNotes, updateNote, type NoteView } from './notes.js';
import { hint, next } from '../kernel/hints.js';

const noteId = z.string().regex(/^n[0-9a-z]{8}$/, 'want n + 8 chars');
const title = z
  .string()
  .max(limit('note.title'))
  .describe(`at most ${limit('note.title')} chars`);
// The byte limit is checked in the core, so every face gets the same 413 `err size`.
const body = z
  .string()
  .min(1, 'empty')
  .describe(`text, at most ${limit('note.body')} bytes UTF-8`);
const page = z.number().int().min(1).max(limit('ws.page'));

const noteOut = z.object({ id: z.string(), title: z.string(), body: z.string(), size: z.number(), created: z.string(), updated: z.string() });
const lineOut = z.object({ id: z.string(), title: z.string(), size: z.number(), updated: z.string() });

// The body stays last, after the blank line: the next line is one of the header's.
const noteText = (v: NoteView, ctx: Ctx) =>
  [
    `note ${v.id} created=${v.created} updated=${v.updated} size=${v.size}`,
    `title: ${flat1(v.title) || '-'}`,
    next(ctx, hint('note.update', { id: v.id }, 'to change it')),
    '',
    v.body,
  ].join('\n');

export const noteCreateOp = defineOp({
  name: 'note.create',
  title: 'Write a private note',
  summary: 'Store a private note (title optional, body text). Only you can read it; encrypted at rest.',
  input: z.object({ title: title.default(''), body }).strict(),
  output: noteOut,
  auth: 'token',
  readOnly: false,
  quota: ['write', 'write_net'],
  freeze: 'notes',
  rest: { method: 'POST', path: '/v1/notes', status: 201, textBody: 'body', sizeLimit: 'note.body', bodyLimit: 4 * limit('note.body') },
  run: (ctx, i) => createNote(ctx, i.title, i.body),
  text: (v, ctx) => `ok note ${v.id} size=${v.size}\n${next(ctx, hint('note.get', { id: v.id }), '; ', hint('note.update', { id: v.id }, 'to change it'))}`,
});

export const noteGetOp = defineOp({
  name: 'note.get',
  title: 'Read a note',
  summary: 'One of your notes: title and body.',
  input: z.object({ id: noteId }).strict(),
  output: noteOut,
  auth: 'token',
  readOnly: true,
  rest: { method: 'GET', path: '/v1/notes/:id', cache: 'private, no-store' },
  run: (ctx, i) => getNote(ctx, i.id),
  text: noteText,
});

export const noteUpdateOp = defineOp({
  name: 'note.update',
  title: 'Change a note',
  summary: 'Replace the title, the body, or both, of one of your notes.',
  input: z.object({ id: noteId, title: title.optional(), body: body.optional() }).strict(),
  output: noteOut,
  auth: 'token',
  readOnly: false,
  idempotent: true,
  quota: ['write', 'write_net'],
  freeze: 'notes',
  rest: { method: 'PUT', path: '/v1/notes/:id', textBody: 'body', sizeLimit: 'note.body', bodyLimit: 4 * limit('note.body') },
  run: (ctx, i) => updateNote(ctx, i.id, i.title, i.body),
  text: (v, ctx) => `ok note ${v.id} size=${v.size} updated=${v.updated}\n${next(ctx, hint('note.get', { id: v.id }))}`,
});

const listOut = z.object({ total: z.number(), rows: z.array(lineOut), next: z.string().nullable() });

export const noteListOp = defineOp({
  name: 'note.list',
  title: 'List my notes',
  summary: 'Your notes, newest first, a page at a time (cursor from the previous page).',
  input: z.object({ cursor: z.string().max(40).optional(), n: page.default(20) }).strict(),
  output: listOut,
  auth: 'token',
  readOnly: true,
  rest: { method: 'GET', path: '/v1/notes', cache: 'private, no-store' },
  run: (ctx, i) => listNotes(ctx, i.cursor, i.n),
  text: (o, ctx) =>
    [
      `notes total=${o.total} shown=${o.rows.length}`,
      ...o.rows.map((r) => `${r.id} ${r.updated} size=${r.size} ${r.title}`),
      o.next ? next(ctx, hint('note.list', { cursor: o.next })) : next(ctx, hint('note.create', undefined, 'to write one')),
    ].join('\n'),
});

export const noteSearchOp = defineOp({
  name: 'note.search',
  title: 'Search my notes',
  summary: 'Your notes containing every word of q (case-insensitive), newest first.',
  input: z.object({ q: z.string().min(1).max(limit('note.q')), n: page.default(20) }).strict(),
  output: z.object({ q: z.string(), scanned: z.number(), rows: z.array(lineOut.extend({ excerpt: z.string() })) }),
  auth: 'token',
  readOnly: true,
  quota: ['read'],
  rest: { method: 'GET', path: '/v1/notes/search', cache: 'private, no-store' },
  run: (ctx, i) => searchNotes(ctx, i.q, i.n),
  text: (o, ctx) =>
    [
      `notes q=${flat1(o.q)} hits=${o.rows.length} scanned=${o.scanned}`,
      ...o.rows.map((r) => `${r.id} ${r.updated} ${r.title}\n  ${r.excerpt}`),
      o.rows.length ? next(ctx, hint('note.get', { id: o.rows[0]!.id })) : next(ctx, hint('note.list', undefined, 'lists them all')),
    ].join('\n'),
});

export const noteDeleteOp = defineOp({
  name: 'note.delete',
  title: 'Delete a note',
  summary: 'Delete one of your notes for good.',
  input: z.object({ id: noteId }).strict(),
  output: z.object({ ok: z.literal(true), id: z.string() }),
  auth: 'token',
  readOnly: false,
  idempotent: true,
  destructive: true,
  rest: { method: 'DELETE', path: '/v1/notes/:id' },
  async run(ctx, i) {
    await deleteNote(ctx, i.id);
    return { ok: true as const, id: i.id };
  },
  text: (o, ctx) => `ok deleted ${o.id}\n${next(ctx, hint('note.list', undefined, 'for the notes left'))}`,
});

export const noteOps: AnyOperation[] = [noteCreateOp, noteListOp, noteSearchOp, noteGetOp, noteUpdateOp, noteDeleteOp];
