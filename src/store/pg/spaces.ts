// Spaces on PostgreSQL (port: src/core/spaces/ports.ts): spaces, memberships and roles, invites,
// member counters, and the private KB entries of spaces (read only with the caller's spaces).
import type { Space, SpaceRepo, SpaceRole } from '../../core/spaces/ports.js';
import { likeOf, rankByWords, SPACE_KB_COLS, SPACE_SCAN, spaceEntryOf, spaceKbRow, type SpaceKbRow } from '../space-kb-rows.js';
import type { Sql } from './sql.js';

export function pgSpaces(sql: Sql): SpaceRepo {
  const num = async (text: string, params: unknown[]) => Number((await sql.query<{ n: number }>(text, params)).rows[0]!.n);
  const exists = async (slug: string) => (await sql.query('SELECT 1 FROM spaces WHERE slug = $1', [slug])).rows.length > 0;
  const entries = async (text: string, params: unknown[]) => (await sql.query<SpaceKbRow>(text, params)).rows.map(spaceEntryOf);
  /** `body LIKE $k ESCAPE '\'` for each word from parameter `from`, joined by AND or OR. */
  const likes = (n: number, from: number, all: boolean) =>
    Array.from({ length: n }, (_, i) => `body LIKE $${from + i} ESCAPE '\\'`).join(all ? ' AND ' : ' OR ');
  return {
    async create(s) {
      // The slug's primary key decides between concurrent creates; the creator joins (owner) in the same transaction.
      return sql.tx(async (q) => {
        const made = await q.query('INSERT INTO spaces (slug, title, creator, created, closed) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (slug) DO NOTHING', [
          s.slug,
          s.title,
          s.creator,
          s.created,
          !!s.closed,
        ]);
        if (made.count !== 1) return false;
        await q.query("INSERT INTO space_members (space, member, joined, role) VALUES ($1, $2, $3, 'owner') ON CONFLICT DO NOTHING", [
          s.slug,
          s.creator,
          s.created,
        ]);
        return true;
      });
    },
    async bySlug(slug) {
      const r = (await sql.query<Space>('SELECT slug, title, creator, created, closed FROM spaces WHERE slug = $1', [slug])).rows[0];
      return r ? { ...r, created: Number(r.created), closed: !!r.closed } : null;
    },
    async join(slug, member, now) {
      if (!(await exists(slug))) return null;
      return (
        await sql.query("INSERT INTO space_members (space, member, joined, role) VALUES ($1, $2, $3, 'member') ON CONFLICT DO NOTHING", [slug, member, now])
      ).count === 1
        ? 'new'
        : 'member';
    },
    async leave(slug, member) {
      if (!(await exists(slug))) return null;
      return (await sql.query('DELETE FROM space_members WHERE space = $1 AND member = $2', [slug, member])).count === 1 ? 'left' : 'not';
    },
    async isMember(slug, member) {
      return (await sql.query('SELECT 1 FROM space_members WHERE space = $1 AND member = $2', [slug, member])).rows.length > 0;
    },
    async role(slug, member) {
      return (await sql.query<{ role: SpaceRole }>('SELECT role FROM space_members WHERE space = $1 AND member = $2', [slug, member])).rows[0]?.role ?? null;
    },
    async closedSpacesOf(member) {
      return (
        await sql.query<{ space: string }>(
          'SELECT m.space FROM space_members m JOIN spaces s ON s.slug = m.space AND s.closed WHERE m.member = $1 ORDER BY m.space',
          [member],
        )
      ).rows.map((r) => r.space);
    },
    async counts(slug) {
      return {
        members: await num('SELECT count(*) AS n FROM space_members WHERE space = $1', [slug]),
        fixes: await num('SELECT count(*) AS n FROM space_members m JOIN kb_entries e ON e.author = m.member AND NOT e.hidden WHERE m.space = $1', [slug]),
      };
    },
    async members(slug, limit) {
      return (
        await sql.query<{ member: string; joined: number }>('SELECT member, joined FROM space_members WHERE space = $1 ORDER BY joined DESC, member LIMIT $2', [
          slug,
          limit,
        ])
      ).rows;
    },
    createdBy: (id) => num('SELECT count(*) AS n FROM spaces WHERE creator = $1', [id]),
    joinedBy: (id) => num('SELECT count(*) AS n FROM space_members WHERE member = $1', [id]),
    async addInvite(i) {
      await sql.query('INSERT INTO space_invites (h, space, role, by, created, expires) VALUES ($1, $2, $3, $4, $5, $6)', [
        i.h,
        i.space,
        i.role,
        i.by,
        i.created,
        i.expires,
      ]);
    },
    openInvites: (slug, now) => num('SELECT count(*) AS n FROM space_invites WHERE space = $1 AND expires > $2', [slug, now]),
    async redeemInvite(h, slug, member, now) {
      // The DELETE spends the invite: of two concurrent redeems, one deletes the row, the other finds none.
      return sql.tx(async (q) => {
        const got = (
          await q.query<{ role: SpaceRole }>('DELETE FROM space_invites WHERE h = $1 AND space = $2 AND expires > $3 RETURNING role', [h, slug, now])
        ).rows[0];
        if (!got) return null;
        const made = await q.query('INSERT INTO space_members (space, member, joined, role) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
          slug,
          member,
          now,
          got.role,
        ]);
        if (made.count === 1) return 'joined';
        if (got.role === 'owner') await q.query("UPDATE space_members SET role = 'owner' WHERE space = $1 AND member = $2", [slug, member]);
        return 'member';
      });
    },
    async kbInsert(e) {
      const r = spaceKbRow(e);
      return (
        (
          await sql.query(
            'INSERT INTO space_kb (id, space, sig, h, ch, title, error, fix, eco, cls, tags, libs, author, created, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) ON CONFLICT (id) DO NOTHING',
            [r.id, r.space, r.sig, r.h, r.ch, r.title, r.error, r.fix, r.eco, r.cls, r.tags, r.libs, r.author, r.created, r.body],
          )
        ).count === 1
      );
    },
    async kbById(id, spaces) {
      if (!spaces.length) return null;
      return (await entries(`SELECT ${SPACE_KB_COLS} FROM space_kb WHERE id = $1 AND space = ANY($2::text[])`, [id, spaces]))[0] ?? null;
    },
    async kbByHash(h, spaces, limit) {
      return spaces.length
        ? entries(`SELECT ${SPACE_KB_COLS} FROM space_kb WHERE h = $1 AND space = ANY($2::text[]) ORDER BY created DESC, id LIMIT $3`, [h, spaces, limit])
        : [];
    },
    async kbByCoarse(ch, spaces, limit) {
      return spaces.length && ch
        ? entries(`SELECT ${SPACE_KB_COLS} FROM space_kb WHERE ch = $1 AND space = ANY($2::text[]) ORDER BY created DESC, id LIMIT $3`, [ch, spaces, limit])
        : [];
    },
    async kbRetrieve(words, spaces, limit) {
      if (!spaces.length || !words.length) return [];
      const got = await sql.query<SpaceKbRow>(
        `SELECT ${SPACE_KB_COLS} FROM space_kb WHERE space = ANY($1::text[]) AND (${likes(words.length, 3, false)}) ORDER BY created DESC, id LIMIT $2`,
        [spaces, SPACE_SCAN, ...words.map(likeOf)],
      );
      return rankByWords(got.rows, words, limit);
    },
    async kbSearch(words, spaces, limit) {
      if (!spaces.length || !words.length) return [];
      return entries(
        `SELECT ${SPACE_KB_COLS} FROM space_kb WHERE space = ANY($1::text[]) AND (${likes(words.length, 3, true)}) ORDER BY created DESC, id LIMIT $2`,
        [spaces, limit, ...words.map(likeOf)],
      );
    },
    kbList: (slug, limit) => entries(`SELECT ${SPACE_KB_COLS} FROM space_kb WHERE space = $1 ORDER BY created, id LIMIT $2`, [slug, limit]),
    kbCount: (slug) => num('SELECT count(*) AS n FROM space_kb WHERE space = $1', [slug]),
    async kbPurge(slug) {
      return sql.tx(async (q) => {
        await q.query('DELETE FROM space_invites WHERE space = $1', [slug]);
        return (await q.query('DELETE FROM space_kb WHERE space = $1', [slug])).count;
      });
    },
  };
}
