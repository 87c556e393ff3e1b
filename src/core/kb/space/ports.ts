// The private KB entries of closed spaces (issue 39): the KB's rows, kept in the spaces' own tables
// and never in kb_entries; src/store/sqlite/spaces.ts and src/store/pg/spaces.ts implement the port.
import type { OutcomeKind, OutcomeWrite, TallyFn } from '../outcomes.js';
import type { OutcomeNote, OutcomeResult, Resign, StaleSig } from '../ports.js';

/** A private KB entry of a space: never in kb_entries, never on a public surface. */
export interface SpaceEntry {
  id: string;
  space: string;
  sig: string;
  h: string;
  ch: string;
  title: string;
  error: string;
  fix: string;
  eco: string;
  cls: string;
  tags: string[];
  /** name@ver strings. */
  libs: string[];
  author: string;
  created: number;
  /** ErrSig version that made `sig` (written, not read back); 0 or absent: unknown, re-signed at the next start. */
  sigv?: number;
}

/**
 * The outcome figures of a private entry, tallied from the space's own outcomes as a public entry's
 * are from its (src/core/kb/outcomes.ts): raw counts, weighted sums, principals, dispute.
 */
export interface SpaceFigures {
  confirms: number;
  fails: number;
  changes: number;
  w_worked: number;
  w_changes: number;
  w_failed: number;
  principals: number;
  disputed: boolean;
  disputed_at: number;
}

/** A private entry as reads return it: the entry with its outcome figures. */
export type SpaceKbEntry = SpaceEntry & SpaceFigures;

export interface SpaceKbRepo {
  /** False when the id is taken. */
  kbInsert(e: SpaceEntry): Promise<boolean>;
  /** The entry when it belongs to one of `spaces`; else null (as for an unknown id). */
  kbById(id: string, spaces: string[]): Promise<SpaceKbEntry | null>;
  /**
   * Entries of these spaces with this signature hash, best first as public entries rank within a
   * signature: undisputed first, then confirms x 3 - fails x 2, then newest.
   */
  kbByHash(h: string, spaces: string[], limit: number): Promise<SpaceKbEntry[]>;
  /** The same for a coarse signature hash. */
  kbByCoarse(ch: string, spaces: string[], limit: number): Promise<SpaceKbEntry[]>;
  /** Entries of these spaces that answered to this hash under an earlier ErrSig version, best first. */
  kbByOldHash(h: string, spaces: string[], limit: number): Promise<SpaceKbEntry[]>;
  /** Entries of these spaces whose text holds ANY of the words (lower case), most words first. */
  kbRetrieve(words: string[], spaces: string[], limit: number): Promise<SpaceKbEntry[]>;
  /** Entries of these spaces whose text holds ALL of the words, newest first. */
  kbSearch(words: string[], spaces: string[], limit: number): Promise<SpaceKbEntry[]>;
  /** A space's entries, oldest first (export), at most `limit`. */
  kbList(slug: string, limit: number): Promise<SpaceKbEntry[]>;
  kbCount(slug: string): Promise<number>;
  /** Deletes every KB entry (their outcomes and old hashes with them) and open invite of a space; returns the entries deleted. */
  kbPurge(slug: string): Promise<number>;

  // ---- outcomes of private entries (KbRepo.outcome's rules, in the space's own tables) ----
  /**
   * One outcome per identity and entry of one of `spaces` (a later one replaces the earlier; the
   * same one again changes nothing); in one transaction with the entry's figures from `tally`. The
   * tally's reputation is not applied: a private entry gives its author no public reputation.
   * Null: no such entry in those spaces; `own`: the author's own entry, nothing written.
   */
  kbOutcome(o: OutcomeWrite, spaces: string[], tally: TallyFn): Promise<OutcomeResult | null>;
  /** Notes (or evidence) of one kind of outcome on an entry of one of `spaces`, newest first. */
  kbOutcomeNotes(id: string, spaces: string[], kind: OutcomeKind, limit: number): Promise<OutcomeNote[]>;

  // ---- re-signing at an ErrSig version change (KbRepo.staleSigs / resign, for private entries) ----
  /** Up to `limit` private entries (of every space) whose signature a version below `version` made. */
  kbStaleSigs(version: number, limit: number): Promise<StaleSig[]>;
  /** Stores new signatures made by `version` in one transaction; an entry's previous hash keeps resolving (kbByOldHash). */
  kbResign(rows: Resign[], version: number): Promise<number>;
}
