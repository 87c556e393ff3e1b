// Governance on SQLite (port: src/core/gov/ports.ts). Every state change is one statement or one
// transaction with its compare-and-set, so two operators deciding at once cannot both win.
import type { GovRepo, LlmsRev, NetSupport, Notice, NoticeState, Proposal, ProposalState, RoadmapTask, SupportRow } from '../../core/gov/ports.js';
import { LIMIT, type Db } from './db.js';

interface PRow {
  id: string;
  kind: string;
  title: string;
  body: string;
  section: string | null;
  author: string;
  net: string;
  state: string;
  has_patch: number;
  check_state: string | null;
  check_log: string | null;
  check_at: number | null;
  note: string;
  decided_by: string | null;
  decided_at: number | null;
  revisit_at: number | null;
  bounty: number;
  created: number;
  updated: number;
}
interface NRow extends Omit<Notice, 'good_faith' | 'state'> {
  good_faith: number;
  state: string;
}

const P_COLS = `id, kind, title, body, section, author, net, state, patch IS NOT NULL AS has_patch, check_state, check_log, check_at, note,
  decided_by, decided_at, revisit_at, bounty, created, updated`;

export function sqliteGov(db: Db): GovRepo {
  const insP = db.prepare(
    `INSERT INTO gov_proposals (id, kind, title, body, section, author, net, state, patch, check_state, check_at, created, updated)
     VALUES (@id, @kind, @title, @body, @section, @author, @net, 'open', @patch, @check, @checkAt, @created, @created)`,
  );
  const selP = db.prepare(`SELECT ${P_COLS} FROM gov_proposals WHERE id = ?`);
  const selPatch = db.prepare('SELECT patch FROM gov_proposals WHERE id = ?').pluck();
  const listAll = db.prepare(
    `SELECT ${P_COLS} FROM gov_proposals WHERE (@state IS NULL OR state = @state) AND (@kind IS NULL OR kind = @kind) ORDER BY created DESC, id ${LIMIT}`,
  );
  const netsOf = db.prepare('SELECT net, sum(weight) AS w, count(*) AS n FROM gov_support WHERE proposal = ? GROUP BY net ORDER BY w DESC, net');
  const insS = db.prepare(
    'INSERT OR IGNORE INTO gov_support (proposal, root, net, lvl, weight, created) VALUES (@proposal, @root, @net, @lvl, @weight, @created)',
  );
  const allS = db.prepare(`SELECT proposal, root, net, lvl, weight, created FROM gov_support ORDER BY created DESC ${LIMIT}`);
  const setState = db.prepare(
    `UPDATE gov_proposals SET state = @state, note = @note, decided_by = @by, decided_at = @at, revisit_at = @revisitAt, bounty = @bounty, updated = @at
     WHERE id = @id AND state = @from`,
  );
  const insT = db.prepare("INSERT INTO gov_tasks (proposal, title, state, bounty, created) VALUES (?, ?, 'open', ?, ?)");
  const due = db.prepare("SELECT id FROM gov_proposals WHERE state = 'later' AND revisit_at <= ?").pluck();
  const reopen = db.prepare("UPDATE gov_proposals SET state = 'open', revisit_at = NULL, updated = ? WHERE id = ? AND state = 'later'");
  const selT = db.prepare('SELECT n, proposal, state FROM gov_tasks WHERE n = ?');
  const doneT = db.prepare("UPDATE gov_tasks SET state = 'done', text = ?, done_at = ? WHERE n = ? AND state = 'open'");
  const ship = db.prepare("UPDATE gov_proposals SET state = 'shipped', updated = ? WHERE id = ?");
  const tasks = db.prepare(
    `SELECT n, proposal, title, state, bounty, text, created, done_at AS doneAt FROM gov_tasks ORDER BY state = 'done', coalesce(done_at, created) DESC, n DESC ${LIMIT}`,
  );
  const checkQ = db.prepare(`SELECT ${P_COLS} FROM gov_proposals WHERE check_state = 'requested' ORDER BY check_at, id ${LIMIT}`);
  const setCheck = db.prepare("UPDATE gov_proposals SET check_state = ?, check_log = ?, check_at = ?, updated = ? WHERE id = ? AND check_state = 'requested'");
  const netCount = db.prepare('SELECT count(*) FROM gov_notices WHERE net = ? AND created >= ?').pluck();
  const groupCount = db.prepare('SELECT count(*) FROM gov_notices WHERE sgroup = ? AND created >= ?').pluck();
  const insN = db.prepare(
    `INSERT INTO gov_notices (id, url, ref, category, reason, email, good_faith, net, sgroup, state, created)
     VALUES (@id, @url, @ref, @category, @reason, @email, @good_faith, @net, @sgroup, @state, @created)`,
  );
  const selN = db.prepare('SELECT * FROM gov_notices WHERE id = ?');
  const listN = db.prepare(`SELECT * FROM gov_notices WHERE (@open = 0 OR decided_at IS NULL) ORDER BY created DESC, id ${LIMIT}`);
  const decideN = db.prepare('UPDATE gov_notices SET state = ?, note = ?, decided_by = ?, decided_at = ? WHERE id = ? AND decided_at IS NULL');
  const insR = db.prepare('INSERT OR IGNORE INTO gov_reports (ref, source, weight, created) VALUES (?, ?, ?, ?)');
  const delR = db.prepare('DELETE FROM gov_reports WHERE ref = ? AND source = ?');
  const sumR = db.prepare('SELECT coalesce(sum(weight), 0) FROM gov_reports WHERE ref = ?').pluck();
  const revs = db.prepare('SELECT rev, section, text, proposal, why, created FROM gov_llms_revs ORDER BY rev');
  const maxRev = db.prepare('SELECT coalesce(max(rev), 1) FROM gov_llms_revs').pluck();
  const insRev = db.prepare('INSERT INTO gov_llms_revs (rev, section, text, proposal, why, created) VALUES (@rev, @section, @text, @proposal, @why, @created)');

  const toP = (r: PRow): Proposal => ({
    id: r.id,
    kind: r.kind,
    title: r.title,
    body: r.body,
    section: r.section,
    author: r.author,
    net: r.net,
    state: r.state as ProposalState,
    hasPatch: r.has_patch === 1,
    check: r.check_state as Proposal['check'],
    checkLog: r.check_log,
    checkAt: r.check_at,
    note: r.note,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at,
    revisitAt: r.revisit_at,
    bounty: r.bounty,
    created: r.created,
    updated: r.updated,
    nets: netsOf.all(r.id) as NetSupport[],
  });
  const toN = (r: NRow): Notice => ({ ...r, good_faith: r.good_faith === 1, state: r.state as NoticeState });

  const decideTx = db.transaction((id: string, from: ProposalState, d: Parameters<GovRepo['decide']>[2], task?: { title: string; bounty: number }) => {
    if (setState.run({ id, from, ...d }).changes !== 1) return 'stale' as const;
    const n = task ? Number(insT.run(id, task.title, task.bounty, d.at).lastInsertRowid) : null;
    return { task: n };
  });
  const reopenTx = db.transaction((now: number) => {
    const ids = due.all(now) as string[];
    for (const id of ids) reopen.run(now, id);
    return ids;
  });
  const taskDoneTx = db.transaction((n: number, text: string, now: number) => {
    const t = selT.get(n) as { proposal: string; state: string } | undefined;
    if (!t) return 'missing' as const;
    if (doneT.run(text, now, n).changes !== 1) return 'done' as const;
    ship.run(now, t.proposal);
    return { proposal: t.proposal };
  });
  const fileTx = db.transaction((n: Parameters<GovRepo['fileNotice']>[0], caps: { net: number; group: number; since: number }) => {
    const over = (netCount.get(n.net, caps.since) as number) >= caps.net || (groupCount.get(n.sgroup, caps.since) as number) >= caps.group;
    const row = { ...n, state: over ? 'queued' : n.state, good_faith: n.good_faith ? 1 : 0 };
    insN.run(row);
    return toN(selN.get(n.id) as NRow);
  });
  const addRevTx = db.transaction((r: Omit<LlmsRev, 'rev'>) => {
    const rev = (maxRev.get() as number) + 1;
    insRev.run({ ...r, rev });
    return { ...r, rev };
  });

  return {
    async createProposal(p) {
      try {
        insP.run({ ...p, check: p.patch === null ? null : 'requested', checkAt: p.patch === null ? null : p.created });
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return null;
        throw err;
      }
      return toP(selP.get(p.id) as PRow);
    },
    async proposal(id) {
      const r = selP.get(id) as PRow | undefined;
      return r ? toP(r) : null;
    },
    async patch(id) {
      return (selPatch.get(id) as string | null | undefined) ?? null;
    },
    async proposals(q) {
      return (listAll.all({ state: q.state ?? null, kind: q.kind ?? null }, q.limit) as PRow[]).map(toP);
    },
    async support(s) {
      return insS.run(s).changes === 1 ? 'new' : 'dup';
    },
    async supports(limit) {
      return allS.all(limit) as SupportRow[];
    },
    async decide(id, from, d, task) {
      return decideTx(id, from, d, task);
    },
    async reopenDue(now) {
      return reopenTx(now);
    },
    async taskDone(n, text, now) {
      return taskDoneTx(n, text, now);
    },
    async tasks(limit) {
      return tasks.all(limit) as RoadmapTask[];
    },
    async checkQueue(limit) {
      return (checkQ.all(limit) as PRow[]).map(toP);
    },
    async recordCheck(id, status, log, now) {
      return setCheck.run(status, log, now, now, id).changes === 1;
    },
    async fileNotice(n, caps) {
      return fileTx(n, caps);
    },
    async notice(id) {
      const r = selN.get(id) as NRow | undefined;
      return r ? toN(r) : null;
    },
    async notices(q) {
      return (listN.all({ open: q.open ? 1 : 0 }, q.limit) as NRow[]).map(toN);
    },
    async decideNotice(id, state, note, by, now) {
      if (decideN.run(state, note, by, now, id).changes === 1) return toN(selN.get(id) as NRow);
      return selN.get(id) ? 'decided' : 'missing';
    },
    async addReport(ref, source, weight, now) {
      insR.run(ref, source, weight, now);
      return sumR.get(ref) as number;
    },
    async dropReport(ref, source) {
      delR.run(ref, source);
      return sumR.get(ref) as number;
    },
    async llmsRevs() {
      return revs.all() as LlmsRev[];
    },
    async addLlmsRev(r) {
      return addRevTx(r);
    },
  };
}
