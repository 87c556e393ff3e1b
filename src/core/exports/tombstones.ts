// Removals as the exports see them. Whatever takes content down (an operator hiding a KB entry, an
// upheld notice, a purged root) records a tombstone here: the row stays out of every later export
// for good, and tombstones.jsonl lists the removal (ids, kind, time, reason; never content) for
// export.tombstone_days. A restored row is taken back with clearTombstone.
import { CxError } from '../kernel/errors.js';
import type { Core } from '../kernel/types.js';
import { TOMB_KINDS, type TombKind } from './ports.js';

const REASON = /^[\x20-\x7e]{1,80}$/;

/** Records that `id` of `kind` was removed (`identity`: everything that identity published). */
export async function recordTombstone(core: Core, t: { kind: TombKind; id: string; reason: string }): Promise<void> {
  if (!TOMB_KINDS.includes(t.kind)) throw new CxError('bad', `tombstone kind must be one of ${TOMB_KINDS.join(', ')}`);
  if (!t.id || t.id.length > 300 || /[\r\n]/.test(t.id)) throw new CxError('bad', 'tombstone id: 1-300 characters on one line');
  // The reason is published: a short code-like word list (purged, notice, hidden, operator...), never content.
  const reason = REASON.test(t.reason) ? t.reason : 'removed';
  await core.store.exports.tombstone({ kind: t.kind, id: t.id, removed_at: core.now(), reason });
}

/** Content restored (a reversed notice): its rows return to the next export. */
export async function clearTombstone(core: Core, kind: TombKind, id: string): Promise<boolean> {
  return core.store.exports.untomb(kind, id);
}

/**
 * Removes a KB entry: tombstoned first, then hidden from every read. Run again after a crash
 * between the two, it completes; a tombstone alone already keeps the entry out of exports.
 */
export async function removeKbEntry(core: Core, id: string, reason: string): Promise<boolean> {
  await recordTombstone(core, { kind: 'kb', id, reason });
  return core.store.kb.setHidden(id, true);
}
