// Async ports of governance: proposals and their support, the roadmap, notices and the reports they
// count, and the revisions of the voted sections of /llms.txt. src/store/sqlite/gov.ts implements
// them; the rules (weights, caps, which decision each state allows) live in rules.ts, not here.

export const PROPOSAL_STATES = ['open', 'later', 'accepted', 'planned', 'shipped', 'declined', 'vetoed'] as const;
export type ProposalState = (typeof PROPOSAL_STATES)[number];
export type CheckState = 'requested' | 'pass' | 'fail';

/** Support of one proposal from one network: the sum of its supporters' weights, and how many. */
export interface NetSupport {
  net: string;
  w: number;
  n: number;
}

export interface Proposal {
  id: string;
  kind: string;
  title: string;
  body: string;
  /** Voted section of /llms.txt a `llms` proposal rewrites. */
  section: string | null;
  author: string;
  net: string;
  state: ProposalState;
  hasPatch: boolean;
  check: CheckState | null;
  checkLog: string | null;
  checkAt: number | null;
  note: string;
  decidedBy: string | null;
  decidedAt: number | null;
  revisitAt: number | null;
  bounty: number;
  created: number;
  updated: number;
  /** Support per network (raw weights; the cap per network is a rule applied by the core). */
  nets: NetSupport[];
}

export interface NewProposal {
  id: string;
  kind: string;
  title: string;
  body: string;
  section: string | null;
  author: string;
  net: string;
  patch: string | null;
  created: number;
}

export interface SupportRow {
  proposal: string;
  root: string;
  net: string;
  lvl: number;
  weight: number;
  created: number;
}

export interface DecisionPatch {
  state: ProposalState;
  note: string;
  by: string;
  at: number;
  revisitAt: number | null;
  bounty: number;
}

export interface RoadmapTask {
  n: number;
  proposal: string;
  title: string;
  state: 'open' | 'done';
  bounty: number;
  text: string;
  created: number;
  doneAt: number | null;
}

export type NoticeState = 'hidden' | 'counted' | 'queued' | 'upheld' | 'reversed';

export interface Notice {
  id: string;
  url: string;
  /** What it targets: `kb:<id>` for a KB entry, else the path of the page on this service. */
  ref: string;
  category: string;
  reason: string;
  email: string;
  good_faith: boolean;
  net: string;
  sgroup: string;
  state: NoticeState;
  note: string;
  decided_by: string | null;
  decided_at: number | null;
  created: number;
}

export type NewNotice = Omit<Notice, 'note' | 'decided_by' | 'decided_at'>;

export interface LlmsRev {
  rev: number;
  section: string;
  text: string;
  proposal: string | null;
  why: string;
  created: number;
}

export interface GovRepo {
  /** Null when the id is taken (the caller draws another). A patch marks a check as requested. */
  createProposal(p: NewProposal): Promise<Proposal | null>;
  proposal(id: string): Promise<Proposal | null>;
  patch(id: string): Promise<string | null>;
  /** Newest first. */
  proposals(q: { state?: ProposalState; kind?: string; limit: number }): Promise<Proposal[]>;
  /** One support per root and proposal: `dup` when the root already supports it. */
  support(s: SupportRow): Promise<'new' | 'dup'>;
  /** Every support row (capture metrics), newest first, at most `limit`. */
  supports(limit: number): Promise<SupportRow[]>;
  /**
   * Compare-and-set: moves the proposal from `from` with the decision's fields; with `task`, opens a
   * roadmap task in the same transaction. `stale` when the state was no longer `from`.
   */
  decide(id: string, from: ProposalState, d: DecisionPatch, task?: { title: string; bounty: number }): Promise<{ task: number | null } | 'stale'>;
  /** Proposals deferred with `later` whose revisit time has come go back to `open`; their ids. */
  reopenDue(now: number): Promise<string[]>;
  /** Marks task `n` done and its proposal `shipped`, in one transaction. */
  taskDone(n: number, text: string, now: number): Promise<{ proposal: string } | 'missing' | 'done'>;
  /** Roadmap tasks, open ones first, then the latest done. */
  tasks(limit: number): Promise<RoadmapTask[]>;
  /** Proposals with a check requested, oldest request first. */
  checkQueue(limit: number): Promise<Proposal[]>;
  /** Records a check result; false when no check was requested. */
  recordCheck(id: string, status: 'pass' | 'fail', log: string, now: number): Promise<boolean>;
  /**
   * Files a notice in one transaction with the cap count: when the network already filed `caps.net`
   * or the super-group `caps.group` notices since `caps.since`, it is stored `queued` instead.
   */
  fileNotice(n: NewNotice, caps: { net: number; group: number; since: number }): Promise<Notice>;
  notice(id: string): Promise<Notice | null>;
  /** Newest first; `open`: not decided yet. */
  notices(q: { open: boolean; limit: number }): Promise<Notice[]>;
  /** Decides an undecided notice; `decided` when it already was. */
  decideNotice(id: string, state: 'upheld' | 'reversed', note: string, by: string, now: number): Promise<Notice | 'missing' | 'decided'>;
  /** Adds (or keeps) one report; the total weight of the reports on `ref`. */
  addReport(ref: string, source: string, weight: number, now: number): Promise<number>;
  /** Removes one report; the total weight left. */
  dropReport(ref: string, source: string): Promise<number>;
  /** Stored revisions of the voted /llms.txt sections, oldest first (revision 1 is the built-in text). */
  llmsRevs(): Promise<LlmsRev[]>;
  addLlmsRev(r: Omit<LlmsRev, 'rev'>): Promise<LlmsRev>;
}
