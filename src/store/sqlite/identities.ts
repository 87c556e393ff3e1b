import type { Identity, IdentityRepo, SpentProofRepo, TokenClass } from '../../core/platform/identity/ports.js';
import type { Db } from './db.js';

interface Row {
  id: string;
  name: string | null;
  created: number;
  rep: number;
  confirmed: number;
  frozen: number;
}
const toIdentity = (r: Row): Identity => ({ id: r.id, name: r.name, created: r.created, rep: r.rep, confirmed: r.confirmed, frozen: r.frozen === 1 });

export function sqliteIdentities(db: Db): IdentityRepo {
  const insId = db.prepare('INSERT INTO identities (id, name, created, rep, confirmed, frozen) VALUES (?, ?, ?, ?, ?, ?)');
  const insTok = db.prepare('INSERT INTO tokens (hash, id, class, created) VALUES (?, ?, ?, ?)');
  const selId = db.prepare('SELECT * FROM identities WHERE id = ?');
  const selTok = db.prepare('SELECT i.* FROM tokens t JOIN identities i ON i.id = t.id WHERE t.hash = ? AND t.class = ? AND t.revoked = 0');
  const cnt = db.prepare('SELECT count(*) AS n FROM identities');
  const create = db.transaction((rec: Identity, tokenHash: string) => {
    insId.run(rec.id, rec.name, rec.created, rec.rep, rec.confirmed, rec.frozen ? 1 : 0);
    insTok.run(tokenHash, rec.id, 'user', rec.created);
  });
  return {
    async create(rec, tokenHash) {
      create(rec, tokenHash);
    },
    async byId(id) {
      const r = selId.get(id) as Row | undefined;
      return r ? toIdentity(r) : null;
    },
    async byToken(hash, cls: TokenClass) {
      const r = selTok.get(hash, cls) as Row | undefined;
      return r ? toIdentity(r) : null;
    },
    async addToken(id, hash, cls, created) {
      insTok.run(hash, id, cls, created);
    },
    async count() {
      return (cnt.get() as { n: number }).n;
    },
  };
}

export function sqliteSpentProofs(db: Db): SpentProofRepo {
  const ins = db.prepare('INSERT OR IGNORE INTO spent_proofs (challenge, exp) VALUES (?, ?)');
  const purge = db.prepare('DELETE FROM spent_proofs WHERE exp < ?');
  return {
    async spend(challenge, exp) {
      return ins.run(challenge, exp).changes === 1;
    },
    async purgeExpired(now) {
      return purge.run(now).changes;
    },
  };
}
