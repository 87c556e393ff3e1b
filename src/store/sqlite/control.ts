// Operator control state on SQLite (port: src/core/platform/control/ports.ts). Each write is one statement
// or one transaction, so concurrent writers never lose each other's freezes.
import type { ControlRepo, FreezeRow, MaintenanceRow, ShedRow } from '../../core/platform/control/ports.js';
import type { Db } from './db.js';

export function sqliteControl(db: Db): ControlRepo {
  const freezes = db.prepare('SELECT kind, actor AS "by", note, since FROM control_freezes ORDER BY kind');
  const shed = db.prepare('SELECT level, reason, actor AS "by", since FROM control_shed WHERE one = 1');
  const windows = db.prepare('SELECT id, starts, ends, text, actor AS "by" FROM control_maintenance WHERE ends > ? ORDER BY starts, id');
  const freeze = db.prepare(
    'INSERT INTO control_freezes (kind, actor, note, since) VALUES (?, ?, ?, ?) ON CONFLICT (kind) DO UPDATE SET actor = excluded.actor, note = excluded.note',
  );
  const frozen = db.prepare('SELECT 1 FROM control_freezes WHERE kind = ?');
  const lift = db.prepare('DELETE FROM control_freezes WHERE kind = ?');
  const setShed = db.prepare(
    'INSERT INTO control_shed (one, level, reason, actor, since) VALUES (1, ?, ?, ?, ?) ON CONFLICT (one) DO UPDATE SET level = excluded.level, reason = excluded.reason, actor = excluded.actor, since = excluded.since',
  );
  const clearShed = db.prepare('DELETE FROM control_shed');
  const purge = db.prepare('DELETE FROM control_maintenance WHERE ends <= ?');
  const addWindow = db.prepare('INSERT INTO control_maintenance (starts, ends, text, actor) VALUES (?, ?, ?, ?)');
  const dropWindow = db.prepare('DELETE FROM control_maintenance WHERE id = ?');
  const dropWindows = db.prepare('DELETE FROM control_maintenance');

  const read = db.transaction((now: number) => ({
    freezes: freezes.all() as FreezeRow[],
    shed: (shed.get() as ShedRow | undefined) ?? null,
    maintenance: windows.all(now) as MaintenanceRow[],
  }));
  const setFreeze = db.transaction((kind: string, on: boolean, by: string, note: string, now: number): boolean => {
    const was = frozen.get(kind) !== undefined;
    if (on) freeze.run(kind, by, note, now);
    else if (was) lift.run(kind);
    return was !== on;
  });
  const add = db.transaction((w: Omit<MaintenanceRow, 'id'>, now: number): MaintenanceRow => {
    purge.run(now);
    const id = Number(addWindow.run(w.starts, w.ends, w.text, w.by).lastInsertRowid);
    return { id, ...w };
  });

  return {
    async read(now) {
      return read(now);
    },
    async setFreeze(kind, on, by, note, now) {
      return setFreeze(kind, on, by, note, now);
    },
    async setShed(level, reason, by, now) {
      if (level === 0) clearShed.run();
      else setShed.run(level, reason, by, now);
    },
    async addMaintenance(w, now) {
      return add(w, now);
    },
    async clearMaintenance(id) {
      return (id === undefined ? dropWindows.run() : dropWindow.run(id)).changes;
    },
  };
}
