// Leadership on SQLite (port: src/core/leader/ports.ts): one process owns the database file, so it
// leads every named piece of work.
import type { LeaderRepo } from '../../core/leader/ports.js';

export function sqliteLeader(): LeaderRepo {
  return {
    async hold() {
      return true;
    },
    async release() {},
  };
}
