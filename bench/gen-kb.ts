// Fills a data directory with N synthetic KB entries (default 1,000,000) through the real store,
// for the KB benchmark rows. Usage: tsx bench/gen-kb.ts <dataDir> [n]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { buildCore } from '../src/compose/core.js';
import { classOf } from '../src/core/kb/classify.js';
import { ERRSIG_VERSION, errsig } from '../src/core/kb/errsig/errsig.js';
import type { NewEntry } from '../src/core/kb/ports.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';

const ECOS = ['pypi', 'npm', 'go', 'crates', 'gem', 'maven', 'nuget', 'apt', 'docker', 'api'];
const WORDS = 'alpha beta gamma delta parser socket buffer thread module import config cache index token stream frame codec schema driver plugin'.split(' ');

/**
 * The i-th synthetic error: distinct signatures, realistic shapes, deterministic. The Python ones
 * name a module (kept by the fine signature, removed by the coarse one): the same error naming
 * another module (`mod`) is a coarse match of entry i.
 */
export function syntheticError(i: number, mod = `m${i % 89}`): string {
  const w = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length]!;
  // ErrSig v2 parameterizes a bare number in a rustc message: the Rust ones are told apart by a word
  // (i in base 26), or 250,000 entries would share 2,250 signatures (112 each) and every lookup of
  // one would read five entries instead of one.
  let tag = '';
  for (let k = i; tag === '' || k > 0; k = Math.floor(k / 26)) tag += String.fromCharCode(97 + (k % 26));
  switch (i % 4) {
    case 0:
      return `Traceback (most recent call last):\n  File "/home/u/app/m${i % 97}.py", line ${i % 300}, in run\nSyntheticError${i}: ${w(1)} ${w(2)} failed for module '${mod}'`;
    case 1:
      return `Error: Synthetic${i} ${w(1)} could not ${w(2)} the ${w(3)}\n    at run (/home/u/app/src/m${i % 97}.js:${i % 300}:7)`;
    case 2:
      return `error[E${String(i % 9000).padStart(4, '0')}]: synthetic ${w(1)} ${w(2)} item ${tag}\n --> src/main.rs:${i % 300}:5`;
    default:
      return `panic: synthetic${i} ${w(1)}: ${w(2)} ${w(3)}\n\ngoroutine 1 [running]:\nmain.main()\n\t/home/u/app/main.go:${i % 300} +0x1d`;
  }
}

export async function generate(dir: string, n: number): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const store = openSqliteStore(dir);
  const core = buildCore(loadConfig({ CX_DATA: dir }), store, pino({ enabled: false }));
  const now = Date.now();
  const BATCH = 10_000;
  for (let from = 0; from < n; from += BATCH) {
    const rows: NewEntry[] = [];
    for (let i = from; i < Math.min(n, from + BATCH); i++) {
      const error = syntheticError(i);
      const { sig, h, ch } = errsig(error);
      rows.push({
        id: `k${i.toString(36).padStart(8, '0')}`, // deterministic: no collisions in bulk
        sig,
        h,
        ch,
        sigv: ERRSIG_VERSION, // signed with the current version: nothing to re-sign at start
        title: sig.slice(0, 120),
        error,
        fix: `Synthetic fix ${i}: update ${WORDS[i % WORDS.length]} and ${WORDS[(i + 5) % WORDS.length]}, then rerun.`,
        eco: ECOS[i % ECOS.length]!,
        cls: classOf(sig),
        tags: [WORDS[i % WORDS.length]!],
        libs: [{ name: `lib${i % 5000}`, ver: `${i % 7}.${i % 11}.0` }],
        author: 'abench0',
        created: now - (n - i) * 1000,
      });
    }
    await core.store.kb.insertMany(rows);
    if ((from / BATCH) % 10 === 0) process.stderr.write(`\r  generated ${from + rows.length}/${n}`);
  }
  process.stderr.write('\n');
  await store.close();
}

// A cached database is reused only if this generator, this ErrSig and these migrations made it.
const MIGRATIONS = 'src/store/sqlite/migrations';
const stamp = () => {
  const hash = createHash('sha256').update(readFileSync('src/core/kb/errsig/errsig.js')).update(readFileSync('bench/gen-kb.ts'));
  for (const f of readdirSync(MIGRATIONS).sort()) hash.update(f).update(readFileSync(join(MIGRATIONS, f)));
  return hash.digest('hex');
};
export const isFresh = (dir: string) => existsSync(join(dir, 'GENERATED')) && readFileSync(join(dir, 'GENERATED'), 'utf8') === stamp();

export async function generateStamped(dir: string, n: number): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  await generate(dir, n);
  writeFileSync(join(dir, 'GENERATED'), stamp());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await generateStamped(process.argv[2]!, Number(process.argv[3] ?? 1_000_000));
}
