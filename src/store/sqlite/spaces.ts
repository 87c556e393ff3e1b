// SQLite implementation of the spaces port: spaces, memberships, member counters.
import type { Space, SpaceRepo } from '../../core/spaces/ports.js';
import { LIMIT, type Db } from './db.js';

export function sqliteSpaces(db: Db): SpaceRepo {
  const ins = db.prepare('INSERT OR IGNORE INTO spaces (slug, title, creator, created) VALUES (@slug, @title, @creator, @created)');
  const sel = db.prepare('SELECT slug, title, creator, created FROM spaces WHERE slug = ?');
  const insMember = db.prepare('INSERT OR IGNORE INTO space_members (space, member, joined) VALUES (?, ?, ?)');
  const delMember = db.prepare('DELETE FROM space_members WHERE space = ? AND member = ?');
  const isMember = db.prepare('SELECT 1 FROM space_members WHERE space = ? AND member = ?');
  const members = db.prepare('SELECT count(*) AS n FROM space_members WHERE space = ?');
  const fixes = db.prepare('SELECT count(*) AS n FROM space_members m JOIN kb_entries e ON e.author = m.member AND e.hidden = 0 WHERE m.space = ?');
  const list = db.prepare(`SELECT member, joined FROM space_members WHERE space = ? ORDER BY joined DESC, member ${LIMIT}`);
  const createdBy = db.prepare('SELECT count(*) AS n FROM spaces WHERE creator = ?');
  const joinedBy = db.prepare('SELECT count(*) AS n FROM space_members WHERE member = ?');

  const createTx = db.transaction((s: Space): boolean => {
    if (ins.run(s).changes !== 1) return false;
    insMember.run(s.slug, s.creator, s.created);
    return true;
  });
  const n = (st: { get(...a: unknown[]): unknown }, ...a: unknown[]) => (st.get(...a) as { n: number }).n;

  return {
    async create(s) {
      return createTx(s);
    },
    async bySlug(slug) {
      return (sel.get(slug) as Space | undefined) ?? null;
    },
    async join(slug, member, now) {
      if (!sel.get(slug)) return null;
      return insMember.run(slug, member, now).changes === 1 ? 'new' : 'member';
    },
    async leave(slug, member) {
      if (!sel.get(slug)) return null;
      return delMember.run(slug, member).changes === 1 ? 'left' : 'not';
    },
    async isMember(slug, member) {
      return isMember.get(slug, member) !== undefined;
    },
    async counts(slug) {
      return { members: n(members, slug), fixes: n(fixes, slug) };
    },
    async members(slug, limit) {
      return list.all(slug, limit) as Array<{ member: string; joined: number }>;
    },
    async createdBy(id) {
      return n(createdBy, id);
    },
    async joinedBy(id) {
      return n(joinedBy, id);
    },
  };
}
