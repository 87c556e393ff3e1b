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
