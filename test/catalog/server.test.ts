// The catalog as the composition root mounts it: src/server.ts in-process and as a real process.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { start } from '../helpers/server.js';

const root = join(import.meta.dirname, '../..');
const good = JSON.parse(readFileSync(join(root, 'catalog/products.json'), 'utf8')).products[0];

describe('mounted by the composition root (src/server.ts)', () => {
  it('serves the catalog on CATALOG_PORT beside the commons, configured from the environment', async () => {
    const s = await start({ CATALOG_BASE_URL: 'http://shop.test', CX_SEED: '0' });
    try {
      expect(s.catalogUrl).not.toBe(s.url);
      const j = (await (await fetch(`${s.catalogUrl}/api/catalog.json`)).json()) as { order: { url: string } };
      expect(j.order.url).toBe('http://shop.test/api/order');
      expect(await (await fetch(`${s.catalogUrl}/api/health`)).json()).toEqual({ ok: true });
      // The operator's ops token works on the catalog's operator routes.
      const list = await fetch(`${s.catalogUrl}/api/admin/orders`, { headers: { authorization: `Bearer ${s.config.operatorTokens.ops}` } });
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual({ orders: [] });
    } finally {
      await s.stop();
    }
  });

  it('a wrong products file stops the real server process with exit 1 and the message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cx-cat-proc-'));
    const f = join(dir, 'products.json');
    writeFileSync(f, JSON.stringify({ products: [{ ...good, price_eur: 0 }] }));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: root,
      env: { ...process.env, CATALOG_PRODUCTS: f, CX_DATA: join(dir, 'data'), PORT: '0', CATALOG_PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    rmSync(dir, { recursive: true, force: true });
    expect(err).toMatch(/failed to start: catalog: products file .*products\.json is invalid at products\[0\]\.price_eur: /);
    expect(code).toBe(1);
  });
});
