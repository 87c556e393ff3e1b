// Secret fingerprints on SQLite (port: KeyPrintRepo in src/core/platform/secrets/ports.ts; table key_prints, migration 028).
import type { KeyPrintRepo } from '../../core/platform/secrets/ports.js';
import type { Db } from './db.js';

export function sqliteKeyPrints(db: Db): KeyPrintRepo {
  const add = db.prepare('INSERT INTO key_prints (name, print, at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING');
  const all = db.prepare('SELECT name, print FROM key_prints');
  const set = db.prepare('INSERT INTO key_prints (name, print, at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET print = excluded.print, at = excluded.at');
  const keep = db.transaction((prints: Record<string, string>, now: number) => {
    for (const [name, print] of Object.entries(prints)) add.run(name, print, now);
    return Object.fromEntries((all.all() as { name: string; print: string }[]).map((r) => [r.name, r.print]));
  });
  return {
    async keep(prints, now) {
      return keep(prints, now);
    },
    async set(name, print, now) {
      set.run(name, print, now);
    },
  };
}
