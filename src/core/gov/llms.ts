// Revisions of the voted sections of /llms.txt. Revision 1 is the built-in text (rules.ts); each
// adopted `llms` proposal appends one revision for its section, and a veto appends one that puts
// the section's previous text back: the history only grows, so `?rev=N` always serves what was.
import { CxError } from '../kernel/errors.js';
import type { Core } from '../kernel/types.js';
import type { LlmsRev, Proposal } from './ports.js';
import { LLMS_SECTIONS } from './rules.js';

export interface LlmsVersion {
  rev: number;
  latest: number;
  sections: Array<{ key: string; title: string; text: string }>;
}

/** Text of every section as of revision `rev` (from the stored history `revs`, oldest first). */
function sectionsAt(revs: readonly LlmsRev[], rev: number): Map<string, string> {
  const m = new Map(Object.entries(LLMS_SECTIONS).map(([k, v]) => [k, v.text]));
  for (const r of revs) if (r.rev <= rev) m.set(r.section, r.text);
  return m;
}

/** The voted sections at `rev` (default: the latest); `404 err notfound` past the latest. */
export async function llmsVersion(core: Core, rev?: number): Promise<LlmsVersion> {
  const revs = await core.store.gov.llmsRevs();
  const latest = revs.length ? revs[revs.length - 1]!.rev : 1;
  const at = rev ?? latest;
  if (at < 1 || at > latest) throw new CxError('notfound', `no revision ${at}; latest is ${latest}`);
  const m = sectionsAt(revs, at);
  return { rev: at, latest, sections: Object.entries(LLMS_SECTIONS).map(([key, s]) => ({ key, title: s.title, text: m.get(key) ?? s.text })) };
}

/** Adopts an llms proposal's wording as a new revision; its number. */
export async function adoptLlms(core: Core, p: Proposal, why: string): Promise<number> {
  const r = await core.store.gov.addLlmsRev({ section: p.section!, text: p.body, proposal: p.id, why, created: core.now() });
  core.log.info({ rev: r.rev, proposal: p.id, section: p.section }, 'llms.txt section revised');
  return r.rev;
}

/** After a veto: when the proposal's wording is the section's current text, the previous text comes back. */
export async function revertLlms(core: Core, p: Proposal): Promise<number | null> {
  const revs = await core.store.gov.llmsRevs();
  const mine = revs.filter((r) => r.proposal === p.id && r.section === p.section);
  const last = mine[mine.length - 1];
  if (!last) return null;
  const now = sectionsAt(revs, Infinity).get(p.section!);
  if (now !== last.text) return null;
  const before = sectionsAt(revs, last.rev - 1).get(p.section!)!;
  const r = await core.store.gov.addLlmsRev({ section: p.section!, text: before, proposal: p.id, why: `veto of ${p.id}`, created: core.now() });
  return r.rev;
}
