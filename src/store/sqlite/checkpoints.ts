// SQLite implementation of the CheckpointRepo port.
import type { CheckpointMeta, CheckpointRepo, CheckpointRow, NewCheckpoint, ReadVerdict } from '../../core/checkpoints/ports.js';
import type { Identity } from '../../core/platform/identity/ports.js';
import { isUnique, type Db } from './db.js';

interface Row extends Omit<CheckpointRow, 'published' | 'lost' | 'hidden'> {
  published: number;
  lost: number;
  hidden: number;
}
const toCp = (r: Row): CheckpointRow => ({ ...r, published: r.published === 1, lost: r.lost === 1, hidden: r.hidden === 1 });
const META = 'rid, id, owner, name, seq, size, created, exp, published, lost, hidden';
const toMeta = (r: Omit<Row, 'body'>): CheckpointMeta => ({ ...r, published: r.published === 1, lost: r.lost === 1, hidden: r.hidden === 1 });

export function sqliteCheckpoints(db: Db): CheckpointRepo {
  const live = db.prepare('SELECT count(*) AS n FROM checkpoints WHERE owner = ? AND exp > ?');
  const nextSeq = db.prepare('SELECT coalesce(max(seq), 0) + 1 AS s FROM checkpoints WHERE owner = ? AND name = ?');
  const ins = db.prepare(
    `INSERT INTO checkpoints (id, owner, name, seq, body, size, created, exp) VALUES (@id, @owner, @name, @seq, @body, @size, @created, @exp) RETURNING *`,
  );
  // Keep the newest `keep` saves of a name; older ones (and their reader records) go.
  const prune = db.prepare(
    'DELETE FROM checkpoints WHERE owner = @owner AND name = @name AND seq <= (SELECT max(seq) FROM checkpoints WHERE owner = @owner AND name = @name) - @keep',
  );
  const own = db.prepare('SELECT * FROM checkpoints WHERE id = ? AND owner = ? AND exp > ?');
  const pub = db.prepare(
    `SELECT c.*, i.id AS i_id, i.name AS i_name, i.created AS i_created, i.rep AS i_rep, i.confirmed AS i_confirmed, i.frozen AS i_frozen
     FROM checkpoints c JOIN identities i ON i.id = c.owner
     WHERE c.id = ? AND c.published = 1 AND c.hidden = 0 AND c.exp > ?`,
  );
  const isPub = db.prepare('SELECT published FROM checkpoints WHERE rid = ?');
  const hasReader = db.prepare('SELECT 1 FROM cp_readers WHERE cp = ? AND net = ?');
  const nReaders = db.prepare('SELECT count(*) AS n FROM cp_readers WHERE cp = ?');
  const addReader = db.prepare('INSERT OR IGNORE INTO cp_readers (cp, net) VALUES (?, ?)');
  const lose = db.prepare('UPDATE checkpoints SET published = 0, lost = 1 WHERE rid = ?');
  const setPub = db.prepare(
    `UPDATE checkpoints SET published = @on WHERE id = @id AND owner = @owner AND exp > @now AND (@on = 0 OR lost = 0) RETURNING ${META}`,
  );
  const page = db.prepare(
    `SELECT ${META} FROM checkpoints WHERE owner = @owner AND exp > @now AND rid < @before AND (@name IS NULL OR name = @name) ORDER BY rid DESC LIMIT CAST(@n AS INTEGER)`,
  );
  const del = db.prepare('DELETE FROM checkpoints WHERE id = ? AND owner = ?');
  const purge = db.prepare('DELETE FROM checkpoints WHERE exp <= ?');

  const save = db.transaction((row: NewCheckpoint, now: number, max: number, keep: number): CheckpointRow | 'full' | 'taken' => {
    if ((live.get(row.owner, now) as { n: number }).n >= max) return 'full';
    const seq = (nextSeq.get(row.owner, row.name) as { s: number }).s;
    let r: Row;
    try {
      r = ins.get({ ...row, seq }) as Row;
    } catch (e) {
      if (isUnique(e)) return 'taken';
      throw e;
    }
    prune.run({ owner: row.owner, name: row.name, keep });
    return toCp(r);
  });

  const read = db.transaction((rid: number, net: Buffer, cap: number | null): ReadVerdict => {
    const p = isPub.get(rid) as { published: number } | undefined;
    if (!p || p.published !== 1) return 'gone';
    // L2+ owners keep publication whoever reads: nothing to count.
    if (cap === null || hasReader.get(rid, net)) return 'ok';
    // Below L2: the first `cap` distinct networks read; the next one ends the publication.
    if ((nReaders.get(rid) as { n: number }).n >= cap) {
      lose.run(rid);
      return 'over';
    }
    addReader.run(rid, net);
    return 'ok';
  });

  return {
    async save(row, now, max, keep) {
      return save(row, now, max, keep);
    },
    async own(id, owner, now) {
      const r = own.get(id, owner, now) as Row | undefined;
      return r ? toCp(r) : null;
    },
    async published(id, now) {
      const r = pub.get(id, now) as
        | (Row & { i_id: string; i_name: string | null; i_created: number; i_rep: number; i_confirmed: number; i_frozen: number })
        | undefined;
      if (!r) return null;
      const owner: Identity = { id: r.i_id, name: r.i_name, created: r.i_created, rep: r.i_rep, confirmed: r.i_confirmed, frozen: r.i_frozen === 1 };
      return { cp: toCp(r), owner };
    },
    async read(rid, net, cap) {
      return read(rid, net, cap);
    },
    async readers(rid) {
      return (nReaders.get(rid) as { n: number }).n;
    },
    async setPublished(id, owner, on, now) {
      const r = setPub.get({ id, owner, on: on ? 1 : 0, now }) as Omit<Row, 'body'> | undefined;
      return r ? toMeta(r) : null;
    },
    async list(owner, name, before, n, now) {
      return (page.all({ owner, name, before: before ?? Number.MAX_SAFE_INTEGER, n, now }) as Omit<Row, 'body'>[]).map(toMeta);
    },
    async remove(id, owner) {
      return del.run(id, owner).changes === 1;
    },
    async purgeExpired(now) {
      return purge.run(now).changes;
    },
  };
}
