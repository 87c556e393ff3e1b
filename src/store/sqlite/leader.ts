// Leadership on SQLite (port: src/core/platform/leader/ports.ts): one process owns the database file, so it
// leads every named piece of work.
import type { LeaderRepo } from '../../core/platform/leader/ports.js';

export function sqliteLeader(): LeaderRepo {
  return {
    async hold() {
      return true;
    },
    async release() {},
  };
}
