// Starts the real server on an ephemeral port with a fresh temporary data directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { solve } from '../../src/core/platform/identity/pow.js';
import { startServer, type Running } from '../../src/server.js';

export interface TestServer extends Running {
  dir: string;
  config: Config;
  stop(): Promise<void>;
}

/**
 * The sample KB is not loaded unless `env` asks for it (`CX_SEED: '1'`): loading it costs ~1.3 s
 * per start, and most tests write the entries they read.
 * `opts.dir`: serve an existing data directory (a restart); the caller owns it and stop() leaves it.
 * Otherwise a fresh temporary one, removed by stop(). `opts.now`: the server core's clock.
 */
export async function start(env: Record<string, string> = {}, opts: { dir?: string; now?: () => number } = {}): Promise<TestServer> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'cx-test-'));
  const config = loadConfig({
    CX_DATA: dir,
    PORT: '0',
    CATALOG_PORT: '0',
    HOST: '127.0.0.1',
    CX_POW_BITS: '8',
    CX_BASE_URL: 'http://commons.test',
    CX_SEED: '0',
    // Measured load shedding off: test servers share this process and two cores with the other test
    // files, whose load would shed their requests at random. The shedding tests turn it on.
    CX_SHED: '0',
    ...env,
  });
  const running = await startServer(config, { logger: false, ...(opts.now ? { now: opts.now } : {}) });
  return {
    ...running,
    dir,
    config,
    async stop() {
      await running.close();
      if (!opts.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A real registration: fetch a challenge, solve the PoW, register. */
export async function register(url: string, name?: string, headers: Record<string, string> = {}): Promise<{ id: string; token: string }> {
  const c = (await (await fetch(`${url}/v1/challenge?for=reg`, { method: 'POST', headers: { accept: 'application/json', ...headers } })).json()) as {
    challenge: string;
    bits: number;
  };
  const body = new URLSearchParams({ pow: solve(c.challenge, c.bits), ...(name ? { name } : {}) });
  const res = await fetch(`${url}/v1/register`, { method: 'POST', body, headers: { accept: 'application/json', ...headers } });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; token: string };
}

export async function text(res: Response): Promise<string> {
  return res.text();
}

/** Counts the server's token lookups (`identities.byToken`) until `restore` (the faces' once-per-request checks). */
export function countTokenLookups(s: TestServer): { count(): number; restore(): void } {
  const ids = s.core.store.identities;
  const byToken = ids.byToken.bind(ids);
  let n = 0;
  ids.byToken = (h, cls) => {
    n++;
    return byToken(h, cls);
  };
  return { count: () => n, restore: () => void (ids.byToken = byToken) };
}
