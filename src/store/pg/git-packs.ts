// The git mirror's history on PostgreSQL (port: GitPackRepo in src/core/gitmirror/ports.ts; table
// git_packs, migration 029). Append is one statement: it inserts seq = newest + 1 only while the
// newest row is the parent, and two replicas appending at once collide on the seq key, so one wins
// and the other gets false.
import type { GitPackRepo, MirrorPack } from '../../core/gitmirror/ports.js';
import type { Sql } from './sql.js';

type Row = { seq: number; commit_id: string; parent: string | null; time: string | number; pack?: Buffer | Uint8Array };
const out = (r: Row) => ({ seq: Number(r.seq), commit: r.commit_id, parent: r.parent, time: Number(r.time), ...(r.pack ? { pack: Buffer.from(r.pack) } : {}) });

export function pgGitPacks(sql: Sql): GitPackRepo {
  return {
    async tip() {
      const r = (await sql.query<Row>('SELECT seq, commit_id, parent, time FROM git_packs ORDER BY seq DESC LIMIT 1')).rows[0];
      return r ? (out(r) as Omit<MirrorPack, 'pack'>) : null;
    },
    async after(seq, limit) {
      return (await sql.query<Row>('SELECT seq, commit_id, parent, time, pack FROM git_packs WHERE seq > $1 ORDER BY seq LIMIT $2', [seq, limit])).rows.map(
        (r) => out(r) as MirrorPack,
      );
    },
    async seqOf(commit) {
      const r = (await sql.query<{ seq: number }>('SELECT seq FROM git_packs WHERE commit_id = $1', [commit])).rows[0];
      return r ? Number(r.seq) : null;
    },
    async append(p) {
      const r = await sql.query(
        `INSERT INTO git_packs (seq, commit_id, parent, time, pack)
         SELECT COALESCE(MAX(seq), 0) + 1, $1, $2::text, $3, $4 FROM git_packs
         HAVING (SELECT commit_id FROM git_packs ORDER BY seq DESC LIMIT 1) IS NOT DISTINCT FROM $2::text
         ON CONFLICT DO NOTHING`,
        [p.commit, p.parent, p.time, p.pack],
      );
      return r.count === 1;
    },
  };
}
