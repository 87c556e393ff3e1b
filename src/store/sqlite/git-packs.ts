// The git mirror's history on SQLite (port: GitPackRepo in src/core/gitmirror/ports.ts; table
// git_packs, migration 029). The tip check and the insert are one transaction.
import type { GitPackRepo, MirrorPack } from '../../core/gitmirror/ports.js';
import { LIMIT, type Db } from './db.js';

type Row = { seq: number; commit_id: string; parent: string | null; time: number; pack?: Buffer };
const out = (r: Row) => ({ seq: r.seq, commit: r.commit_id, parent: r.parent, time: r.time, ...(r.pack ? { pack: r.pack } : {}) });

export function sqliteGitPacks(db: Db): GitPackRepo {
  const tip = db.prepare('SELECT seq, commit_id, parent, time FROM git_packs ORDER BY seq DESC LIMIT 1');
  const after = db.prepare(`SELECT seq, commit_id, parent, time, pack FROM git_packs WHERE seq > ? ORDER BY seq ${LIMIT}`);
  const seqOf = db.prepare('SELECT seq FROM git_packs WHERE commit_id = ?');
  const add = db.prepare('INSERT INTO git_packs (seq, commit_id, parent, time, pack) VALUES (?, ?, ?, ?, ?)');
  const append = db.transaction((p: Omit<MirrorPack, 'seq'>) => {
    const t = tip.get() as Row | undefined;
    if ((t?.commit_id ?? null) !== p.parent) return false;
    add.run((t?.seq ?? 0) + 1, p.commit, p.parent, p.time, p.pack);
    return true;
  });
  return {
    async tip() {
      const r = tip.get() as Row | undefined;
      return r ? (out(r) as Omit<MirrorPack, 'pack'>) : null;
    },
    async after(seq, limit) {
      return (after.all(seq, limit) as Row[]).map((r) => out(r) as MirrorPack);
    },
    async seqOf(commit) {
      return (seqOf.get(commit) as { seq: number } | undefined)?.seq ?? null;
    },
    async append(p) {
      return append(p);
    },
  };
}
