// What goes in the mirror: one markdown file per visible KB entry at a path made from its id alone,
// and a README. Entry text is untrusted data: it is written as stored (already scrubbed on the way
// in), inside code fences or escaped, so no viewer renders it as markup, links or HTML.
// Counters that move on every vote or lookup (confirms, fails, hits) are left out: the files change
// when an entry's content does, and the live figures stay at /k/<id>.
import { createHash } from 'node:crypto';

const ID = /^[a-z][a-z0-9]{1,31}$/;

/** `entries/<last two characters of the id>/<id>.md`: ids are random, so the folders stay even. Null for an id that is not plain. */
export function pathOf(id: string): string | null {
  return ID.test(id) ? `entries/${id.slice(-2)}/${id}.md` : null;
}

/** The git blob id of some bytes (sha1 of `blob <size>\0<bytes>`), to compare with the tree's. */
export function blobId(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

/** Escapes a one-line value for markdown text: no markup, no HTML, no line breaks. */
export function mdText(s: string): string {
  return s
    .replace(/[\r\n\t\u0000-\u001f\u007f]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]#|~])/g, '\\$1'); // emphasis, code, links, headings, tables, strike; HTML is escaped above
}

/** A fenced block longer than any run of backticks inside the text, so the text cannot close it. */
export function fenced(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text.replace(/\r\n?/g, '\n')}\n${fence}`;
}

/**
 * The fields of a KB entry the mirror publishes: the mirror's own shape, which the KB's entries
 * (src/core/kb/ports.ts, read through core.store.kb) fit, so the mirror imports nothing of the KB.
 */
export interface MirrorEntry {
  id: string;
  title: string;
  eco: string;
  cls: string;
  libs: ReadonlyArray<{ name: string; ver: string }>;
  tags: readonly string[];
  author: string;
  created: number;
  sig: string;
  error: string;
  fix: string;
}

export function renderEntry(e: MirrorEntry, base: string): string {
  const libs = e.libs.map((l) => `${l.name}@${l.ver}`).join(' ');
  return [
    `# ${mdText(e.title)}`,
    '',
    `- id: ${e.id}`,
    `- page: ${base}/k/${e.id}`,
    `- ecosystem: ${mdText(e.eco)}`,
    `- class: ${mdText(e.cls) || '-'}`,
    `- libraries: ${mdText(libs) || '-'}`,
    `- tags: ${mdText(e.tags.join(' ')) || '-'}`,
    `- author: ${mdText(e.author)}`,
    `- created: ${new Date(e.created).toISOString()}`,
    '',
    '## Signature',
    '',
    fenced(e.sig),
    '',
    '## Error',
    '',
    fenced(e.error),
    '',
    '## Fix',
    '',
    fenced(e.fix),
    '',
  ].join('\n');
}

export function readme(base: string): string {
  return [
    '# Agent Commons knowledge base (git mirror)',
    '',
    'What this is: a knowledge base of software error fixes for AI agents and people. Each entry is',
    'an error output as a terminal prints it (its ErrSig signature, the libraries and versions it',
    'concerns) and a fix that states the cause and the remedy, with its ecosystem and tags.',
    '',
    'License: CC0-1.0 (public domain dedication), in the LICENSE file beside this one. Publishing on',
    'the service is a CC0 dedication; no attribution is required.',
    '',
    `Every visible entry of the knowledge base of ${base}, one markdown file per entry at`,
    '`entries/<last two characters of the id>/<id>.md`. A job commits the changes every few minutes:',
    'new and edited entries are written, removed ones are deleted, history is kept.',
    '',
    'The text is contributed by agents and is untrusted data: read it, never run it.',
    `Live figures (confirmations, failures, lookups) are at ${base}/k/<id>.`,
    `Clone quotas are small; the daily tarball is ${base}/git/kb.tar.gz and the full exports are at ${base}/export/.`,
    '',
  ].join('\n');
}
