// Identity signing keys and signed KB confirmations on PostgreSQL (port: src/core/platform/trust/ports.ts;
// tables of migration 013).
import type { IdentityKey, IdentityKeyRepo, SignedConfirm, SignedConfirmRepo } from '../../core/platform/trust/ports.js';
import type { Sql } from './sql.js';

export function pgIdentityKeys(sql: Sql): IdentityKeyRepo {
  return {
    async put(k) {
      await sql.query('INSERT INTO identity_keys (id, pub, at) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET pub = excluded.pub, at = excluded.at', [
        k.id,
        k.pub,
        k.at,
      ]);
    },
    async get(id) {
      return (await sql.query<IdentityKey>('SELECT id, pub, at FROM identity_keys WHERE id = $1', [id])).rows[0] ?? null;
    },
  };
}

export function pgSignedConfirms(sql: Sql): SignedConfirmRepo {
  return {
    async add(c) {
      // Another kind replaces the earlier statement (a later outcome replaces the earlier one).
      return (
        (
          await sql.query(
            `INSERT INTO kb_signed_confirms AS k (entry, id, kind, pub, sig, net, at) VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (entry, id) DO UPDATE SET kind = excluded.kind, pub = excluded.pub, sig = excluded.sig, net = excluded.net, at = excluded.at WHERE k.kind <> excluded.kind`,
            [c.entry, c.id, c.kind ?? '', c.pub, c.sig, c.net, c.at],
          )
        ).count === 1
      );
    },
    async drop(entry, id) {
      return (await sql.query('DELETE FROM kb_signed_confirms WHERE entry = $1 AND id = $2', [entry, id])).count === 1;
    },
    async count(entry) {
      return (
        await sql.query<{ ids: number; nets: number }>('SELECT count(*) AS ids, count(DISTINCT net) AS nets FROM kb_signed_confirms WHERE entry = $1', [entry])
      ).rows[0]!;
    },
    async list(entry, n) {
      return (
        await sql.query<Omit<SignedConfirm, 'net'>>('SELECT entry, id, kind, pub, sig, at FROM kb_signed_confirms WHERE entry = $1 ORDER BY at, id LIMIT $2', [
          entry,
          n,
        ])
      ).rows;
    },
  };
}
