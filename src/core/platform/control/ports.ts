// Operator control state: freezes, the operator's shed level and maintenance windows. It lives in the
// store so that a restart keeps it and every replica sees the same; the core reads it through the
// cached reader of control.ts, never per request from the store.

/** One frozen scope (`drops`, `write`, `all` ...): who froze it, why, since when (ms). */
export interface FreezeRow {
  kind: string;
  by: string;
  note: string;
  since: number;
}

/** The load-shedding level an operator set (0 is never stored: it lifts the setting). */
export interface ShedRow {
  level: number;
  reason: string;
  by: string;
  since: number;
}

/** An announced maintenance window: writes stop from `starts` until `ends` (ms). */
export interface MaintenanceRow {
  id: number;
  starts: number;
  ends: number;
  text: string;
  by: string;
}

export interface ControlSnapshot {
  freezes: FreezeRow[];
  shed: ShedRow | null;
  /** Windows that have not ended, by `starts`. */
  maintenance: MaintenanceRow[];
}

export interface ControlRepo {
  /** The whole state (a few rows); windows that ended at or before `now` are left out. */
  read(now: number): Promise<ControlSnapshot>;
  /**
   * Freezes (`on`) or lifts `kind`; true when the frozen set changed. Freezing a frozen kind keeps its
   * `since` and takes the new `by` and `note`; lifting a kind that is not frozen changes nothing.
   */
  setFreeze(kind: string, on: boolean, by: string, note: string, now: number): Promise<boolean>;
  /** Sets the operator's shed level; level 0 removes the setting. */
  setShed(level: number, reason: string, by: string, now: number): Promise<void>;
  /** Adds a window (ids grow); windows that ended at or before `now` are purged on the way. */
  addMaintenance(w: Omit<MaintenanceRow, 'id'>, now: number): Promise<MaintenanceRow>;
  /** Removes window `id`, or every window when `id` is omitted; how many went. */
  clearMaintenance(id?: number): Promise<number>;
}
