// IdentityKeyRepo on the identity_keys table (migration 013).
import type { IdentityKey, IdentityKeyRepo } from '../../core/trust/ports.js';
import type { Db } from './db.js';

export function sqliteIdentityKeys(db: Db): IdentityKeyRepo {
  const put = db.prepare('INSERT INTO identity_keys (id, pub, at) VALUES (@id, @pub, @at) ON CONFLICT(id) DO UPDATE SET pub = excluded.pub, at = excluded.at');
  const get = db.prepare('SELECT id, pub, at FROM identity_keys WHERE id = ?');
  return {
    async put(key) {
      put.run(key);
    },
    async get(id) {
      return (get.get(id) as IdentityKey | undefined) ?? null;
    },
  };
}
