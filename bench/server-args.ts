// The node arguments `npm start` runs the service with, read from package.json so the benchmark
// measures exactly what a deployment starts (flags included).
import { readFileSync } from 'node:fs';

export function serverArgs(): string[] {
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  const last = start.split('&&').pop()!.trim().split(/\s+/);
  if (last[0] !== 'node') throw new Error(`package.json start does not end in a node command: ${start}`);
  // BENCH_NODE_FLAGS adds node flags for a profiling run (--trace-gc, --import of a sampler...).
  const extra = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  return [...extra, ...last.slice(1)];
}

/** The environment of a KB bench server (bench/kb.ts, bench/prof-kb.ts): the generated database,
 *  no seed, quiet logs, one network per X-Forwarded-For, no git mirror, no shedding (the rows
 *  saturate the server on purpose). */
export function kbServerEnv(dir: string, port: number, cport: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    CATALOG_PORT: String(cport),
    HOST: '127.0.0.1',
    CX_DATA: dir,
    CX_SEED: '0',
    CX_LOG_LEVEL: 'warn',
    CX_TRUST_PROXY: '1',
    CX_GIT_MIRROR: '0',
    CX_SHED: '0',
  };
}

/** Resolves once `url`/healthz answers 200, polling every `everyMs`. */
export async function waitHealthy(url: string, everyMs = 20): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
