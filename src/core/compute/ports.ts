// Port of the plugin runner (src/wasm implements it with Extism in child processes). The core asks it
// to run one call of one module and gets bytes or one failure code; it never sees a runner.

export interface RunLimits {
  /** Wall-clock limit of the call; past it the worker is terminated. */
  timeMs: number;
  /** Linear memory cap of the module in 64 KiB pages (its declared maximum is clamped to it). */
  memPages: number;
  /** Output cap in bytes. */
  outBytes: number;
}

export interface RunCall {
  /** sha256 hex of the module bytes: the runner caches compiled modules under it. */
  hash: string;
  /** The module bytes, asked for only when a worker does not hold the compiled module yet. */
  wasm(): Promise<Uint8Array>;
  /** Exported function to call (Extism convention: input and output through the host). */
  entry: string;
  input: Uint8Array;
  limits: RunLimits;
}

/**
 * timeout: stopped at the wall-clock limit; memory: hit a memory cap (linear memory, host blocks,
 * or the runner process's OS cap); trap: the module trapped or returned a non-zero status; crash:
 * the runner process died under the call (replaced); output: output over the cap; bad: the module
 * cannot be loaded (imports, exports, memory, tables); busy: the runner's queue is full.
 */
export type RunFailure = 'timeout' | 'memory' | 'trap' | 'crash' | 'output' | 'bad' | 'busy';

/** Failures the module itself caused: the call is charged (a cap breach or a crash is not free). */
export const MODULE_FAULTS: ReadonlySet<RunFailure> = new Set(['timeout', 'memory', 'trap', 'crash', 'output']);

export type RunResult = { ok: true; output: Uint8Array; ms: number } | { ok: false; code: RunFailure; detail: string; ms: number };

export interface RunnerStats {
  workers: number;
  busy: number;
  queued: number;
  /** Workers started since the runner began (the first ones and every replacement). */
  started: number;
  /** Workers terminated because a call ran past its limit or killed its worker. */
  replaced: number;
}

export interface ComputeRunner {
  /** One call; never throws for anything the module does (the result says what happened). */
  run(call: RunCall): Promise<RunResult>;
  stats(): RunnerStats;
  close(): Promise<void>;
}

// ---- Services: names, versions, the KAT gate, L2 ok reports, call records (src/store/sqlite/services.ts) ----

export type SvcState = 'pending' | 'ok' | 'failed';

/** A known-answer test: the input and the exact output (UTF-8 text). */
export interface Kat {
  in: string;
  out: string;
}

export interface SvcManifest {
  /** Exported function called with the input (Extism convention). */
  entry: string;
  /** One line: what the service does (the MCP tool's description). */
  desc: string;
  kats: Kat[];
  limits: { time_ms: number; mem_pages: number; out_bytes: number };
}

export interface SvcName {
  name: string;
  /** `admin` for the operator, else the identity that published the name first. */
  owner: string;
  stable: number | null;
  created: number;
}

export interface SvcVersion {
  name: string;
  ver: number;
  /** sha256 hex of the module (a blob). */
  wasm: string;
  manifest: SvcManifest;
  /** `admin` or an identity id. */
  publisher: string;
  state: SvcState;
  kats: number;
  /** The KAT run's outcome, one line per failed test (null until checked). */
  log: string | null;
  created: number;
  checked: number | null;
}

/** An L2 ok report (svcok1): an identity's signed statement that a version works. */
export interface SvcOk {
  name: string;
  ver: number;
  by: string;
  pub: string;
  sig: string;
  note: string | null;
  at: number;
}

export interface CallRecord {
  id: string;
  name: string;
  ver: number;
  caller: string;
  in_hash: string;
  status: 'ok' | 'failed';
  /** Failure code (timeout, memory, trap, output, bad, busy) when failed. */
  code: string | null;
  detail: string | null;
  output: Buffer | null;
  out_hash: string | null;
  ms: number;
  /** Credits charged (0 when refunded after a failure). */
  charged: number;
  /** Who ran it: `asystem` (the server) or a donor identity. */
  donor: string;
  created: number;
}

export interface ServiceRepo {
  /**
   * Adds a version. A new name is created for `owner`; a name owned by someone else is 'taken'
   * (nothing written); an existing version is 'dup'. The version becomes the stable one in the
   * same write when `stable` is 'always', or 'first' and the name has no stable version yet.
   */
  publish(v: Omit<SvcVersion, 'state' | 'log' | 'checked'>, owner: string, stable: 'always' | 'first' | 'never'): Promise<'ok' | 'dup' | 'taken'>;
  name(name: string): Promise<SvcName | null>;
  version(name: string, ver: number): Promise<SvcVersion | null>;
  /** Newest first, at most `n`. */
  versions(name: string, n: number): Promise<SvcVersion[]>;
  /** Names in alphabetical order after `after`, at most `n`. */
  list(after: string, n: number): Promise<SvcName[]>;
  /** The KAT outcome: only a pending version moves (true); a settled one stays as it is (false). */
  settle(name: string, ver: number, state: 'ok' | 'failed', log: string, at: number): Promise<boolean>;
  /** Makes an existing version the stable one; false when the version does not exist. */
  setStable(name: string, ver: number): Promise<boolean>;
  /** One report per (version, identity): false when that identity already reported this version. */
  addOk(ok: SvcOk): Promise<boolean>;
  /** Oldest first, at most `n`. */
  oks(name: string, ver: number, n: number): Promise<SvcOk[]>;
  okCount(name: string, ver: number): Promise<number>;
  putCall(c: CallRecord): Promise<void>;
  call(id: string): Promise<CallRecord | null>;
  /** Deletes call records created before `before`; returns how many. */
  purgeCalls(before: number): Promise<number>;
}

// ---- Replicated jobs, donors, receipts (src/store/sqlite/cjobs.ts) ----

export interface CJob {
  id: string;
  name: string;
  ver: number;
  wasm: string;
  caller: string;
  input: Buffer;
  in_hash: string;
  k: number;
  n: number;
  /** Credits per replica, paid by the caller at creation (n x price held by the system). */
  price: number;
  state: 'open' | 'done' | 'failed';
  out_hash: string | null;
  output: Buffer | null;
  /** The signed att1 line (done jobs). */
  receipt: string | null;
  created: number;
  ended: number | null;
}

export interface CSlot {
  job: string;
  slot: number;
  state: 'open' | 'leased' | 'done';
  lease: string | null;
  donor: string | null;
  pub: string | null;
  deadline: number | null;
  out_hash: string | null;
  output: Buffer | null;
  dsig: string | null;
  at: number | null;
}

export interface Donor {
  id: string;
  trusted: boolean;
  /** Results that agreed with a quorum. */
  good: number;
  /** Results that disagreed with a quorum (reported). */
  bad: number;
  updated: number;
}

export interface DonorReport {
  job: string;
  donor: string;
  out_hash: string;
  /** The quorum's output hash. */
  quorum: string;
  at: number;
}

export interface JobEnd {
  state: 'done' | 'failed';
  out_hash: string | null;
  output: Buffer | null;
  receipt: string | null;
  /** Donors whose results agreed with the quorum (standing up). */
  agree: string[];
  /** Donors whose results disagreed (standing down, reported). */
  disagree: Array<{ donor: string; out_hash: string }>;
}

export interface CJobRepo {
  /** Creates the job with n open slots. */
  create(job: Omit<CJob, 'state' | 'out_hash' | 'output' | 'receipt' | 'ended'>): Promise<void>;
  get(id: string): Promise<CJob | null>;
  slots(id: string): Promise<CSlot[]>;
  /**
   * Leases one slot of an open job (`job`, or the oldest open job with a free slot when null) to
   * `donor`, who must hold no other live or submitted slot of that job. A slot is free when open or
   * when its lease expired (deadline before `now`): that is how an expired lease is reassigned.
   * Exactly one caller gets a given slot.
   */
  lease(donor: string, pub: string, lease: string, deadline: number, now: number, job: string | null): Promise<{ job: CJob; slot: number } | null>;
  /** The slot a lease names (any state), or null. */
  slotByLease(lease: string): Promise<CSlot | null>;
  /** Records the result of a live lease held by `donor`; 'stale' when the lease is unknown, another's, expired or already used. */
  submit(lease: string, donor: string, r: { out_hash: string; output: Buffer; dsig: string }, now: number): Promise<{ job: string; slot: number } | 'stale'>;
  /** Ends an open job once (outcome, donors' standing, reports of disagreeing donors); false when it was not open. */
  finish(id: string, end: JobEnd, now: number): Promise<boolean>;
  /** A disagreeing result that arrived after the job ended: standing down, reported once. */
  report(r: DonorReport): Promise<boolean>;
  reports(job: string): Promise<DonorReport[]>;
  donor(id: string): Promise<Donor | null>;
  setTrusted(id: string, on: boolean, now: number): Promise<void>;
  /** Receipts of done jobs ended at or after `since` in whose quorum `donor` took part. */
  receiptsWith(donor: string, since: number): Promise<Array<{ job: string; receipt: string }>>;
  /** Revokes a receipt once (false when already revoked). */
  revoke(job: string, line: string, reason: string, at: number): Promise<boolean>;
  /** Revoked receipts since `since`, oldest first. */
  revoked(since: number): Promise<Array<{ job: string; line: string; reason: string; at: number }>>;
}
