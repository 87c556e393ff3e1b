// Identities, tokens and the spent-PoW set on PostgreSQL (ports: src/core/platform/identity/ports.ts).
import type { Identity, IdentityRepo, SpentProofRepo } from '../../core/platform/identity/ports.js';
import type { Sql } from './sql.js';
import type { TokenMemo } from './token-memo.js';

interface Row {
  id: string;
  name: string | null;
  created: number;
  rep: number;
  confirmed: number;
  frozen: boolean;
}
const toIdentity = (r: Row): Identity => ({ id: r.id, name: r.name, created: r.created, rep: r.rep, confirmed: r.confirmed, frozen: r.frozen });
const COLS = 'i.id, i.name, i.created, i.rep, i.confirmed, i.frozen';

/** `memo`: the replica's token memo (token-memo.ts); without one every lookup reads. */
export function pgIdentities(sql: Sql, memo?: TokenMemo): IdentityRepo {
  const read = async (hash: string, cls: string): Promise<Identity | null> => {
    const r = (
      await sql.query<Row>(`SELECT ${COLS} FROM tokens t JOIN identities i ON i.id = t.id WHERE t.hash = $1 AND t.class = $2 AND NOT t.revoked`, [hash, cls])
    ).rows[0];
    return r ? toIdentity(r) : null;
  };
  return {
    async create(rec, tokenHash) {
      // One transaction: an id or token hash in use (unique violation) writes nothing.
      await sql.tx(async (q) => {
        await q.query('INSERT INTO identities (id, name, created, rep, confirmed, frozen) VALUES ($1, $2, $3, $4, $5, $6)', [
          rec.id,
          rec.name,
          rec.created,
          rec.rep,
          rec.confirmed,
          rec.frozen,
        ]);
        await q.query("INSERT INTO tokens (hash, id, class, created) VALUES ($1, $2, 'user', $3)", [tokenHash, rec.id, rec.created]);
      });
    },
    async byId(id) {
      const r = (await sql.query<Row>(`SELECT ${COLS} FROM identities i WHERE i.id = $1`, [id])).rows[0];
      return r ? toIdentity(r) : null;
    },
    byToken: (hash, cls) => (memo ? memo.get(hash, cls, () => read(hash, cls)) : read(hash, cls)),
    async addToken(id, hash, cls, created) {
      await sql.query('INSERT INTO tokens (hash, id, class, created) VALUES ($1, $2, $3, $4)', [hash, id, cls, created]);
    },
    async count() {
      return (await sql.query<{ n: number }>('SELECT count(*) AS n FROM identities')).rows[0]!.n;
    },
  };
}

export function pgSpentProofs(sql: Sql): SpentProofRepo {
  return {
    async spend(challenge, exp) {
      // The primary key decides between replicas: exactly one INSERT of a challenge writes a row.
      return (await sql.query('INSERT INTO spent_proofs (challenge, exp) VALUES ($1, $2) ON CONFLICT (challenge) DO NOTHING', [challenge, exp])).count === 1;
    },
    async purgeExpired(now) {
      return (await sql.query('DELETE FROM spent_proofs WHERE exp < $1', [now])).count;
    },
  };
}
