// IdentityKeyRepo and SignedConfirmRepo on the tables of migration 013.
import type { IdentityKey, IdentityKeyRepo, SignedConfirm, SignedConfirmRepo } from '../../core/platform/trust/ports.js';
import { type Db, LIMIT } from './db.js';

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

export function sqliteSignedConfirms(db: Db): SignedConfirmRepo {
  // Another kind replaces the earlier statement (a later outcome replaces the earlier one).
  const add = db.prepare(
    `INSERT INTO kb_signed_confirms (entry, id, kind, pub, sig, net, at) VALUES (@entry, @id, @kind, @pub, @sig, @net, @at)
     ON CONFLICT(entry, id) DO UPDATE SET kind = excluded.kind, pub = excluded.pub, sig = excluded.sig, net = excluded.net, at = excluded.at WHERE kb_signed_confirms.kind <> excluded.kind`,
  );
  const drop = db.prepare('DELETE FROM kb_signed_confirms WHERE entry = ? AND id = ?');
  const count = db.prepare('SELECT count(*) AS ids, count(DISTINCT net) AS nets FROM kb_signed_confirms WHERE entry = ?');
  const list = db.prepare(`SELECT entry, id, kind, pub, sig, at FROM kb_signed_confirms WHERE entry = ? ORDER BY at, id ${LIMIT}`);
  return {
    async add(c) {
      return add.run({ ...c, kind: c.kind ?? '' }).changes === 1;
    },
    async drop(entry, id) {
      return drop.run(entry, id).changes === 1;
    },
    async count(entry) {
      return count.get(entry) as { ids: number; nets: number };
    },
    async list(entry, n) {
      return list.all(entry, n) as Array<Omit<SignedConfirm, 'net'>>;
    },
  };
}
