// The plugin runner: a pool of child processes, each running Extism plugins (src/wasm/worker-code.ts).
// Processes, not worker threads: V8's out-of-memory is fatal to the whole process, so a module that
// exhausts a worker thread's heap (a table of 10M funcrefs did) took the server down with it. Each
// runner process starts under an OS cap on its writable memory (RLIMIT_DATA, `ulimit -d`, which
// leaves V8's reserved-but-unused address space alone) and a V8 heap cap. A call goes to an idle
// runner (or waits in a bounded queue). The server holds the wall-clock limit: past it the runner is
// killed (SIGKILL stops even a tight wasm loop), the call answers `timeout` and a fresh runner takes
// the slot, so a hostile module never stalls the event loop. A runner that dies (a cap, an abort) is
// replaced the same way and its call answers `memory` or `crash`. Modules are checked and their
// memory and table maxima clamped to the call's caps before a runner sees them (src/wasm/module.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { ComputeRunner, RunCall, RunFailure, RunnerStats, RunResult } from '../core/compute/ports.js';
import { checkModule, clampModule, BadModule, defaultCaps, inspectModule, PAGE } from './module.js';
import { WORKER_CODE } from './worker-code.js';

export interface RunnerOpts {
  /** Runner processes in the pool. */
  workers: number;
  /** Calls waiting for a worker at most; more answer `busy`. */
  queue: number;
  /** Compiled modules kept per worker (least recently used dropped first). */
  modules: number;
  /** Input cap in bytes (the host-side page limit covers input + output + vars). */
  inBytes: number;
  /** Plugin variables (Extism vars) cap in bytes. */
  varBytes: number;
  /** JS heap of one runner process, MiB (the module's linear memory is capped separately). */
  heapMb: number;
  /** Writable memory of one runner process, MiB, enforced by the OS (RLIMIT_DATA). */
  procMb: number;
  /** Compiling and loading one module at most, ms (the call's time limit starts after it). */
  loadMs: number;
  /** Stops the clock reading of `ms` from depending on Date (tests, benchmarks). */
  now?: () => number;
}

interface Slot {
  proc: ChildProcess;
  /** The end of the runner's stderr (what V8 says when it aborts), to tell a cap from a crash. */
  err: string;
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
/** Applies the OS memory cap, then becomes node: `sh -c`, so that no native addon is needed. */
const CAPPED = 'ulimit -d "$0" || exit 97; exec "$@"';
/** What V8 and Node print when an allocation fails (heap, zone, array buffer, wasm memory). */
const OOM = /out of memory|allocation failed|Committing semi space failed|Cannot allocate|ENOMEM/i;
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
    return {
      workers: this.slots.length,
      busy: this.slots.filter((s) => s.busy).length,
      queued: this.waiting.length,
      started: this.started,
      replaced: this.replaced,
    };
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
      if (this.waiting.length >= this.opts.queue)
        return resolve({ ok: false, code: 'busy', detail: `${this.waiting.length} calls waiting for a worker`, ms: 0 });
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
        return kill(s.proc);
      }),
    );
  }

  private fill(): void {
    while (!this.closed && this.slots.length < this.opts.workers) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    this.started++;
    const heap = this.opts.heapMb;
    const proc = spawn(
      '/bin/sh',
      [
        '-c',
        CAPPED,
        String(this.opts.procMb * 1024),
        process.execPath,
        `--max-old-space-size=${heap}`,
        `--max-semi-space-size=${Math.max(1, Math.floor(heap / 16))}`,
        '--disable-warning=ExperimentalWarning',
        '-e',
        WORKER_CODE,
      ],
      {
        // Nothing of the server's environment (secrets) reaches a runner; stdout is dropped.
        env: { CX_EXTISM: extismPath, PATH: '/usr/bin:/bin' },
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        serialization: 'advanced',
        detached: false,
      },
    );
    proc.unref();
    (proc as unknown as { channel?: { unref(): void } }).channel?.unref();
    let ready!: () => void;
    const slot: Slot = { proc, err: '', ready: new Promise<void>((r) => (ready = r)), held: new Map(), busy: null, gone: false };
    proc.stderr!.on('data', (b: Buffer) => (slot.err = (slot.err + b.toString('latin1')).slice(-2048)));
    (proc.stderr as unknown as { unref?(): void }).unref?.();
    proc.on('message', (m: { ready?: boolean; started?: boolean; id?: number; ok?: boolean; output?: Uint8Array; code?: RunFailure; detail?: string }) => {
      if (m.ready) return ready();
      const p = slot.busy;
      if (!p || p.id !== m.id) return;
      if (m.started) {
        const { timeMs } = p.call.limits;
        clearTimeout(p.timer);
        p.timer = setTimeout(() => {
          if (slot.busy === p) this.retire(slot, 'timeout', `stopped after ${timeMs} ms`);
        }, timeMs);
        p.timer.unref?.();
        return;
      }
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
      // Let stderr drain a moment so V8's last words decide between a cap and a crash.
      setTimeout(() => {
        if (slot.gone) return;
        const oom = OOM.test(slot.err);
        this.retire(slot, oom ? 'memory' : 'crash', oom ? `runner process out of memory (${why})` : `runner process died (${why})`);
      }, 20).unref();
    };
    proc.on('error', (err: Error & { code?: string }) => died(`${err.code ?? ''} ${err.message}`.trim()));
    proc.on('exit', (code, signal) => died(signal ? `signal ${signal}` : `exit ${code}`));
    return slot;
  }

  /** Ends a slot's runner, answers its call (if any) with `code`, and starts a replacement. */
  private retire(slot: Slot, code: 'timeout' | 'memory' | 'crash', detail: string): void {
    slot.gone = true;
    this.replaced++;
    void kill(slot.proc);
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
        const caps = defaultCaps(limits.memPages);
        checkModule(inspectModule(raw), call.entry, limits.memPages, caps);
        wasm = clampModule(raw, caps);
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
      // Host memory of one call: input, output and vars, plus 128 KiB for Extism's own small blocks.
      const hostBytes = this.opts.inBytes + limits.outBytes + this.opts.varBytes + 128 * 1024;
      const hostPages = Math.ceil(hostBytes / PAGE);
      // Two clocks: compiling and loading the module (a fresh runner's cold start, a start
      // function) get loadMs; the call's own limit starts when its function is called (`started`).
      p.timer = setTimeout(() => {
        if (slot.busy === p) this.retire(slot, 'timeout', `not loaded within ${this.opts.loadMs} ms`);
      }, this.opts.loadMs);
      p.timer.unref?.();
      slot.proc.send(
        {
          id: p.id,
          hash: key,
          wasm,
          entry: call.entry,
          input: call.input,
          memPages: limits.memPages,
          outBytes: limits.outBytes,
          hostPages,
          hostBytes,
          varBytes: this.opts.varBytes,
          drop,
        },
        (err) => {
          // The runner went away before it read the call: its exit answers the call (with what it
          // said on stderr); only a runner still there but unreachable is ended here.
          if (!err) return;
          setTimeout(() => {
            if (slot.busy === p && !slot.gone) this.retire(slot, 'crash', `runner process unreachable (${err.message})`);
          }, 250).unref();
        },
      );
    } catch (err) {
      const detail = err instanceof BadModule ? err.message : `module not available: ${err instanceof Error ? err.message : String(err)}`;
      this.finish(slot, { ok: false, code: 'bad', detail, ms: this.now() - p.t0 });
    }
  }
}

/** Kills a runner process (SIGKILL: a tight wasm loop ignores anything gentler); resolves when it is gone. */
function kill(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    // A runner is unref'd so that it never holds the server open; while it is being ended the
    // wait for its exit must (else a closing process could drain its loop with this unsettled).
    proc.ref();
    proc.once('exit', () => resolve());
    try {
      proc.kill('SIGKILL');
    } catch {
      resolve();
    }
  });
}
