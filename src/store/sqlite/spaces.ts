// SQLite implementation of the spaces port: spaces, memberships and roles, invites, member
// counters, and the private KB entries of spaces (table space_kb, read only with the caller's spaces).
import type { Space, SpaceInvite, SpaceRepo, SpaceRole } from '../../core/spaces/ports.js';
import { likeOf, rankByWords, SPACE_KB_COLS, SPACE_SCAN, spaceEntryOf, spaceKbRow, type SpaceKbRow } from '../space-kb-rows.js';
import { LIMIT, type Db } from './db.js';

export function sqliteSpaces(db: Db): SpaceRepo {
  const ins = db.prepare('INSERT OR IGNORE INTO spaces (slug, title, creator, created, closed) VALUES (@slug, @title, @creator, @created, @closed)');
  const sel = db.prepare('SELECT slug, title, creator, created, closed FROM spaces WHERE slug = ?');
  const insMember = db.prepare('INSERT OR IGNORE INTO space_members (space, member, joined, role) VALUES (?, ?, ?, ?)');
  const delMember = db.prepare('DELETE FROM space_members WHERE space = ? AND member = ?');
  const roleOf = db.prepare('SELECT role FROM space_members WHERE space = ? AND member = ?');
  const spacesOf = db.prepare('SELECT m.space FROM space_members m JOIN spaces s ON s.slug = m.space AND s.closed = 1 WHERE m.member = ? ORDER BY m.space');
  const members = db.prepare('SELECT count(*) AS n FROM space_members WHERE space = ?');
  const fixes = db.prepare('SELECT count(*) AS n FROM space_members m JOIN kb_entries e ON e.author = m.member AND e.hidden = 0 WHERE m.space = ?');
  const list = db.prepare(`SELECT member, joined FROM space_members WHERE space = ? ORDER BY joined DESC, member ${LIMIT}`);
  const createdBy = db.prepare('SELECT count(*) AS n FROM spaces WHERE creator = ?');
  const joinedBy = db.prepare('SELECT count(*) AS n FROM space_members WHERE member = ?');
  const insInvite = db.prepare('INSERT INTO space_invites (h, space, role, by, created, expires) VALUES (@h, @space, @role, @by, @created, @expires)');
  const openInvites = db.prepare('SELECT count(*) AS n FROM space_invites WHERE space = ? AND expires > ?');
  const spend = db.prepare('DELETE FROM space_invites WHERE h = ? AND space = ? AND expires > ? RETURNING role');
  const kbIns = db.prepare(
    'INSERT OR IGNORE INTO space_kb (id, space, sig, h, ch, title, error, fix, eco, cls, tags, libs, author, created, body) VALUES (@id, @space, @sig, @h, @ch, @title, @error, @fix, @eco, @cls, @tags, @libs, @author, @created, @body)',
  );
  // The caller's spaces as one JSON array parameter: one statement whatever their number.
  const IN = 'space IN (SELECT value FROM json_each(?))';
  const kbId = db.prepare(`SELECT ${SPACE_KB_COLS} FROM space_kb WHERE id = ? AND ${IN}`);
  const kbH = db.prepare(`SELECT ${SPACE_KB_COLS} FROM space_kb WHERE h = ? AND ${IN} ORDER BY created DESC, id ${LIMIT}`);
  const kbCh = db.prepare(`SELECT ${SPACE_KB_COLS} FROM space_kb WHERE ch = ? AND ${IN} ORDER BY created DESC, id ${LIMIT}`);
  const kbList = db.prepare(`SELECT ${SPACE_KB_COLS} FROM space_kb WHERE space = ? ORDER BY created, id ${LIMIT}`);
  const kbCount = db.prepare('SELECT count(*) AS n FROM space_kb WHERE space = ?');
  const kbDel = db.prepare('DELETE FROM space_kb WHERE space = ?');
  const invDel = db.prepare('DELETE FROM space_invites WHERE space = ?');
  const likeAny = (n: number, all: boolean) =>
    db.prepare(
      `SELECT ${SPACE_KB_COLS} FROM space_kb WHERE ${IN} AND (${Array(n)
        .fill("body LIKE ? ESCAPE '\\'")
        .join(all ? ' AND ' : ' OR ')}) ORDER BY created DESC, id ${LIMIT}`,
    );
  const likeMemo = new Map<string, ReturnType<typeof likeAny>>();
  const like = (n: number, all: boolean) => {
    const k = `${n}${all}`;
    let st = likeMemo.get(k);
    if (!st) likeMemo.set(k, (st = likeAny(n, all)));
    return st;
  };

  const createTx = db.transaction((s: Space): boolean => {
    if (ins.run({ ...s, closed: s.closed ? 1 : 0 }).changes !== 1) return false;
    insMember.run(s.slug, s.creator, s.created, 'owner');
    return true;
  });
  const redeemTx = db.transaction((h: string, slug: string, member: string, now: number): 'joined' | 'member' | null => {
    const got = spend.get(h, slug, now) as { role: SpaceRole } | undefined;
    if (!got) return null;
    if (insMember.run(slug, member, now, got.role).changes === 1) return 'joined';
    // Already a member: an owner's invite still raises the role.
    if (got.role === 'owner') db.prepare("UPDATE space_members SET role = 'owner' WHERE space = ? AND member = ?").run(slug, member);
    return 'member';
  });
  const purgeTx = db.transaction((slug: string): number => {
    invDel.run(slug);
    return kbDel.run(slug).changes;
  });
  const n = (st: { get(...a: unknown[]): unknown }, ...a: unknown[]) => (st.get(...a) as { n: number }).n;
  const rows = (st: { all(...a: unknown[]): unknown[] }, ...a: unknown[]) => (st.all(...a) as SpaceKbRow[]).map(spaceEntryOf);
  const spaceOf = (r: (Omit<Space, 'closed'> & { closed: number }) | undefined): Space | null => (r ? { ...r, closed: r.closed === 1 } : null);

  return {
    async create(s) {
      return createTx(s);
    },
    async bySlug(slug) {
      return spaceOf(sel.get(slug) as (Omit<Space, 'closed'> & { closed: number }) | undefined);
    },
    async join(slug, member, now) {
      if (!sel.get(slug)) return null;
      return insMember.run(slug, member, now, 'member').changes === 1 ? 'new' : 'member';
    },
    async leave(slug, member) {
      if (!sel.get(slug)) return null;
      return delMember.run(slug, member).changes === 1 ? 'left' : 'not';
    },
    async isMember(slug, member) {
      return roleOf.get(slug, member) !== undefined;
    },
    async role(slug, member) {
      return (roleOf.get(slug, member) as { role: SpaceRole } | undefined)?.role ?? null;
    },
    async closedSpacesOf(member) {
      return (spacesOf.all(member) as Array<{ space: string }>).map((r) => r.space);
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
    async addInvite(i: SpaceInvite) {
      insInvite.run(i);
    },
    async openInvites(slug, now) {
      return n(openInvites, slug, now);
    },
    async redeemInvite(h, slug, member, now) {
      return redeemTx(h, slug, member, now);
    },
    async kbInsert(e) {
      return kbIns.run(spaceKbRow(e)).changes === 1;
    },
    async kbById(id, spaces) {
      if (!spaces.length) return null;
      const r = kbId.get(id, JSON.stringify(spaces)) as SpaceKbRow | undefined;
      return r ? spaceEntryOf(r) : null;
    },
    async kbByHash(h, spaces, limit) {
      return spaces.length ? rows(kbH, h, JSON.stringify(spaces), limit) : [];
    },
    async kbByCoarse(ch, spaces, limit) {
      return spaces.length && ch ? rows(kbCh, ch, JSON.stringify(spaces), limit) : [];
    },
    async kbRetrieve(words, spaces, limit) {
      if (!spaces.length || !words.length) return [];
      const got = like(words.length, false).all(JSON.stringify(spaces), ...words.map(likeOf), SPACE_SCAN) as SpaceKbRow[];
      return rankByWords(got, words, limit);
    },
    async kbSearch(words, spaces, limit) {
      if (!spaces.length || !words.length) return [];
      return rows(like(words.length, true), JSON.stringify(spaces), ...words.map(likeOf), limit);
    },
    async kbList(slug, limit) {
      return rows(kbList, slug, limit);
    },
    async kbCount(slug) {
      return n(kbCount, slug);
    },
    async kbPurge(slug) {
      return purgeTx(slug);
    },
  };
}
