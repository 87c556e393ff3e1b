// Spaces on PostgreSQL (port: src/core/spaces/ports.ts): spaces, memberships, member counters.
import type { Space, SpaceRepo } from '../../core/spaces/ports.js';
import type { Sql } from './sql.js';

export function pgSpaces(sql: Sql): SpaceRepo {
  const num = async (text: string, params: unknown[]) => (await sql.query<{ n: number }>(text, params)).rows[0]!.n;
  const exists = async (slug: string) => (await sql.query('SELECT 1 FROM spaces WHERE slug = $1', [slug])).rows.length > 0;
  return {
    async create(s) {
      // The slug's primary key decides between concurrent creates; the creator joins in the same transaction.
      return sql.tx(async (q) => {
        const made = await q.query('INSERT INTO spaces (slug, title, creator, created) VALUES ($1, $2, $3, $4) ON CONFLICT (slug) DO NOTHING', [s.slug, s.title, s.creator, s.created]);
        if (made.count !== 1) return false;
        await q.query('INSERT INTO space_members (space, member, joined) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [s.slug, s.creator, s.created]);
        return true;
      });
    },
    async bySlug(slug) {
      return (await sql.query<Space>('SELECT slug, title, creator, created FROM spaces WHERE slug = $1', [slug])).rows[0] ?? null;
    },
    async join(slug, member, now) {
      if (!(await exists(slug))) return null;
      return (await sql.query('INSERT INTO space_members (space, member, joined) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [slug, member, now])).count === 1 ? 'new' : 'member';
    },
    async leave(slug, member) {
      if (!(await exists(slug))) return null;
      return (await sql.query('DELETE FROM space_members WHERE space = $1 AND member = $2', [slug, member])).count === 1 ? 'left' : 'not';
    },
    async isMember(slug, member) {
      return (await sql.query('SELECT 1 FROM space_members WHERE space = $1 AND member = $2', [slug, member])).rows.length > 0;
    },
    async counts(slug) {
      return {
        members: await num('SELECT count(*) AS n FROM space_members WHERE space = $1', [slug]),
        fixes: await num('SELECT count(*) AS n FROM space_members m JOIN kb_entries e ON e.author = m.member AND NOT e.hidden WHERE m.space = $1', [slug]),
      };
    },
    async members(slug, limit) {
      return (await sql.query<{ member: string; joined: number }>('SELECT member, joined FROM space_members WHERE space = $1 ORDER BY joined DESC, member LIMIT $2', [slug, limit])).rows;
    },
    createdBy: (id) => num('SELECT count(*) AS n FROM spaces WHERE creator = $1', [id]),
    joinedBy: (id) => num('SELECT count(*) AS n FROM space_members WHERE member = $1', [id]),
  };
}
