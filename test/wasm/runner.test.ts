// The runner alone (no server): each hostile fixture and each attack of the corpus ends in its one
// failure code and the pool replaces a runner process only when it had to end one; a normal call
// works right after.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunLimits } from '../../src/core/compute/ports.js';
import { BadModule, checkModule, checkUpload, clampMemory, clampModule, clampTables, defaultCaps, defaultRunner, inspectModule } from '../../src/wasm/index.js';
import { hostile, tableBomb } from './corpus.js';

const fx = (n: string) => readFileSync(join(import.meta.dirname, 'fixtures', `${n}.wasm`));
const runner = defaultRunner({ workers: 2 });
afterAll(() => runner.close());
const lim: RunLimits = { timeMs: 800, memPages: 64, outBytes: 64 * 1024 };
const call = (name: string, input = 'x', entry = 'run', limits = lim) => {
  const bytes = fx(name);
  return runner.run({ hash: createHash('sha256').update(bytes).digest('hex'), wasm: async () => bytes, entry, input: Buffer.from(input), limits });
};

describe('wasm runner', () => {
  it('runs a module and returns its output', async () => {
    const r = await call('echo', 'hello');
    expect(r.ok && Buffer.from(r.output).toString()).toBe('hello');
  });

  it('stops an infinite loop at its wall-clock limit, keeps the event loop free, replaces the worker', async () => {
    const before = runner.stats().replaced;
    let ticks = 0;
    const iv = setInterval(() => ticks++, 20);
    const r = await call('loop');
    clearInterval(iv);
    expect(r).toMatchObject({ ok: false, code: 'timeout' });
    expect(r.ms).toBeGreaterThanOrEqual(lim.timeMs - 5);
    expect(r.ms).toBeLessThan(lim.timeMs + 5000);
    expect(ticks).toBeGreaterThan(3); // the main thread kept running timers meanwhile
    expect(runner.stats().replaced).toBe(before + 1);
    const ok = await call('echo', 'after');
    expect(ok.ok).toBe(true);
  });

  it('caps a memory bomb (the module declares no maximum: the clamp holds it)', async () => {
    const r = await call('bomb');
    expect(r).toMatchObject({ ok: false, code: 'memory' });
    expect(inspectModule(fx('bomb')).memory?.max).toBeNull();
    expect(inspectModule(clampMemory(fx('bomb'), 64)).memory?.max).toBe(64);
  });

  it('the same module under two memory caps is compiled once per cap', async () => {
    expect(await call('bomb', 'x', 'run', { ...lim, memPages: 32 })).toMatchObject({
      ok: false,
      code: 'memory',
      detail: expect.stringContaining('cap of 32 pages'),
    });
    expect(await call('bomb', 'x', 'run', { ...lim, memPages: 96 })).toMatchObject({
      ok: false,
      code: 'memory',
      detail: expect.stringContaining('cap of 96 pages'),
    });
    const again = await call('bomb', 'x', 'run', { ...lim, memPages: 32 });
    expect(again).toMatchObject({ ok: false, code: 'memory' });
    expect((again as { detail: string }).detail).toMatch(/cap of 32 pages reached \((1[6-9]|2\d|3[0-2]) in use\)/);
  });

  it('answers output for a flood, trap for unreachable and a stack overflow', async () => {
    expect(await call('flood', 'x', 'run', { ...lim, memPages: 512 })).toMatchObject({ ok: false, code: 'output' });
    expect(await call('trap')).toMatchObject({ ok: false, code: 'trap' });
    expect(await call('trap', 'x', 'deep')).toMatchObject({ ok: false, code: 'trap' });
  });

  it('refuses modules that import anything but the Extism host functions, and non-modules', async () => {
    const wasi = Buffer.from(
      '0061736d01000000' +
        '010401600000' +
        '021e01' +
        '16' +
        Buffer.from('wasi_snapshot_preview1').toString('hex') +
        '04' +
        Buffer.from('exit').toString('hex') +
        '0000',
      'hex',
    );
    expect(() => checkModule(inspectModule(wasi), 'run', 64)).toThrow(BadModule);
    expect(() => inspectModule(Buffer.from('not wasm at all'))).toThrow(BadModule);
    const r = await runner.run({ hash: 'f'.repeat(64), wasm: async () => wasi, entry: 'run', input: Buffer.alloc(0), limits: lim });
    expect(r).toMatchObject({ ok: false, code: 'bad' });
  });
});

describe('runner processes', () => {
  const hostileBytes = hostile();
  const hostileHash = createHash('sha256').update(hostileBytes).digest('hex');
  const run = (r: ReturnType<typeof defaultRunner>, input: string, limits = lim) =>
    r.run({ hash: hostileHash, wasm: async () => hostileBytes, entry: 'run', input: Buffer.from(input), limits });

  it('tables: declared sizes over the caps are refused, a missing or larger maximum is clamped', () => {
    const bomb = tableBomb();
    expect(inspectModule(bomb).tables).toEqual([{ min: 10_000_000, max: null }]);
    expect(() => checkModule(inspectModule(bomb), 'run', 64)).toThrow('table declares 10000000 entries at start, over the cap of 65536');
    expect(() => checkUpload(bomb)).toThrow(BadModule);
    expect(() => checkUpload(tableBomb(10))).not.toThrow();
    expect(inspectModule(clampTables(tableBomb(10), 65_536)).tables).toEqual([{ min: 10, max: 65_536 }]);
    expect(inspectModule(clampModule(hostile({ tableMax: 1_000_000 }), defaultCaps(64))).tables).toEqual([{ min: 1, max: 65_536 }]);
    expect(inspectModule(clampModule(hostile(), defaultCaps(64))).memory).toEqual({ min: 1, max: 64 });
    const same = hostile({ tableMax: 8, memMax: 8 });
    expect(clampModule(same, defaultCaps(64))).toBe(same);
  });

  it('each attack of the corpus ends in its code, and an honest call works after every one', async () => {
    const want: Record<string, string> = { T: 'trap', M: 'memory', A: 'memory', O: 'output', L: 'timeout', R: 'trap', U: 'trap' };
    for (const [attack, code] of Object.entries(want)) {
      expect(await run(runner, attack)).toMatchObject({ ok: false, code });
      const ok = await run(runner, `after ${attack}`);
      expect(ok.ok && Buffer.from(ok.output).toString()).toBe(`after ${attack}`);
    }
  });

  it('the host alloc bomb is stopped by the count before allocating: the detail names the cap', async () => {
    const r = await run(runner, 'A');
    expect(r).toMatchObject({ ok: false, code: 'memory', detail: expect.stringMatching(/^host alloc of 65536 bytes over the cap of \d+ bytes/) });
  });

  it('the OS cap holds a runner under its size: growth past it is refused, or the runner dies alone', async () => {
    // 64 MiB of writable memory for the whole runner process, a module allowed 64 MiB of linear
    // memory: the OS refuses the growth before the module's own cap is reached.
    const capped = defaultRunner({ workers: 1, procMb: 64 });
    try {
      expect((await run(capped, 'warm')).ok).toBe(true);
      const r = await run(capped, 'M', { ...lim, timeMs: 5000, memPages: 1024 });
      expect(r.ok).toBe(false);
      // Where the OS refuses the memory decides which: V8 sees the grow fail (trap or memory, before
      // the module's own cap), or the runner process dies under the cap (crash) and is replaced.
      // Seen both ways on this VM (crash once in six full runs, 2026-11-29).
      const code = (r as { code: string }).code;
      expect(['trap', 'memory', 'crash']).toContain(code);
      expect((r as { detail: string }).detail).not.toMatch(/\(1024 in use\)/);
      if (code === 'crash') {
        expect(capped.stats().replaced).toBeGreaterThanOrEqual(1);
        expect((await run(capped, 'after')).ok).toBe(true);
      }
    } finally {
      await capped.close();
    }
    // 48 MiB is less than Node needs to run a call: the runner dies under the OS cap, the call
    // is one failure line, and the runner is replaced; this process lives.
    const tiny = defaultRunner({ workers: 1, procMb: 48 });
    try {
      const r = await run(tiny, 'hello');
      // memory when V8 got to say so on stderr before it died, crash otherwise.
      expect(r).toMatchObject({
        ok: false,
        code: expect.stringMatching(/^(memory|crash)$/),
        detail: expect.stringMatching(/^runner process (out of memory|died) \((signal SIG[A-Z]+|exit \d+)\)$/),
      });
      expect(tiny.stats().replaced).toBeGreaterThanOrEqual(1);
    } finally {
      await tiny.close();
    }
  });

  it('a runner killed under a call answers crash, is replaced, and the next call works', async () => {
    const r = defaultRunner({ workers: 1 });
    try {
      expect((await run(r, 'warm')).ok).toBe(true);
      const pid = (r as unknown as { slots: Array<{ proc: { pid: number } }> }).slots[0]!.proc.pid;
      const pending = run(r, 'L', { ...lim, timeMs: 5000 });
      await new Promise((res) => setTimeout(res, 200));
      process.kill(pid, 'SIGKILL');
      expect(await pending).toMatchObject({ ok: false, code: 'crash', detail: 'runner process died (signal SIGKILL)' });
      expect(r.stats().replaced).toBe(1);
      const ok = await run(r, 'next');
      expect(ok.ok && Buffer.from(ok.output).toString()).toBe('next');
    } finally {
      await r.close();
    }
  });

  it('runners are processes of their own: none shares this process id, and close ends them', async () => {
    const r = defaultRunner({ workers: 2 });
    await r.warm();
    const pids = (r as unknown as { slots: Array<{ proc: { pid: number } }> }).slots.map((x) => x.proc.pid);
    expect(pids).toHaveLength(2);
    for (const p of pids) expect(p).not.toBe(process.pid);
    await r.close();
    for (const p of pids) expect(() => process.kill(p, 0)).toThrow();
  });
});
