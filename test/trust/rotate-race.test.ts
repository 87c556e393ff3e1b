// Concurrent changes of the signing key ring (src/core/platform/trust/keys.ts over src/store/files/keys.ts):
// real processes rotating the same data directory at the same instant, many rounds, lose no `prev`
// entry and never hand out one kid twice; `npm run key:rotate` twice at once likewise; the lock file
// is released, waited for while held, and broken when its holder died.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { keepRing, rotateRing, ServerKeys, type RingFile } from '../../src/core/platform/trust/keys.js';
import { rawPublic } from '../../src/core/platform/trust/sign.js';
import { fileKeyStore } from '../../src/store/files/keys.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'cx-ring-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ringOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'signing.key'), 'utf8')) as RingFile;
const pubOfSeed = (seed: string) => rawPublic(Buffer.from(seed, 'hex')).toString('hex');

/** The ring after k rotations from kid 1: kid 1+k, prev = every earlier kid, newest first, all keys distinct. */
function expectWhole(ring: RingFile, rotations: number): void {
  expect(ring.kid).toBe(1 + rotations);
  expect(ring.prev.map((p) => p.kid)).toEqual(Array.from({ length: rotations }, (_, i) => rotations - i));
  const pubs = new Set([pubOfSeed(ring.seed), ...ring.prev.map((p) => p.pub)]);
  expect(pubs.size).toBe(rotations + 1);
}

/** Starts `n` rotating processes, lets them go at once, and returns the kids each one got. */
async function race(dir: string, n: number, rounds: number): Promise<number[][]> {
  const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
  const kids = await new Promise<number[][]>((resolve, reject) => {
    let ready = 0;
    const results: number[][] = [];
    for (let i = 0; i < n; i++) {
      const child = spawn(tsx, [join(process.cwd(), 'test/trust/fixtures/rotate-many.ts'), dir, String(rounds)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out === 'ready\n' && ++ready === n) writeFileSync(join(dir, 'go'), '');
      });
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('exit', (code) => {
        if (code !== 0) return reject(new Error(`rotator exited ${code}: ${err}`));
        results.push(out.split('\n')[1]!.split(' ').map(Number));
        if (results.length === n) resolve(results);
      });
    }
  });
  return kids;
}

describe('signing key ring under concurrent rotation', () => {
  it('three processes rotating at once, 150 rounds each: every replaced key is in prev, no kid given twice', async () => {
    // The lock is not fair: on a quiet machine one process can take it 150 times in a row before
    // the others wake. Such a round did not race, so it runs again (at most 5 rounds).
    let dir = '';
    let first = { seed: '' } as ReturnType<typeof ringOf>;
    let got: number[][] = [];
    for (let round = 0; round < 5; round++) {
      dir = tmp();
      keepRing(fileKeyStore(dir));
      first = ringOf(dir);
      got = await race(dir, 3, 150);
      if (got.filter((k) => k.at(-1)! - k[0]! === k.length - 1).length < 3) break;
    }
    const ring = ringOf(dir);
    expectWhole(ring, 450);
    // The first key is still the one made at the start, and each process saw its own distinct kids.
    expect(ring.prev.at(-1)).toEqual({ kid: 1, pub: pubOfSeed(first.seed) });
    const all = got.flat().sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 450 }, (_, i) => i + 2));
    // They really interleaved: no process got one contiguous block of kids.
    expect(got.filter((k) => k.at(-1)! - k[0]! === k.length - 1).length).toBeLessThan(3);
    expect(existsSync(join(dir, 'signing.key.lock'))).toBe(false);
  }, 120_000);

  it('`npm run key:rotate` twice at the same instant, three times: both rotations kept each time', async () => {
    const dir = tmp();
    keepRing(fileKeyStore(dir));
    const run = () => promisify(execFile)('npm', ['run', '-s', 'key:rotate'], { cwd: process.cwd(), env: { ...process.env, CX_DATA: dir }, encoding: 'utf8' });
    for (let round = 1; round <= 3; round++) {
      const outs = await Promise.all([run(), run()]);
      const kids = outs.map((o) => Number(/^ok key kid=(\d+) /.exec(o.stdout)![1])).sort((a, b) => a - b);
      expect(kids).toEqual([2 * round, 2 * round + 1]);
      expectWhole(ringOf(dir), 2 * round);
    }
  }, 120_000);

  it('a certificate kept while another process rotated is refused, not written over the rotation', () => {
    const dir = tmp();
    let t = 0;
    const keys = new ServerKeys(fileKeyStore(dir), () => t, 'commons.test');
    const kid = keys.kid;
    rotateRing(fileKeyStore(dir)); // another process, unseen by `keys` (ring refresh not due)
    expect(() => keys.keepCert('key1 kid=0 sig=x seq=1 exp=2027-01-01 online=1:ab', 1, kid)).toThrow(/rotated meanwhile/);
    const ring = ringOf(dir);
    expect(ring.kid).toBe(2);
    expect(ring.cert).toBeNull();
    t += 60_000;
    expect(keys.kid).toBe(2);
  });
});

describe('the ring lock file', () => {
  it('a held lock makes a change wait for it; a stale one (its holder died) is broken', async () => {
    const dir = tmp();
    const ks = fileKeyStore(dir);
    keepRing(ks);
    const lock = join(dir, 'signing.key.lock');
    // Held by another process (fresh): a rotating child waits until it is released.
    writeFileSync(lock, 'other 0000');
    const child = spawn(join(process.cwd(), 'node_modules', '.bin', 'tsx'), [join(process.cwd(), 'test/trust/fixtures/rotate-many.ts'), dir, '1'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const done = new Promise<number | null>((r) => child.on('exit', r));
    while (out !== 'ready\n') await new Promise((r) => setTimeout(r, 20));
    writeFileSync(join(dir, 'go'), '');
    await new Promise((r) => setTimeout(r, 1500));
    expect(out).toBe('ready\n');
    expect(ringOf(dir).kid).toBe(1);
    rmSync(lock);
    expect(await done).toBe(0);
    expect(out).toBe('ready\n2\n');
    // Left behind by a holder that died 11 s ago (trust.ring_lock_stale is 10 s): broken, not waited on.
    writeFileSync(lock, 'dead 0000');
    const old = new Date(Date.now() - 11_000);
    utimesSync(lock, old, old);
    expect(rotateRing(ks).kid).toBe(3);
    expect(existsSync(lock)).toBe(false);
    expectWhole(ringOf(dir), 2);
  }, 60_000);
});
