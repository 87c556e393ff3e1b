// Port of the plugin runner (src/wasm implements it with Extism in worker threads). The core asks it
// to run one call of one module and gets bytes or one failure code; it never sees a worker.

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
 * timeout: stopped at the wall-clock limit; memory: hit the memory cap; trap: the module trapped or
 * returned a non-zero status; output: output over the cap; bad: the module cannot be loaded
 * (imports, exports, memory); busy: the runner's queue is full.
 */
export type RunFailure = 'timeout' | 'memory' | 'trap' | 'output' | 'bad' | 'busy';

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
