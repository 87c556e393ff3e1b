// Starts the real catalog app (the one server.ts mounts on CATALOG_PORT) on an ephemeral port with
// a fresh data directory; configuration goes through loadCatalogConfig from environment variables.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildCatalogApp } from '../../src/catalog/app.js';
import { loadCatalogConfig } from '../../src/catalog/config.js';

export const OPS_TOKEN = 'cxo_ops_test_token_for_catalog';

export interface Cat {
  url: string;
  dir: string;
  app: FastifyInstance;
  stop(): Promise<void>;
}

export async function startCatalog(env: Record<string, string> = {}): Promise<Cat> {
  const dir = mkdtempSync(join(tmpdir(), 'cx-cat-'));
  const config = loadCatalogConfig({ CATALOG_BASE_URL: 'http://catalog.test', ...env });
  const app = await buildCatalogApp({ config, dataDir: dir, opsTokens: [OPS_TOKEN], logger: false });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    dir,
    app,
    async stop() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** POST a form without following the redirect. */
export function order(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/api/order`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual', headers });
}

/** The tracking path of a placed order, from its Link header (base URL is http://catalog.test). */
export function trackingPath(res: Response): string {
  const link = res.headers.get('link') ?? '';
  const m = /^<http:\/\/catalog\.test(\/o\/[A-Za-z0-9_-]{43})>; rel="monitor"$/.exec(link);
  if (!m) throw new Error(`no tracking link in ${link}`);
  return m[1]!;
}

export async function track(url: string, path: string): Promise<any> {
  const res = await fetch(`${url}${path}?f=json`);
  if (res.status !== 200) throw new Error(`tracking ${res.status}`);
  return res.json();
}

export async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}
