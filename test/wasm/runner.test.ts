// The runner alone (no server): each hostile fixture ends in its one failure code and the pool
// replaces a worker only when it had to terminate one; a normal call works right after.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunLimits } from '../../src/core/compute/ports.js';
import { BadModule, checkModule, clampMemory, defaultRunner, inspectModule } from '../../src/wasm/index.js';

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
    expect(await call('bomb', 'x', 'run', { ...lim, memPages: 32 })).toMatchObject({ ok: false, code: 'memory', detail: expect.stringContaining('cap of 32 pages') });
    expect(await call('bomb', 'x', 'run', { ...lim, memPages: 96 })).toMatchObject({ ok: false, code: 'memory', detail: expect.stringContaining('cap of 96 pages') });
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
    const wasi = Buffer.from('0061736d01000000' + '010401600000' + '021e01' + '16' + Buffer.from('wasi_snapshot_preview1').toString('hex') + '04' + Buffer.from('exit').toString('hex') + '0000', 'hex');
    expect(() => checkModule(inspectModule(wasi), 'run', 64)).toThrow(BadModule);
    expect(() => inspectModule(Buffer.from('not wasm at all'))).toThrow(BadModule);
    const r = await runner.run({ hash: 'f'.repeat(64), wasm: async () => wasi, entry: 'run', input: Buffer.alloc(0), limits: lim });
    expect(r).toMatchObject({ ok: false, code: 'bad' });
  });
});
