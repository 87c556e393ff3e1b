// SQLite implementation of the spaces port and of the KB's port of the private entries of spaces
// (src/core/kb/space/ports.ts): spaces, memberships and roles, invites, member
// counters, and the private KB entries of spaces (table space_kb, read only with the caller's
// spaces) with their outcomes (space_kb_outcomes) and earlier signature hashes (space_kb_alias).
import type { OutcomeKind, OutcomeWrite, TallyFn } from '../../core/kb/outcomes.js';
import type { OutcomeNote, OutcomeResult, Resign, StaleSig } from '../../core/kb/ports.js';
import type { SpaceKbRepo } from '../../core/kb/space/ports.js';
import type { LeaveResult, Space, SpaceInvite, SpaceRepo, SpaceRole } from '../../core/spaces/ports.js';
import {
  likeOf,
  outcomeRowOf,
  rankByWords,
  SPACE_KB_COLS,
  SPACE_KB_COLS_E,
  SPACE_SCAN,
  SPACE_SIG_RANK,
  spaceBody,
  spaceSigRank,
  spaceEntryOf,
  spaceKbRow,
  type SpaceKbRow,
  type SpaceOutcomeRow,
} from '../space-kb-rows.js';
import { LIMIT, type Db } from './db.js';

export function sqliteSpaces(db: Db): SpaceRepo & SpaceKbRepo {
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
    'INSERT OR IGNORE INTO space_kb (id, space, sig, h, ch, title, error, fix, eco, cls, tags, libs, author, created, body, sigv) VALUES (@id, @space, @sig, @h, @ch, @title, @error, @fix, @eco, @cls, @tags, @libs, @author, @created, @body, @sigv)',
  );
  // The caller's spaces as one JSON array parameter: one statement whatever their number.
  const IN = 'space IN (SELECT value FROM json_each(?))';
  const kbId = db.prepare(`SELECT ${SPACE_KB_COLS} FROM space_kb WHERE id = ? AND ${IN}`);
  const kbH = db.prepare(`SELECT ${SPACE_KB_COLS} FROM space_kb WHERE h = ? AND ${IN} ORDER BY ${SPACE_SIG_RANK} ${LIMIT}`);
  const kbCh = db.prepare(`SELECT ${SPACE_KB_COLS} FROM space_kb WHERE ch = ? AND ${IN} ORDER BY ${SPACE_SIG_RANK} ${LIMIT}`);
  const kbOld = db.prepare(
    `SELECT ${SPACE_KB_COLS_E} FROM space_kb_alias a JOIN space_kb e ON e.id = a.id WHERE a.h = ? AND e.${IN} ORDER BY ${spaceSigRank('e.')} ${LIMIT}`,
  );
  const kbList = db.prepare(`SELECT ${SPACE_KB_COLS} FROM space_kb WHERE space = ? ORDER BY created, id ${LIMIT}`);
  const kbCount = db.prepare('SELECT count(*) AS n FROM space_kb WHERE space = ?');
  const kbDel = db.prepare('DELETE FROM space_kb WHERE space = ?');
  const invDel = db.prepare('DELETE FROM space_invites WHERE space = ?');
  // Leaving: the last owner of a closed space with members or entries stays (ports.ts).
  const otherOwners = db.prepare("SELECT count(*) AS n FROM space_members WHERE space = ? AND role = 'owner' AND member <> ?");
  // Outcomes of private entries: KbRepo.outcome's rules on the space's own tables, no reputation.
  const selOutcome = db.prepare('SELECT kind, note, evidence FROM space_kb_outcomes WHERE id = ? AND voter = ?');
  const putOutcome = db.prepare(
    `INSERT INTO space_kb_outcomes (id, voter, kind, note, evidence, net, root, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id, voter) DO UPDATE SET kind = excluded.kind, note = excluded.note, evidence = excluded.evidence, net = excluded.net, root = excluded.root, created = excluded.created`,
  );
  const outcomesOf = db.prepare(
    'SELECT o.voter, o.kind, o.net, o.root, i.created, i.rep, i.confirmed, i.frozen FROM space_kb_outcomes o LEFT JOIN identities i ON i.id = o.voter WHERE o.id = ?',
  );
  const setFigures = db.prepare(
    'UPDATE space_kb SET confirms = ?, fails = ?, changes = ?, w_worked = ?, w_changes = ?, w_failed = ?, principals = ?, disputed = ?, disputed_at = ? WHERE id = ?',
  );
  const notesOf = db.prepare(
    `SELECT o.note, o.evidence, o.created AS at FROM space_kb_outcomes o JOIN space_kb e ON e.id = o.id
     WHERE o.id = ? AND e.${IN} AND o.kind = ? AND (o.note <> '' OR o.evidence IS NOT NULL) ORDER BY o.created DESC, o.voter ${LIMIT}`,
  );
  // Re-signing (src/core/kb/resign.ts).
  const stale = db.prepare(`SELECT id, sig, title, error FROM space_kb WHERE sigv < ? ORDER BY created, id ${LIMIT}`);
  const selResign = db.prepare('SELECT h, sigv, title, error, fix, tags FROM space_kb WHERE id = ?');
  const insAlias = db.prepare('INSERT OR IGNORE INTO space_kb_alias (h, id, v) VALUES (?, ?, ?)');
  const setSig = db.prepare('UPDATE space_kb SET sig = ?, h = ?, ch = ?, cls = ?, title = ?, body = ?, sigv = ? WHERE id = ?');
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
    // Their outcomes and old hashes go with them (ON DELETE CASCADE).
    return kbDel.run(slug).changes;
  });
  const leaveTx = db.transaction((slug: string, member: string, closed: boolean): LeaveResult => {
    const role = (roleOf.get(slug, member) as { role: SpaceRole } | undefined)?.role;
    if (!role) return 'not';
    if (closed && role === 'owner' && n(otherOwners, slug, member) === 0 && (n(members, slug) > 1 || n(kbCount, slug) > 0)) return 'last-owner';
    delMember.run(slug, member);
    return 'left';
  });
  const outcomeTx = db.transaction((o: OutcomeWrite, spaces: string[], tallyOf: TallyFn): OutcomeResult | null => {
    const e = kbId.get(o.entry, JSON.stringify(spaces)) as SpaceKbRow | undefined;
    if (!e) return null;
    if (e.author === o.voter) return { result: 'own', prev: null };
    const prev = selOutcome.get(e.id, o.voter) as { kind: OutcomeKind; note: string; evidence: string | null } | undefined;
    const evidence = o.evidence ? JSON.stringify(o.evidence) : null;
    if (prev && prev.kind === o.kind && (o.keep || (prev.note === o.note && prev.evidence === evidence))) return { result: 'same', prev: prev.kind };
    putOutcome.run(e.id, o.voter, o.kind, o.note, evidence, o.net, o.root, o.at);
    // The tally's reputation is not applied: a private entry moves no public figure.
    const { tally: t } = tallyOf((outcomesOf.all(e.id) as SpaceOutcomeRow[]).map(outcomeRowOf), o.at);
    const disputedAt = t.disputed ? (e.disputed ? Number(e.disputed_at) : o.at) : 0;
    setFigures.run(t.worked + t.changes, t.failed, t.changes, t.w_worked, t.w_changes, t.w_failed, t.principals, t.disputed ? 1 : 0, disputedAt, e.id);
    return { result: prev ? 'changed' : 'new', prev: prev?.kind ?? null };
  });
  const resignTx = db.transaction((rs: Resign[], version: number): number => {
    let done = 0;
    for (const r of rs) {
      const cur = selResign.get(r.id) as { h: string; sigv: number; title: string; error: string; fix: string; tags: string } | undefined;
      if (!cur) continue;
      if (cur.h !== r.h) insAlias.run(cur.h, r.id, cur.sigv);
      setSig.run(r.sig, r.h, r.ch, r.cls, r.title, spaceBody(r.title, cur.error, cur.fix, cur.tags), version, r.id);
      done++;
    }
    return done;
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
      const sp = sel.get(slug) as { closed: number } | undefined;
      if (!sp) return null;
      return leaveTx(slug, member, sp.closed === 1);
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
    async kbByOldHash(h, spaces, limit) {
      return spaces.length ? rows(kbOld, h, JSON.stringify(spaces), limit) : [];
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
    async kbOutcome(o, spaces, tallyOf) {
      return spaces.length ? outcomeTx(o, spaces, tallyOf) : null;
    },
    async kbOutcomeNotes(id, spaces, kind: OutcomeKind, limit) {
      if (!spaces.length) return [];
      return (notesOf.all(id, JSON.stringify(spaces), kind, limit) as Array<{ note: string; evidence: string | null; at: number }>).map(
        (r): OutcomeNote => ({ note: r.note, evidence: r.evidence ? JSON.parse(r.evidence) : null, at: r.at }),
      );
    },
    async kbStaleSigs(version, limit) {
      return stale.all(version, limit) as StaleSig[];
    },
    async kbResign(rs, version) {
      return resignTx(rs, version);
    },
  };
}
