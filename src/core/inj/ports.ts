// Async port of the injection-report map; src/store/sqlite/inj.ts implements it. A report names a
// host and the SHA-256 of a payload (never the payload), the flags of the lexicon, and who sent it
// (root, network, level and the weight that level gave): the map is counted by distinct roots and
// networks, so the rows keep both.

export interface InjReport {
  /** Normalized host (lowercase ASCII, punycode, no port). */
  host: string;
  /** Its registrable domain (src/core/inj/host.ts), the grouping of /inj/{domain}. */
  domain: string;
  /** 64 lowercase hex: SHA-256 of the payload text, computed by the reporter. */
  ph: string;
  root: string;
  net: string;
  flags: string[];
  lvl: number;
  weight: number;
  created: number;
}

/** Counts over a window: reports, distinct roots and networks, weight with each network capped. */
export interface InjCounts {
  reports: number;
  roots: number;
  nets: number;
  weight: number;
}

export interface InjTopRow extends InjCounts {
  host: string;
  /** Reports in the baseline window (before the recent one). */
  base: number;
}

export interface InjTopQuery {
  /** Start of the recent window (ms). */
  since: number;
  /** Start of the baseline window; it ends at `since`. */
  baseSince: number;
  /** A host is listed only with at least this many distinct roots AND networks AND this weight. */
  minRoots: number;
  minNets: number;
  minWeight: number;
  /** Weight one network adds at most, whatever its reporters. */
  netCap: number;
  n: number;
}

export interface InjHostRow {
  host: string;
  reports: number;
  roots: number;
  nets: number;
  first: number;
  last: number;
}

export interface InjPayload {
  ph: string;
  reports: number;
  roots: number;
  nets: number;
  flags: string[];
  first: number;
  last: number;
}

export interface InjDay extends Omit<InjCounts, 'weight'> {
  /** Start of the UTC day (ms). */
  day: number;
}

export interface InjHostView {
  /** Hosts the name matched (itself, or the hosts of a registrable domain). */
  hosts: string[];
  recent: InjCounts;
  month: InjCounts;
  /** Payloads reported in the month, most reported first. */
  payloads: InjPayload[];
  /** Per UTC day, the days since `daysSince` that have reports, newest first. */
  days: InjDay[];
  /** Disputes filed on the host (or domain) in the month. */
  disputes: number;
}

export interface InjDispute {
  host: string;
  domain: string;
  root: string;
  note: string;
  created: number;
}

export interface InjRepo {
  /** Records a report; false when this root already reported this host and payload the same UTC day (nothing changes). */
  report(r: InjReport): Promise<boolean>;
  /** Hosts of the recent window that pass every minimum, by distinct networks, then weight, then reports. */
  top(q: InjTopQuery): Promise<InjTopRow[]>;
  /** Payloads whose ph starts with `ph` (8 to 64 hex) reported since `since`, and the hosts they were on (most networks first, `n` at most). */
  payload(ph: string, since: number, n: number): Promise<{ payloads: InjPayload[]; hosts: InjHostRow[] } | null>;
  /**
   * What is known about `name` (a host, or a registrable domain: every host under it) since `month`;
   * `recent` counts from `since`; `days` from `daysSince`; at most `n` payloads. Null when nothing
   * was reported since `month`.
   */
  host(name: string, q: { month: number; since: number; daysSince: number; n: number; netCap: number }): Promise<InjHostView | null>;
  /** Records a dispute by a host's owner. */
  dispute(d: InjDispute): Promise<number>;
  /** Deletes reports and disputes created before `before`; how many rows went. */
  purge(before: number): Promise<number>;
}
