// Text, markdown and JSON views of KB entries; the text is what agents read.
import type { KbEntry } from './ports.js';
import { libStr } from './libs.js';

export const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const score = (e: Pick<KbEntry, 'confirms' | 'fails'>) => e.confirms - e.fails;

/** One line, bounded: published text never spans lines where a line is expected. */
export function flat(s: string, max = 400): string {
  const f = s.replace(/\s+/g, ' ').trim();
  return f.length > max ? f.slice(0, max - 1) + '…' : f;
}

const indent = (s: string) => s.split('\n').map((l) => `  ${l}`).join('\n');

export function hitLine(e: KbEntry): string {
  return `k/${e.id} score=${score(e)} confirms=${e.confirms} fails=${e.fails} ${flat(e.title, 120)}`;
}

export interface EntryView {
  id: string;
  url: string;
  title: string;
  sig: string;
  h: string;
  eco: string;
  class: string;
  libs: string[];
  tags: string[];
  error: string;
  fix: string;
  author: string;
  created: string;
  updated: string;
  score: number;
  confirms: number;
  fails: number;
  hits: number;
  license: string;
  /** Distinct identities that signed their confirmation (conf1), and their distinct networks. */
  signed_confirms?: number;
  signed_nets?: number;
  /** `s:<slug>` of a private space entry. */
  space?: string;
}

export function entryView(e: KbEntry, base: string): EntryView {
  return {
    id: e.id,
    url: `${base}/k/${e.id}`,
    title: e.title,
    sig: e.sig,
    h: e.h,
    eco: e.eco,
    class: e.cls,
    libs: e.libs.map(libStr),
    tags: e.tags,
    error: e.error,
    fix: e.fix,
    author: e.author,
    created: new Date(e.created).toISOString(),
    updated: new Date(e.updated).toISOString(),
    score: score(e),
    confirms: e.confirms,
    fails: e.fails,
    hits: e.hits,
    license: 'CC0-1.0',
  };
}

export function entryText(v: EntryView): string {
  return [
    `k ${v.id} score=${v.score} confirms=${v.confirms} fails=${v.fails} hits=${v.hits} eco=${v.eco} by ${v.author} ${v.created.slice(0, 10)} untrusted`,
    ...(v.signed_confirms ? [`signed: ${v.signed_confirms} identities from ${v.signed_nets} networks confirmed with their published keys (GET /k/${v.id}/confirms)`] : []),
    ...(v.space ? [`space: ${v.space} (${v.license})`] : []),
    `title: ${flat(v.title, 200)}`,
    `sig: ${v.sig}`,
    `libs: ${v.libs.join(' ') || '-'}`,
    `tags: ${v.tags.join(' ') || '-'}`,
    'error:',
    indent(v.error),
    'fix:',
    indent(v.fix),
    `next: POST /k/${v.id}/ok if the fix worked, POST /k/${v.id}/fail if not; GET /e/<error> for more`,
  ].join('\n');
}

/** Markdown with the untrusted parts fenced, so no agent text becomes markup. */
export function entryMd(v: EntryView): string {
  const fence = (s: string) => {
    const f = '`'.repeat(Math.max(3, ...[...s.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    return `${f}text\n${s}\n${f}`;
  };
  return [
    `# ${flat(v.title, 200).replace(/[#*_`[\]<>]/g, '')}`,
    '',
    `Entry \`${v.id}\` · score ${v.score} (${v.confirms} confirmed, ${v.fails} failed) · ${v.eco} · ${v.created.slice(0, 10)} · by ${v.author} · ${v.license} · untrusted`,
    ...(v.signed_confirms ? ['', `Signed confirmations: ${v.signed_confirms} identities from ${v.signed_nets} networks.`] : []),
    '',
    `Signature: \`${v.sig.replace(/`/g, "'")}\``,
    '',
    '## Error',
    '',
    fence(v.error),
    '',
    '## Fix',
    '',
    fence(v.fix),
    '',
    `Libraries: ${v.libs.map((l) => `\`${l}\``).join(', ') || '-'}`,
    '',
  ].join('\n');
}
