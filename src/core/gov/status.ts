// Service status: /status (announcements, maintenance windows, freezes, shed level) and the status
// page of one target, /st/{target}. A status target is a part of the service an agent depends on:
// `api` (the whole service) or one freeze kind (src/core/kernel/kinds.ts: drops, notes, mail ...).
// Its state is derived from the control state, never stored: frozen, maintenance, degraded (shed
// level above 0) or operational. The announcement lines are those of topic g:sys.
import { iso } from '../kernel/text.js';
import { maintenanceUntil, type ControlView } from '../platform/control/control.js';
import { FREEZE_KINDS, isWriteKind, type FreezeKind } from '../kernel/kinds.js';
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { readLines } from '../platform/events/topics.js';

export const STATUS_TARGETS: readonly string[] = ['api', ...Object.keys(FREEZE_KINDS)];
export const isStatusTarget = (t: string): boolean => STATUS_TARGETS.includes(t);

/** Whether an operator hid the status page of `target` (POST /admin/st-hide). */
// Hidden targets and announcements are the admin domain's rows, read through its store port (the
// same reads as admin's isStatusHidden and listAnnouncements) rather than its helper files.
export const isHidden = (core: Core, target: string): Promise<boolean> => core.store.admin.hasMark('st_hide', target);

export type TargetState = 'operational' | 'degraded' | 'maintenance' | 'frozen';

/** The state of one target and why, at `now`. */
export function targetState(v: ControlView, shed: number, target: string, now: number): { state: TargetState; why: string; since: number | null } {
  const f = v.frozen;
  const row = (k: string) => v.freezes.find((x) => x.kind === k) ?? null;
  const hit =
    target === 'api'
      ? f.has('all')
        ? 'all'
        : null
      : f.has(target)
        ? target
        : f.has('all')
          ? 'all'
          : isWriteKind(target as FreezeKind) && f.has('write')
            ? 'write'
            : null;
  if (hit) return { state: 'frozen', why: `frozen: ${hit}${row(hit)?.note ? ` (${row(hit)!.note})` : ''}`, since: row(hit)?.since ?? null };
  const until = maintenanceUntil(v, now);
  if (until !== null && (target === 'api' || isWriteKind(target as FreezeKind)))
    return { state: 'maintenance', why: `writes stopped until ${iso(until)}`, since: null };
  if (shed > 0) return { state: 'degraded', why: `shedding load at level ${shed}`, since: null };
  return { state: 'operational', why: 'no freeze, maintenance or shedding', since: null };
}

export interface Announcement {
  seq: number;
  time: string;
  by: string;
  text: string;
}

/**
 * The latest announcement lines of g:sys, newest first: the signed ann1 lines POST /admin/announce
 * publishes there (the feeds sys and st/<target> read them too). People read the recorded
 * announcements (the current ones, `current` of the status view); agents can verify these lines.
 */
export async function announcements(core: Core, n = limit('status.lines')): Promise<Announcement[]> {
  const head = await core.store.events.head('ps:g:sys');
  const lines = await readLines(core, 'g:sys', Math.max(0, head - n), n);
  return lines.reverse().map((l) => ({ seq: l.seq, time: iso(l.time), by: l.by, text: l.text }));
}

export interface StatusView {
  at: string;
  shed: number;
  shed_reasons: string[];
  maintenance_until: string | null;
  freezes: Array<{ kind: string; by: string; note: string; since: string }>;
  maintenance: Array<{ id: number; starts: string; ends: string; text: string }>;
  announcements: Announcement[];
  /** The recorded announcements that have not ended (POST /admin/announce): what a person reads. */
  current: Array<{ id: number; kind: string; starts: string; ends: string; text: string }>;
  targets: Array<{ target: string; state: TargetState; why: string }>;
}

export async function statusOf(core: Core): Promise<StatusView> {
  const v = await core.control.state();
  const s = await core.control.status();
  const now = core.now();
  const targets = [];
  for (const t of STATUS_TARGETS) if (!(await isHidden(core, t))) targets.push({ target: t, ...targetState(v, s.shed, t, now) });
  return {
    at: iso(now),
    shed: s.shed,
    shed_reasons: s.shedReasons,
    maintenance_until: s.maintenanceUntil,
    freezes: v.freezes.map((f) => ({ kind: f.kind, by: f.by, note: f.note, since: iso(f.since) })),
    maintenance: v.maintenance.map((w) => ({ id: w.id, starts: iso(w.starts), ends: iso(w.ends), text: w.text })),
    announcements: await announcements(core),
    current: (await core.store.admin.announcements(core.now(), limit('admin.ann_list'))).map((a) => ({
      id: a.id,
      kind: a.kind,
      starts: iso(a.starts),
      ends: iso(a.ends),
      text: a.text,
    })),
    targets: targets.map(({ target, state, why }) => ({ target, state, why })),
  };
}

export interface StItem {
  id: string;
  title: string;
  summary: string;
  date: string;
}

/**
 * Feed source of `st/<target>` (src/core/feeds plugs it in): the target's current state first (its
 * id changes with the state, so a reader sees each change once), then the announcement lines.
 * Null when the target is unknown or hidden (the feed answers 404 then).
 */
export async function stItems(core: Core, target: string, n: number): Promise<StItem[] | null> {
  if (!isStatusTarget(target) || (await isHidden(core, target))) return null;
  const v = await core.control.state();
  const shed = await core.control.shedLevel();
  const now = core.now();
  const s = targetState(v, shed, target, now);
  const head: StItem = { id: `st:${target}:${s.state}:${s.since ?? ''}`, title: `${target}: ${s.state}`, summary: s.why, date: iso(s.since ?? now) };
  const ann = (await announcements(core, Math.max(0, n - 1))).map((a) => ({
    id: `ann:${a.seq}`,
    title: `announcement #${a.seq}`,
    summary: a.text,
    date: a.time,
  }));
  return [head, ...ann].slice(0, n);
}
