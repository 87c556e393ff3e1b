// The plugin runner: a pool of worker threads, each running Extism plugins (src/wasm/worker-code.ts).
// A call goes to an idle worker (or waits in a bounded queue). The main thread holds the wall-clock
// limit: past it the worker is terminated (V8 stops even a tight wasm loop), the call answers
// `timeout` and a fresh worker takes the slot, so a hostile module never stalls the event loop. A
// worker that dies (its JS heap limit, a crash) is replaced the same way. Modules are checked and
// their memory maximum clamped to the call's cap before a worker sees them (src/wasm/module.ts).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ComputeRunner, RunCall, RunFailure, RunnerStats, RunResult } from '../core/compute/ports.js';
import { BadModule, checkModule, clampMemory, inspectModule, PAGE } from './module.js';
import { WORKER_CODE } from './worker-code.js';

export interface RunnerOpts {
  /** Workers in the pool. */
  workers: number;
  /** Calls waiting for a worker at most; more answer `busy`. */
  queue: number;
  /** Compiled modules kept per worker (least recently used dropped first). */
  modules: number;
  /** Input cap in bytes (the host-side page limit covers input + output + vars). */
  inBytes: number;
  /** Plugin variables (Extism vars) cap in bytes. */
  varBytes: number;
  /** JS heap of one worker, MiB (the module's linear memory is capped separately). */
  heapMb: number;
  /** Stops the clock reading of `ms` from depending on Date (tests, benchmarks). */
  now?: () => number;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  /** Modules this worker has compiled (hash:memory cap), least recently used first. */
  held: Map<string, true>;
  busy: Pending | null;
  gone: boolean;
}

interface Pending {
  call: RunCall;
  resolve(r: RunResult): void;
  t0: number;
  timer?: NodeJS.Timeout;
  id: number;
}

const extismPath = createRequire(import.meta.url).resolve('@extism/extism');
/** A compiled module is the module clamped to one memory cap: the cache key holds both. */
const keyOf = (c: RunCall) => `${c.hash}:${c.limits.memPages}`;

export class WasmRunner implements ComputeRunner {
  private readonly slots: Slot[] = [];
  private readonly waiting: Pending[] = [];
  private seq = 0;
  private started = 0;
  private replaced = 0;
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly opts: RunnerOpts) {
    this.now = opts.now ?? (() => performance.now());
  }

  /** Starts the whole pool now (otherwise workers start on demand); resolves when they are ready. */
  async warm(): Promise<void> {
    this.fill();
    await Promise.all(this.slots.map((s) => s.ready));
  }

  stats(): RunnerStats {
    return { workers: this.slots.length, busy: this.slots.filter((s) => s.busy).length, queued: this.waiting.length, started: this.started, replaced: this.replaced };
  }

  run(call: RunCall): Promise<RunResult> {
    return new Promise((resolve) => {
      const p: Pending = { call, resolve, t0: this.now(), id: ++this.seq };
      if (this.closed) return resolve({ ok: false, code: 'busy', detail: 'runner closed', ms: 0 });
      let idle = this.slots.find((s) => !s.busy && !s.gone);
      // Workers start on demand, up to the pool size: an idle process (or one that only runs a few
      // KATs) keeps one worker, not the whole pool.
      if (!idle && this.slots.length < this.opts.workers) this.slots.push((idle = this.spawn()));
      if (idle) return void this.dispatch(idle, p);
      if (this.waiting.length >= this.opts.queue) return resolve({ ok: false, code: 'busy', detail: `${this.waiting.length} calls waiting for a worker`, ms: 0 });
      this.waiting.push(p);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.waiting.splice(0)) p.resolve({ ok: false, code: 'busy', detail: 'runner closed', ms: 0 });
    await Promise.all(
      this.slots.splice(0).map((s) => {
        s.gone = true;
        if (s.busy) this.finish(s, { ok: false, code: 'busy', detail: 'runner closed', ms: 0 });
        return s.worker.terminate().catch(() => 0);
      }),
    );
  }

  private fill(): void {
    while (!this.closed && this.slots.length < this.opts.workers) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    this.started++;
    const worker = new Worker(WORKER_CODE, {
      eval: true,
      workerData: { module: extismPath },
      env: {},
      // The parent's loader flags (tsx, vitest) are not needed by a CommonJS script; warnings off.
      execArgv: ['--disable-warning=ExperimentalWarning'],
      resourceLimits: { maxOldGenerationSizeMb: this.opts.heapMb, maxYoungGenerationSizeMb: Math.max(4, Math.floor(this.opts.heapMb / 4)) },
      stdout: true,
      stderr: true,
    });
    worker.unref();
    // Nothing a plugin or Extism prints reaches the server's output; drained so it never piles up.
    worker.stdout.resume();
    worker.stderr.resume();
    let ready!: () => void;
    const slot: Slot = { worker, ready: new Promise<void>((r) => (ready = r)), held: new Map(), busy: null, gone: false };
    worker.on('message', (m: { ready?: boolean; id?: number; ok?: boolean; output?: Uint8Array; code?: RunFailure; detail?: string }) => {
      if (m.ready) return ready();
      const p = slot.busy;
      if (!p || p.id !== m.id) return;
      const ms = this.now() - p.t0;
      if (m.ok) this.finish(slot, { ok: true, output: Buffer.from(m.output!.buffer, m.output!.byteOffset, m.output!.byteLength), ms });
      else {
        // A trapped or refused module is compiled again next time: cheap, and nothing stale stays.
        if (m.code === 'bad') slot.held.delete(keyOf(p.call));
        this.finish(slot, { ok: false, code: m.code!, detail: m.detail ?? '', ms });
      }
    });
    const died = (why: string) => {
      if (slot.gone) return;
      ready();
      this.retire(slot, why.includes('ERR_WORKER_OUT_OF_MEMORY') ? 'memory' : 'trap', why);
    };
    worker.on('error', (err: Error & { code?: string }) => died(`${err.code ?? ''} ${err.message}`));
    worker.on('exit', (code) => died(`worker exited ${code}`));
    return slot;
  }

  /** Ends a slot's worker, answers its call (if any) with `code`, and starts a replacement. */
  private retire(slot: Slot, code: 'timeout' | 'memory' | 'trap', detail: string): void {
    slot.gone = true;
    this.replaced++;
    void slot.worker.terminate().catch(() => 0);
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    const p = slot.busy;
    if (p) this.finish(slot, { ok: false, code, detail, ms: this.now() - p.t0 });
    // The replacement starts now, so the next call does not pay for its start.
    if (!this.closed) this.slots.push(this.spawn());
    this.next();
  }

  private finish(slot: Slot, r: RunResult): void {
    const p = slot.busy;
    if (!p) return;
    clearTimeout(p.timer);
    slot.busy = null;
    p.resolve(r);
    if (!slot.gone) this.next(slot);
  }

  private next(slot?: Slot): void {
    const s = slot ?? this.slots.find((x) => !x.busy && !x.gone);
    const p = s && this.waiting.shift();
    if (s && p) void this.dispatch(s, p);
  }

  private async dispatch(slot: Slot, p: Pending): Promise<void> {
    slot.busy = p;
    const { call } = p;
    const { limits } = call;
    try {
      let wasm: Uint8Array | undefined;
      const key = keyOf(call);
      if (!slot.held.has(key)) {
        const raw = await call.wasm();
        const info = inspectModule(raw);
        checkModule(info, call.entry, limits.memPages);
        wasm = clampMemory(raw, limits.memPages);
      }
      if (slot.gone || slot.busy !== p) return;
      slot.held.delete(key);
      slot.held.set(key, true);
      const drop: string[] = [];
      while (slot.held.size > this.opts.modules) {
        const old = slot.held.keys().next().value!;
        slot.held.delete(old);
        drop.push(old);
      }
      await slot.ready;
      if (slot.gone || slot.busy !== p) return;
      const hostPages = Math.ceil((this.opts.inBytes + limits.outBytes + this.opts.varBytes) / PAGE) + 2;
      // The clock starts when the worker gets the call (compile time included, queue time not).
      p.timer = setTimeout(() => {
        if (slot.busy === p) this.retire(slot, 'timeout', `stopped after ${limits.timeMs} ms`);
      }, limits.timeMs);
      p.timer.unref?.();
      slot.worker.postMessage({ id: p.id, hash: key, wasm, entry: call.entry, input: call.input, memPages: limits.memPages, outBytes: limits.outBytes, hostPages, varBytes: this.opts.varBytes, drop });
    } catch (err) {
      const detail = err instanceof BadModule ? err.message : `module not available: ${err instanceof Error ? err.message : String(err)}`;
      this.finish(slot, { ok: false, code: 'bad', detail, ms: this.now() - p.t0 });
    }
  }
}
