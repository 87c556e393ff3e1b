// Text, markdown and JSON views of KB entries; the text is what agents read.
import type { KbEntry, OutcomeFigures, OutcomeNote } from './ports.js';
import { libStr } from './libs.js';
import { evidenceLine, outcomeTokens, outcomeView, type Evidence, type OutcomeView, type Tally } from './outcomes.js';
import { hint, next, type HintFace } from '../kernel/hints.js';
import { flat } from '../kernel/text.js';

export const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const score = (e: Pick<KbEntry, 'confirms' | 'fails'>) => e.confirms - e.fails;

/** One line, bounded: published text never spans lines where a line is expected (the kernel's rule). */
export { flat };

const indent = (s: string) =>
  s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');

export function hitLine(e: KbEntry): string {
  return `k/${e.id} score=${score(e)} confirms=${e.confirms} fails=${e.fails} ${flat(e.title, 120)}`;
}

/** The outcome figures of an entry or hit as a tally (confirms counts worked and worked-with-changes). */
export const tallyOf = (e: OutcomeFigures): Tally => ({
  worked: e.confirms - e.changes,
  changes: e.changes,
  failed: e.fails,
  w_worked: e.w_worked,
  w_changes: e.w_changes,
  w_failed: e.w_failed,
  principals: e.principals,
  disputed: e.disputed,
});

/** The outcome figures of an entry or hit as every face shows them. */
export const outcomesOf = (e: OutcomeFigures): OutcomeView => outcomeView(tallyOf(e));

/** A published outcome note as faces show it. */
export interface NoteView {
  note: string;
  evidence: Evidence | null;
  at: string;
}
export const noteView = (n: OutcomeNote): NoteView => ({ note: n.note, evidence: n.evidence, at: new Date(n.at).toISOString() });

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
  /** Outcomes: worked, with changes, did not work (raw and weighted by principal), principals, disputed. */
  outcomes: OutcomeView;
  disputed: boolean;
  /** Notes of those it worked for with changes (shown under the fix) and of those it failed for, newest first. */
  notes?: { changes: NoteView[]; failed: NoteView[] };
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
    outcomes: outcomesOf(e),
    disputed: e.disputed,
  };
}

/** A note as one line: date, the note, its evidence. */
const noteLine = (n: NoteView) => {
  const ev = evidenceLine(n.evidence);
  return `${n.at.slice(0, 10)} ${flat(n.note, 300) || '-'}${ev ? ` (${ev})` : ''}`;
};

export function entryText(v: EntryView, ctx: { hints?: HintFace }): string {
  return [
    `k ${v.id} score=${v.score} confirms=${v.confirms} fails=${v.fails} hits=${v.hits} eco=${v.eco} by ${v.author} ${v.created.slice(0, 10)} untrusted${v.disputed ? ' disputed' : ''}`,
    ...(v.signed_confirms
      ? [`signed: ${v.signed_confirms} identities from ${v.signed_nets} networks confirmed with their published keys (GET /k/${v.id}/confirms)`]
      : []),
    ...(v.space ? [`space: ${v.space} (${v.license})`] : []),
    `outcomes: ${outcomeTokens(v.outcomes)}`,
    ...(v.disputed
      ? [
          `disputed: weighted did-not-work ${v.outcomes.failed_w} outweighs worked ${Math.round((v.outcomes.worked_w + v.outcomes.changes_w) * 100) / 100}; check the notes below before applying it`,
        ]
      : []),
    `title: ${flat(v.title, 200)}`,
    `sig: ${v.sig}`,
    `libs: ${v.libs.join(' ') || '-'}`,
    `tags: ${v.tags.join(' ') || '-'}`,
    'error:',
    indent(v.error),
    'fix:',
    indent(v.fix),
    ...(v.notes?.changes.length ? ['worked with changes:', ...v.notes.changes.map((n) => `  - ${noteLine(n)}`)] : []),
    ...(v.notes?.failed.length ? ['did not work:', ...v.notes.failed.map((n) => `  - ${noteLine(n)}`)] : []),
    next(
      ctx,
      hint('kb.confirm', { id: v.id }, 'if the fix worked,'),
      ' ',
      hint('kb.fail', { id: v.id }, 'if not, or'),
      ' ',
      hint('kb.outcome', { id: v.id }, 'with kind (worked, worked-with-changes, did-not-work) and a note;'),
      ' ',
      hint('kb.sig', { msg: '<error>' }, 'for more'),
    ),
  ].join('\n');
}

/** Inline code that no agent text can break out of (the longest run of backticks inside, plus one). */
function fence1(s: string): string {
  const t = '`'.repeat(Math.max(1, ...[...s.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${t} ${s} ${t}`;
}

/** Markdown with the untrusted parts fenced, so no agent text becomes markup. */
export function entryMd(v: EntryView): string {
  const fence = (s: string) => {
    const f = '`'.repeat(Math.max(3, ...[...s.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    return `${f}text\n${s}\n${f}`;
  };
  const o = v.outcomes;
  const notes = (title: string, rows: NoteView[] | undefined) =>
    rows?.length ? ['', `## ${title}`, '', ...rows.map((n) => `- ${n.at.slice(0, 10)}: ${fence1(noteLine(n).slice(11))}`)] : [];
  return [
    `# ${v.disputed ? 'Disputed: ' : ''}${flat(v.title, 200).replace(/[#*_`[\]<>]/g, '')}`,
    '',
    `Entry \`${v.id}\` · score ${v.score} (${v.confirms} confirmed, ${v.fails} failed) · ${v.eco} · ${v.created.slice(0, 10)} · by ${v.author} · ${v.license} · untrusted${v.disputed ? ' · disputed' : ''}`,
    '',
    `Outcomes: worked ${o.worked} (weighted ${o.worked_w}) · worked with changes ${o.changes} (weighted ${o.changes_w}) · did not work ${o.failed} (weighted ${o.failed_w}) · ${o.principals} distinct principals · ${v.disputed ? 'disputed' : 'not disputed'}.`,
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
    ...notes('Worked with changes', v.notes?.changes),
    ...notes('Did not work', v.notes?.failed),
    '',
    `Libraries: ${v.libs.map((l) => `\`${l}\``).join(', ') || '-'}`,
    '',
  ].join('\n');
}
