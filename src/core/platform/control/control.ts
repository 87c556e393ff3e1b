// The core's view of the operator control state (freezes, shed level, maintenance windows).
// Every request reads it from memory. Staleness is bounded: a snapshot older than `control.refresh`
// seconds (src/core/kernel/limits.ts) is re-read from the store before it is used, so a change written by
// another process or replica is seen within that bound; a change written through this object is
// seen at once by this process (it re-reads after each write).
import { iso as isoS } from '../../kernel/text.js';
import { CxError } from '../../kernel/errors.js';
import { limit } from '../../kernel/limits.js';
import type { Logger } from '../../kernel/log.js';
import { type FreezeKind, type FreezeScope, isFreezeScope, isWriteKind } from '../../kernel/kinds.js';
import type { ControlRepo, ControlSnapshot, FreezeRow, MaintenanceRow, ShedRow } from './ports.js';

/** A snapshot as the guards use it: the frozen scopes as a set. */
export interface ControlView {
  frozen: ReadonlySet<string>;
  freezes: readonly FreezeRow[];
  shed: ShedRow | null;
  maintenance: readonly MaintenanceRow[];
}

/** What /healthz?v=2 and the operator reads show, at one instant. */
export interface ControlStatus {
  shed: number;
  shedReasons: string[];
  frozen: string[];
  maintenanceUntil: string | null;
}

const viewOf = (s: ControlSnapshot): ControlView => ({
  frozen: new Set(s.freezes.map((f) => f.kind)),
  freezes: s.freezes,
  shed: s.shed,
  maintenance: s.maintenance,
});

/** End of the maintenance running at `now` (the latest end among the windows open then), or null. */
export function maintenanceUntil(v: ControlView, now: number): number | null {
  let until: number | null = null;
  for (const w of v.maintenance) if (w.starts <= now && now < w.ends && (until === null || w.ends > until)) until = w.ends;
  return until;
}

/** Whether `kind` is frozen in `v` (the kind itself, `all`, or `write` for a write kind), or stopped by maintenance. */
export function isFrozen(v: ControlView, kind: FreezeKind, maintenance: boolean, now: number): boolean {
  const f = v.frozen;
  if (f.size && (f.has(kind) || f.has('all') || (isWriteKind(kind) && f.has('write')))) return true;
  return maintenance && v.maintenance.length > 0 && maintenanceUntil(v, now) !== null;
}

export class Control {
  private view: ControlView | null = null;
  /** When the current view's read started, and the newest read applied (reads may finish out of order). */
  private at = -Infinity;
  private gen = 0;
  private applied = 0;
  private loading: Promise<ControlView> | null = null;
  /** Per process: the load this process measures itself (event-loop delay); never stored. */
  private measured: { level: number; reasons: string[] } = { level: 0, reasons: [] };

  constructor(
    private repo: ControlRepo,
    private now: () => number,
    private log: Logger,
    private maxAgeMs = limit('control.refresh') * 1000,
  ) {}

  /** The view, from memory when it is fresh, else re-read (concurrent callers share one read). */
  current(): ControlView | Promise<ControlView> {
    if (this.view && this.now() - this.at < this.maxAgeMs) return this.view;
    return (this.loading ??= this.reload().finally(() => (this.loading = null)));
  }

  async state(): Promise<ControlView> {
    return this.current();
  }

  /** Re-reads the store. A failed read keeps the last view (until the next bound) and is logged. */
  async reload(): Promise<ControlView> {
    const g = ++this.gen;
    const t = this.now();
    try {
      const snap = await this.repo.read(t);
      if (g > this.applied) {
        this.applied = g;
        this.view = viewOf(snap);
        this.at = t;
      }
    } catch (err) {
      if (!this.view) throw err;
      this.log.warn({ err }, 'control state not re-read; the last one is kept');
      this.at = t;
    }
    return this.view!;
  }

  /** Effective status: shed is the larger of the operator's level and this process's measured one. */
  async status(): Promise<ControlStatus> {
    const v = await this.current();
    const op = v.shed?.level ?? 0;
    const m = this.measured;
    const until = maintenanceUntil(v, this.now());
    return {
      shed: Math.max(op, m.level),
      shedReasons: [...(op > 0 ? ['operator'] : []), ...m.reasons],
      frozen: [...v.frozen].sort(),
      maintenanceUntil: until === null ? null : isoS(until),
    };
  }

  /** The effective shed level (operator's or measured, the larger). */
  async shedLevel(): Promise<number> {
    const v = await this.current();
    return Math.max(v.shed?.level ?? 0, this.measured.level);
  }

  /** The effective level from the cached view when it is fresh (no promise on the hot path), else after a re-read. */
  levelNow(): number | Promise<number> {
    const v = this.current();
    const of = (x: ControlView) => Math.max(x.shed?.level ?? 0, this.measured.level);
    return v instanceof Promise ? v.then(of) : of(v);
  }

  /** Per process: the level this process measured (src/http/pressure.ts, every second). */
  measure(level: number, reasons: string[]): void {
    this.measured = { level, reasons };
  }

  /** Freezes or lifts a scope; true when the frozen set changed. */
  async freeze(kind: string, on: boolean, by: string, note = ''): Promise<boolean> {
    if (!isFreezeScope(kind)) throw new CxError('bad', `what: unknown freeze kind ${kind.slice(0, 40)}`);
    checkNote('note', note);
    const changed = await this.repo.setFreeze(kind satisfies FreezeScope, on, by, note, this.now());
    await this.reload();
    if (changed) this.log.info({ kind, on, by }, on ? 'frozen' : 'freeze lifted');
    return changed;
  }

  /** Sets the operator's shed level (0 lifts it). */
  async setShed(level: number, reason: string, by = 'admin'): Promise<void> {
    const max = limit('shed.max_level');
    if (!Number.isInteger(level) || level < 0 || level > max) throw new CxError('bad', `level: an integer 0-${max}`);
    checkNote('reason', reason);
    await this.repo.setShed(level, reason, by, this.now());
    await this.reload();
    this.log.info({ level, by }, 'operator shed level set');
  }

  /** Announces a maintenance window: write kinds stop from `starts` until `ends` (ms). */
  async addMaintenance(w: { starts: number; ends: number; text: string }, by = 'admin'): Promise<MaintenanceRow> {
    if (!Number.isFinite(w.starts) || !Number.isFinite(w.ends) || w.ends <= w.starts) throw new CxError('bad', 'ends: after starts');
    if (w.ends <= this.now()) throw new CxError('bad', 'ends: in the past');
    if (w.text.length > limit('announce.text')) throw new CxError('size', `text over ${limit('announce.text')} chars`, 413);
    const row = await this.repo.addMaintenance({ starts: w.starts, ends: w.ends, text: w.text, by }, this.now());
    await this.reload();
    this.log.info({ id: row.id, starts: w.starts, ends: w.ends, by }, 'maintenance window added');
    return row;
  }

  /** Ends window `id` now, or every window. */
  async clearMaintenance(id?: number): Promise<number> {
    const n = await this.repo.clearMaintenance(id);
    await this.reload();
    return n;
  }
}

function checkNote(field: string, s: string): void {
  if (s.length > limit('control.note')) throw new CxError('size', `${field} over ${limit('control.note')} chars`, 413);
}
