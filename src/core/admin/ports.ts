// Async port of the operator's own state; src/store/sqlite/admin.ts implements it.

export type AnnKind = 'maintenance' | 'incident' | 'change' | 'notice';

export interface Announcement {
  id: number;
  kind: AnnKind;
  starts: number;
  ends: number;
  text: string;
  /** The signed ann1 line as published on g:sys. */
  line: string;
  /** The maintenance window (control) it opened, for kind maintenance. */
  maint: number | null;
  created: number;
}

/** Operator marks on a reference: `seed` (an identity), `st_hide` (a status page target). */
export type Mark = 'seed' | 'st_hide';

export interface AsnPolicy {
  asn: number;
  class: string;
  note: string;
  at: number;
}

export interface OriginRow {
  kind: string;
  ref: string;
  root: string;
  net: string;
  at: number;
}

/** One operator inbox item as stored (spec 2.2 inbox row, before rendering). */
export interface InboxItem {
  seq: number;
  kind: string;
  ref: string;
  scope: string;
  title: string;
  support_w: number;
  groups: number;
  url: string;
  status: string;
  created: number;
  /** Position among the items of its kind that arrived the same UTC day (1 = first); set by inboxAfter. */
  rank?: number;
}

/** What a domain publishes on `inbox.<kind>`: the platform's topic contract. */
export type { InboxEvent } from '../platform/events/topics.js';

export interface DemandRow {
  q: string;
  impressions: number;
  clicks: number;
  position: number;
  page: string;
}

export interface Tombstone {
  id: string;
  kind: string;
  removed_at: number;
  reason: string;
}

/** What a purge removed: rows deleted or made anonymous, and the tombstones it left. */
export interface PurgeReport {
  rows: number;
  tombstones: number;
}

export interface StorageClass {
  /** sealed (encrypted at rest), public (published content), private (owner-only plaintext), blob, ledger, ops. */
  cls: string;
  rows: number;
  bytes: number;
}

export interface PlatformCounts {
  counters: Record<string, number>;
  storage: StorageClass[];
  /** Engine and journal mode, file size in bytes. */
  engine: string;
  file_bytes: number;
}

export interface AdminRepo {
  addAnnouncement(a: Omit<Announcement, 'id'>): Promise<Announcement>;
  /** Keeps the signed line (made once the id is known). */
  setAnnouncementLine(id: number, line: string): Promise<void>;
  /** Announcements that end after `after` (all when null), newest first, at most n. */
  announcements(after: number | null, n: number): Promise<Announcement[]>;

  /** Sets or clears a mark; true when it changed. */
  setMark(mark: Mark, ref: string, on: boolean, note: string, now: number): Promise<boolean>;
  hasMark(mark: Mark, ref: string): Promise<boolean>;
  marks(mark: Mark): Promise<string[]>;

  setAsnPolicy(p: AsnPolicy): Promise<void>;
  /** The policy of an ASN, or null when it has none. */
  asnPolicy(asn: number): Promise<AsnPolicy | null>;
  /** The ASN of a network key (`a.b.c.0/24`, `x:y:z::/48`) from the operator's asn.csv, or null. */
  asnOf(net: string): number | null;
  /** Whether an asn.csv table is loaded (with at least one row). */
  asnMapped(): boolean;

  /** Records who created a piece of published content (first writer kept). */
  recordOrigin(o: OriginRow): Promise<void>;
  origins(q: { ref?: string; kind?: string; root?: string }, n: number): Promise<OriginRow[]>;

  /** Copies new `inbox.<kind>` bus events into inbox rows (idempotent; safe to call on every read). */
  ingestInbox(): Promise<number>;
  /** Inbox items after cursor `since`, oldest first, at most n; kind filter optional. */
  inboxAfter(since: number, n: number, kind: string | null): Promise<InboxItem[]>;

  /** Stores the rows in one transaction. */
  addDemand(src: string, rows: DemandRow[], now: number): Promise<number>;

  /** Freezes or thaws an identity (its tokens are refused with 403 while frozen); false when unknown. */
  setIdentityFrozen(id: string, on: boolean): Promise<boolean>;
  /**
   * Deletes every row of the identities across domains (tokens, content, workspace, mail, drops,
   * votes, memberships, marks, origin, bus events naming them) and renames their ledger accounts to
   * `pseudo` (balances must already be zero: the caller burns them through the ledger first), so the
   * ledger still balances and no row names them. Leaves the tombstones given.
   */
  purgeRoots(
    ids: string[],
    pseudo: (id: string) => string,
    tombstones: (rows: { kb: string[]; tasks: string[]; cps: string[] }) => Tombstone[],
  ): Promise<PurgeReport>;
  /** Bounty escrows the identities hold for their open tasks (to burn before a purge). */
  escrowsOf(ids: string[]): Promise<Array<{ bounty: string; credits: number }>>;

  counts(): Promise<PlatformCounts>;
}
