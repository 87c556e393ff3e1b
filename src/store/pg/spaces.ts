// Spaces on PostgreSQL (port: src/core/spaces/ports.ts): spaces, memberships and roles, invites,
// member counters, and the private KB entries of spaces (read only with the caller's spaces) with
// their outcomes and earlier signature hashes.
import type { Evidence, OutcomeKind } from '../../core/kb/outcomes.js';
import type { OutcomeResult, StaleSig } from '../../core/kb/ports.js';
import type { SpaceKbRepo } from '../../core/kb/space/ports.js';
import type { LeaveResult, Space, SpaceRepo, SpaceRole } from '../../core/spaces/ports.js';
import {
  likeOf,
  outcomeRowOf,
  rankByWords,
  SPACE_KB_COLS,
  SPACE_KB_COLS_E,
  SPACE_SCAN,
  SPACE_SIG_RANK,
  spaceBody,
  spaceEntryOf,
  spaceKbRow,
  spaceSigRank,
  type SpaceKbRow,
  type SpaceOutcomeRow,
} from '../space-kb-rows.js';
import type { Sql } from './sql.js';

export function pgSpaces(sql: Sql): SpaceRepo & SpaceKbRepo {
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
      // The space's row lock orders leaves and removals in it: of two owners leaving at once, the
      // second sees the first gone.
      return sql.tx(async (q): Promise<LeaveResult | null> => {
        const sp = (await q.query<{ closed: boolean }>('SELECT closed FROM spaces WHERE slug = $1 FOR UPDATE', [slug])).rows[0];
        if (!sp) return null;
        const role = (await q.query<{ role: SpaceRole }>('SELECT role FROM space_members WHERE space = $1 AND member = $2', [slug, member])).rows[0]?.role;
        if (!role) return 'not';
        if (sp.closed && role === 'owner') {
          const c = (
            await q.query<{ owners: number; members: number; entries: number }>(
              `SELECT (SELECT count(*) FROM space_members WHERE space = $1 AND role = 'owner' AND member <> $2)::int AS owners,
                      (SELECT count(*) FROM space_members WHERE space = $1 AND member <> $2)::int AS members,
                      (SELECT count(*) FROM space_kb WHERE space = $1)::int AS entries`,
              [slug, member],
            )
          ).rows[0]!;
          if (c.owners === 0 && (c.members > 0 || c.entries > 0)) return 'last-owner';
        }
        await q.query('DELETE FROM space_members WHERE space = $1 AND member = $2', [slug, member]);
        return 'left';
      });
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
            'INSERT INTO space_kb (id, space, sig, h, ch, title, error, fix, eco, cls, tags, libs, author, created, body, sigv) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) ON CONFLICT (id) DO NOTHING',
            [r.id, r.space, r.sig, r.h, r.ch, r.title, r.error, r.fix, r.eco, r.cls, r.tags, r.libs, r.author, r.created, r.body, r.sigv],
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
        ? entries(`SELECT ${SPACE_KB_COLS} FROM space_kb WHERE h = $1 AND space = ANY($2::text[]) ORDER BY ${SPACE_SIG_RANK} LIMIT $3`, [h, spaces, limit])
        : [];
    },
    async kbByCoarse(ch, spaces, limit) {
      return spaces.length && ch
        ? entries(`SELECT ${SPACE_KB_COLS} FROM space_kb WHERE ch = $1 AND space = ANY($2::text[]) ORDER BY ${SPACE_SIG_RANK} LIMIT $3`, [ch, spaces, limit])
        : [];
    },
    async kbByOldHash(h, spaces, limit) {
      return spaces.length
        ? entries(
            `SELECT ${SPACE_KB_COLS_E} FROM space_kb_alias a JOIN space_kb e ON e.id = a.id WHERE a.h = $1 AND e.space = ANY($2::text[]) ORDER BY ${spaceSigRank('e.')} LIMIT $3`,
            [h, spaces, limit],
          )
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
        // Their outcomes and old hashes go with them (ON DELETE CASCADE).
        return (await q.query('DELETE FROM space_kb WHERE space = $1', [slug])).count;
      });
    },
    async kbOutcome(o, spaces, tallyOf) {
      if (!spaces.length) return null;
      return sql.tx(async (q): Promise<OutcomeResult | null> => {
        // The entry's row lock orders concurrent outcomes on it, as on public entries.
        const e = (
          await q.query<{ id: string; author: string; disputed: boolean; disputed_at: number }>(
            'SELECT id, author, disputed, disputed_at FROM space_kb WHERE id = $1 AND space = ANY($2::text[]) FOR UPDATE',
            [o.entry, spaces],
          )
        ).rows[0];
        if (!e) return null;
        if (e.author === o.voter) return { result: 'own', prev: null };
        const prev = (
          await q.query<{ kind: OutcomeKind; note: string; evidence: string | null }>(
            'SELECT kind, note, evidence FROM space_kb_outcomes WHERE id = $1 AND voter = $2',
            [e.id, o.voter],
          )
        ).rows[0];
        const evidence = o.evidence ? JSON.stringify(o.evidence) : null;
        if (prev && prev.kind === o.kind && (o.keep || (prev.note === o.note && prev.evidence === evidence))) return { result: 'same', prev: prev.kind };
        await q.query(
          `INSERT INTO space_kb_outcomes (id, voter, kind, note, evidence, net, root, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (id, voter) DO UPDATE SET kind = excluded.kind, note = excluded.note, evidence = excluded.evidence, net = excluded.net, root = excluded.root, created = excluded.created`,
          [e.id, o.voter, o.kind, o.note, evidence, o.net, o.root, o.at],
        );
        const rows = (
          await q.query<SpaceOutcomeRow>(
            'SELECT o.voter, o.kind, o.net, o.root, i.created, i.rep, i.confirmed, i.frozen FROM space_kb_outcomes o LEFT JOIN identities i ON i.id = o.voter WHERE o.id = $1',
            [e.id],
          )
        ).rows.map(outcomeRowOf);
        // The tally's reputation is not applied: a private entry moves no public figure.
        const { tally: t } = tallyOf(rows, o.at);
        const disputedAt = t.disputed ? (e.disputed ? Number(e.disputed_at) : o.at) : 0;
        await q.query(
          'UPDATE space_kb SET confirms = $1, fails = $2, changes = $3, w_worked = $4, w_changes = $5, w_failed = $6, principals = $7, disputed = $8, disputed_at = $9 WHERE id = $10',
          [t.worked + t.changes, t.failed, t.changes, t.w_worked, t.w_changes, t.w_failed, t.principals, t.disputed, disputedAt, e.id],
        );
        return { result: prev ? 'changed' : 'new', prev: prev?.kind ?? null };
      });
    },
    async kbOutcomeNotes(id, spaces, kind, limit) {
      if (!spaces.length) return [];
      const rows = (
        await sql.query<{ note: string; evidence: string | null; at: number }>(
          `SELECT o.note, o.evidence, o.created AS at FROM space_kb_outcomes o JOIN space_kb e ON e.id = o.id
           WHERE o.id = $1 AND e.space = ANY($2::text[]) AND o.kind = $3 AND (o.note <> '' OR o.evidence IS NOT NULL) ORDER BY o.created DESC, o.voter LIMIT $4`,
          [id, spaces, kind, limit],
        )
      ).rows;
      return rows.map((r) => ({ note: r.note, evidence: r.evidence ? (JSON.parse(r.evidence) as Evidence) : null, at: Number(r.at) }));
    },
    async kbStaleSigs(version, limit) {
      return (await sql.query<StaleSig>('SELECT id, sig, title, error FROM space_kb WHERE sigv < $1 ORDER BY created, id LIMIT $2', [version, limit])).rows;
    },
    async kbResign(rs, version) {
      return sql.tx(async (q) => {
        let done = 0;
        for (const r of rs) {
          const cur = (
            await q.query<{ h: string; sigv: number; error: string; fix: string; tags: string }>(
              'SELECT h, sigv, error, fix, tags FROM space_kb WHERE id = $1 FOR UPDATE',
              [r.id],
            )
          ).rows[0];
          if (!cur) continue;
          if (cur.h !== r.h) await q.query('INSERT INTO space_kb_alias (h, id, v) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [cur.h, r.id, cur.sigv]);
          await q.query('UPDATE space_kb SET sig = $1, h = $2, ch = $3, cls = $4, title = $5, body = $6, sigv = $7 WHERE id = $8', [
            r.sig,
            r.h,
            r.ch,
            r.cls,
            r.title,
            spaceBody(r.title, cur.error, cur.fix, cur.tags),
            version,
            r.id,
          ]);
          done++;
        }
        return done;
      });
    },
  };
}
