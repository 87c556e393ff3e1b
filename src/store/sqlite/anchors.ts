// SQLite implementation of the AnchorRepo port.
import type { AnchorClaim, AnchorRepo } from '../../core/anchors/ports.js';
import type { Identity } from '../../core/platform/identity/ports.js';
import { LIMIT, type Db } from './db.js';

export function sqliteAnchors(db: Db): AnchorRepo {
  const mineLive = db.prepare('SELECT 1 FROM anchors WHERE key = ? AND owner = ? AND exp > ?');
  const nKey = db.prepare('SELECT count(*) AS n FROM anchors WHERE key = ? AND exp > ?');
  const nOwner = db.prepare('SELECT count(*) AS n FROM anchors WHERE owner = ? AND exp > ?');
  // An expired claim of the same (key, owner) is simply replaced.
  const up = db.prepare(
    `INSERT INTO anchors (key, owner, note, cp, created, updated, exp) VALUES (@key, @owner, @note, @cp, @created, @updated, @exp)
     ON CONFLICT (key, owner) DO UPDATE SET note = excluded.note, cp = excluded.cp, updated = excluded.updated, exp = excluded.exp,
       created = CASE WHEN anchors.exp > @now THEN anchors.created ELSE excluded.created END`,
  );
  const list = db.prepare(
    `SELECT a.*, i.name AS i_name, i.created AS i_created, i.rep AS i_rep, i.confirmed AS i_confirmed
     FROM anchors a JOIN identities i ON i.id = a.owner
     WHERE a.key = ? AND a.exp > ? AND i.frozen = 0 ORDER BY a.created, a.owner`,
  );
  const del = db.prepare('DELETE FROM anchors WHERE key = ? AND owner = ? AND exp > ?');
  const mine = db.prepare(`SELECT * FROM anchors WHERE owner = ? AND exp > ? ORDER BY updated DESC ${LIMIT}`);
  const purge = db.prepare('DELETE FROM anchors WHERE exp <= ?');

  const claim = db.transaction((c: AnchorClaim, now: number, perKey: number, perOwner: number) => {
    const renewed = !!mineLive.get(c.key, c.owner, now);
    if (!renewed) {
      if ((nKey.get(c.key, now) as { n: number }).n >= perKey) return 'full' as const;
      if ((nOwner.get(c.owner, now) as { n: number }).n >= perOwner) return 'mine_full' as const;
    }
    up.run({ ...c, now });
    return { claimants: (nKey.get(c.key, now) as { n: number }).n, renewed };
  });

  return {
    async claim(c, now, perKey, perOwner) {
      return claim(c, now, perKey, perOwner);
    },
    async claimants(key, now) {
      const rows = list.all(key, now) as Array<AnchorClaim & { i_name: string | null; i_created: number; i_rep: number; i_confirmed: number }>;
      return rows.map((r) => {
        const who: Identity = { id: r.owner, name: r.i_name, created: r.i_created, rep: r.i_rep, confirmed: r.i_confirmed, frozen: false };
        return { claim: { key: r.key, owner: r.owner, note: r.note, cp: r.cp, created: r.created, updated: r.updated, exp: r.exp }, who };
      });
    },
    async unclaim(key, owner, now) {
      return del.run(key, owner, now).changes === 1;
    },
    async mine(owner, now, n) {
      return mine.all(owner, now, n) as AnchorClaim[];
    },
    async purgeExpired(now) {
      return purge.run(now).changes;
    },
  };
}
