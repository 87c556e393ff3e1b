// SQLite implementation of the NoteRepo port. Every statement is scoped by owner.
import type { NoteRepo, NoteRow } from '../../core/notes/ports.js';
import { isUnique, LIMIT, type Db } from './db.js';

export function sqliteNotes(db: Db): NoteRepo {
  const cnt = db.prepare('SELECT count(*) AS n FROM notes WHERE owner = ?');
  const ins = db.prepare(
    'INSERT INTO notes (id, owner, nonce, ct, size, created, updated) VALUES (@id, @owner, @nonce, @ct, @size, @created, @updated) RETURNING *',
  );
  const sel = db.prepare('SELECT * FROM notes WHERE id = ? AND owner = ?');
  const upd = db.prepare('UPDATE notes SET nonce = @nonce, ct = @ct, size = @size, updated = @updated WHERE id = @id AND owner = @owner');
  const page = db.prepare(`SELECT * FROM notes WHERE owner = ? AND rid < ? ORDER BY rid DESC ${LIMIT}`);
  const del = db.prepare('DELETE FROM notes WHERE id = ? AND owner = ?');

  const insert = db.transaction((row: Omit<NoteRow, 'rid'>, max: number): NoteRow | 'full' | 'taken' => {
    if ((cnt.get(row.owner) as { n: number }).n >= max) return 'full';
    try {
      return ins.get(row) as NoteRow;
    } catch (e) {
      if (isUnique(e)) return 'taken';
      throw e;
    }
  });

  return {
    async insert(row, max) {
      return insert(row, max);
    },
    async get(id, owner) {
      return (sel.get(id, owner) as NoteRow | undefined) ?? null;
    },
    async update(id, owner, p) {
      return upd.run({ ...p, id, owner }).changes === 1;
    },
    async list(owner, before, n) {
      return page.all(owner, before ?? Number.MAX_SAFE_INTEGER, n) as NoteRow[];
    },
    async count(owner) {
      return (cnt.get(owner) as { n: number }).n;
    },
    async remove(id, owner) {
      return del.run(id, owner).changes === 1;
    },
  };
}
