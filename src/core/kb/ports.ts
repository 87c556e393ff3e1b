// Async ports of the knowledge base; src/store/sqlite/kb.ts implements them.
import type { Evidence, OutcomeKind, OutcomeWrite, TallyFn } from './outcomes.js';

export interface Lib {
  name: string;
  ver: string;
}

export interface KbEntry {
  n: number;
  id: string;
  sig: string;
  h: string;
  /** sha256 of the coarse signature (ErrSig v2); '' until the entry is re-signed. */
  ch: string;
  title: string;
  error: string;
  fix: string;
  eco: string;
  cls: string;
  tags: string[];
  libs: Lib[];
  author: string;
  created: number;
  updated: number;
  /** Outcomes worked and worked-with-changes (raw: identities), as POST /k/{id}/ok counted them. */
  confirms: number;
  /** Outcomes did-not-work (raw). */
  fails: number;
  hits: number;
  /** Of `confirms`, the worked-with-changes outcomes (raw). */
  changes: number;
  /** Weighted sums by principal (src/core/kb/outcomes.ts): worked, worked with changes, did not work. */
  w_worked: number;
  w_changes: number;
  w_failed: number;
  /** Distinct principals (networks and root families) behind the outcomes. */
  principals: number;
  /** Weighted did-not-work past the dispute threshold: ranked after undisputed entries, labelled. */
  disputed: boolean;
  /** When it last became disputed (ms), 0 when it is not. */
  disputed_at: number;
  /** `s:<slug>` of a space's private entry (read only by its members); absent on public entries. */
  space?: string;
}

/** The outcome figures every entry carries. */
export type OutcomeFigures = Pick<KbEntry, 'confirms' | 'fails' | 'changes' | 'w_worked' | 'w_changes' | 'w_failed' | 'principals' | 'disputed'>;

/** What a lookup shows of an entry: enough to rank it and print its fix. */
export type KbHit = Pick<KbEntry, 'id' | 'title' | 'fix' | 'libs' | 'sig' | 'eco' | 'space'> & OutcomeFigures;

type Figures = 'confirms' | 'fails' | 'changes' | 'w_worked' | 'w_changes' | 'w_failed' | 'principals' | 'disputed' | 'disputed_at';
export type NewEntry = Omit<KbEntry, 'n' | Figures | 'hits' | 'updated' | 'ch'> & {
  /** Coarse hash; '' (the default) until the entry is re-signed. */
  ch?: string;
  /** ErrSig version that made `sig`; 0 (the default) means unknown: re-signed at the next start. */
  sigv?: number;
};

/** An entry whose signature an earlier ErrSig version made: what re-signing it needs. */
export interface StaleSig {
  id: string;
  sig: string;
  title: string;
  error: string;
}

/** The new signature of an entry (ErrSig v2 and later). */
export interface Resign {
  id: string;
  sig: string;
  h: string;
  ch: string;
  cls: string;
  title: string;
}

export interface Wanted {
  h: string;
  sig: string | null;
  libs: string;
  misses: number;
  first: number;
  last: number;
}

export interface Digest {
  lib: string;
  ver: string;
  topic: string;
  author: string;
  lines: string;
  score: number;
  created: number;
}

export type VoteResult = 'new' | 'changed' | 'same' | 'own';

/** An outcome recorded: new, changed (kind, note or evidence), the same again, or refused (own entry). */
export interface OutcomeResult {
  result: VoteResult;
  /** The identity's earlier kind on this entry, if any. */
  prev: OutcomeKind | null;
}

/** A published note of an outcome (never who wrote it). */
export interface OutcomeNote {
  note: string;
  evidence: Evidence | null;
  at: number;
}

export interface KbRepo {
  /** Null when the id is already taken (the caller draws another). */
  insert(e: NewEntry): Promise<KbEntry | null>;
  byId(id: string): Promise<KbEntry | null>;
  /** Entries of one signature hash, best first; when `hit`, a lookup that finds entries is counted.
   *  A store may hand back one memoized array to many calls (here, byCoarse and byOldHash alike); it
   *  is then frozen, and callers may key memos of their own on it (identity); an array that is not
   *  frozen is the caller's alone. */
  byHash(h: string, limit: number, hit: boolean): Promise<KbHit[]>;
  /** Entries of one coarse signature hash, best first (not counted as hits of their signature). */
  byCoarse(ch: string, limit: number): Promise<KbHit[]>;
  /** Entries that answered to this hash under an earlier ErrSig version (before being re-signed), best first. */
  byOldHash(h: string, limit: number): Promise<KbHit[]>;
  /** Up to `limit` entries (hidden ones too) whose signature a version below `version` made. */
  staleSigs(version: number, limit: number): Promise<StaleSig[]>;
  /**
   * Stores new signatures made by `version`, in one transaction. An entry's previous hash, when it
   * differs, keeps resolving through byOldHash, and the lookups counted under it move to the new one.
   * Returns how many entries changed.
   */
  resign(rows: Resign[], version: number): Promise<number>;
  /**
   * One outcome per identity and entry (a later one replaces the earlier; the same one again changes
   * nothing). In one transaction: the outcome, the entry's figures from `tally` over all its
   * outcomes (with each voter's identity as it is now), and its author's reputation (by the change
   * of what the entry gives, `rep`) and confirmed count (visible entries with weighted worked and
   * not disputed). Null: no visible entry; `own`: the author's own entry, nothing written.
   */
  outcome(o: OutcomeWrite, tally: TallyFn): Promise<OutcomeResult | null>;
  /** Notes (or evidence) of one kind of outcome on an entry, newest first, at most `limit`. */
  outcomeNotes(id: string, kind: OutcomeKind, limit: number): Promise<OutcomeNote[]>;
  /** Visible disputed entries, newest dispute first, disputed at or after `since` (the changes feed). */
  disputes(since: number, limit: number): Promise<KbEntry[]>;
  search(query: string, limit: number): Promise<KbHit[]>;
  /**
   * Text retrieval for the answer path: entries matching ANY of the words (title, error, fix,
   * tags), best text match first (bm25 on SQLite, ts_rank on PostgreSQL); bounded like search.
   */
  retrieve(words: string[], limit: number): Promise<KbHit[]>;
  byMonth(from: number, to: number, limit: number): Promise<KbEntry[]>;
  /** Nearest months (as ms of their first day) before `from` and at or after `to` that hold entries. */
  monthNeighbours(from: number, to: number): Promise<{ prev: number | null; next: number | null }>;
  byEco(eco: string, limit: number): Promise<{ rows: KbEntry[]; count: number }>;
  byClass(cls: string, limit: number): Promise<{ rows: KbEntry[]; count: number; libs: Array<{ name: string; n: number }> }>;
  /**
   * The newest visible entries (by publication order) created at or after `since`, optionally only
   * those carrying a tag or written by an author (feeds /f/kb, /f/kb/<tag>, /f/a/<id>).
   */
  recent(f: { tag?: string; author?: string }, since: number, limit: number): Promise<KbEntry[]>;
  /** The newest visible entries naming a library: id, title and the version they name. */
  byLib(name: string, limit: number): Promise<Array<{ id: string; title: string; ver: string }>>;
  /** Latest library versions named by confirmed (or operator seed) entries, across the most used libraries. */
  releases(topLibs: number, rows: number): Promise<Array<{ date: number; lib: string; ver: string }>>;
  want(h: string, sig: string | null, libs: string, now: number): Promise<void>;
  wanted(limit: number): Promise<Wanted[]>;
  /** Drops wanted signatures last asked for before `before`, then all but the `keep` most recent; returns how many went. */
  pruneWanted(before: number, keep: number): Promise<number>;
  count(): Promise<number>;
  /** Distinct visible entries with a worked (or worked-with-changes) outcome at or after `since` (landing page figures). */
  confirmedSince(since: number): Promise<number>;
  /** Visible entries by their latest worked (or worked-with-changes) outcome, newest first, with its time. */
  latestConfirmed(limit: number): Promise<Array<KbEntry & { confirmed_at: number }>>;
  /** Visible entries an identity authored (profiles, badges). */
  countByAuthor(author: string): Promise<number>;
  putDigest(d: Digest): Promise<void>;
  /** The best digest of each (version, topic) of a library, newest first. */
  digestsOf(lib: string, limit: number): Promise<Digest[]>;
  bestDigest(lib: string, ver: string, topic: string): Promise<Digest | null>;
  /** Hides (notices, reports) or shows an entry again; reads skip hidden entries. False: no such entry. */
  setHidden(id: string, hidden: boolean): Promise<boolean>;
  /** Deletes an entry with its libraries, votes and search row (an upheld notice). False: no such entry. */
  remove(id: string): Promise<boolean>;
  /** Bulk insert inside one transaction (sample data, benchmarks). */
  insertMany(rows: NewEntry[]): Promise<number>;
  /**
   * Visible entries whose row number is above `after`, in row order, at most `limit`: a walk of
   * the whole KB page by page (the git mirror; hidden entries are left out, as everywhere).
   */
  pageAfter(after: number, limit: number): Promise<KbEntry[]>;
}
