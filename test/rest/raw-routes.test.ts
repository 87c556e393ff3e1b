// Raw routes are a declared binding kind (src/http/raw.ts): every route the three faces register
// is either generated from an operation or declared in a face's table, and the other way round;
// a route added by hand fails the start; and what a declaration says (shedding class, freeze,
// quota) is what the registrar applies, through the real server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aFace } from '../../src/a2a/routes.js';
import { a2aCardRoutes, a2aRpcRoutes } from '../../src/a2a/raw-routes.js';
import { buildCore } from '../../src/compose/core.js';
import { OPS } from '../../src/compose/registry.js';
import { loadConfig } from '../../src/config.js';
import type { Core } from '../../src/core/kernel/types.js';
import { createHost } from '../../src/http/host.js';
import { methodsOf, type RawGroup, type RawRoute } from '../../src/http/raw.js';
import { mcpCardRoutes, mcpStreamRoutes, mcpSvcRoutes } from '../../src/mcp/raw-routes.js';
import { mcpFace } from '../../src/mcp/routes.js';
import { restFace } from '../../src/rest/plugin.js';
import { REST_RAW_ROUTES } from '../../src/rest/raw-routes.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { start, type TestServer } from '../helpers/server.js';

const GROUPS: readonly RawGroup<string, never>[] = [...REST_RAW_ROUTES, mcpStreamRoutes, mcpSvcRoutes, mcpCardRoutes, a2aRpcRoutes, a2aCardRoutes];

let dir: string;
let core: Core;
let store: ReturnType<typeof openSqliteStore>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cx-raw-'));
  const config = loadConfig({ CX_DATA: dir, PORT: '0', CATALOG_PORT: '0', HOST: '127.0.0.1', CX_POW_BITS: '8', CX_BASE_URL: 'http://commons.test' });
  store = openSqliteStore(config.dataDir, config.sync, config.workspaceKey);
  core = buildCore(config, store, pino({ enabled: false }));
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the route table', () => {
  it('every registered route is an operation route or a declared raw route, and every declaration is registered', async () => {
    const app = await createHost(core, { logger: false });
    const seen: Array<{ method: string; url: string; raw?: string; op?: boolean }> = [];
    app.addHook('onRoute', (r) => {
      const c = r.config as { cxOp?: boolean; cxRaw?: string };
      for (const m of [r.method].flat()) seen.push({ method: m, url: r.url, ...(c.cxRaw ? { raw: c.cxRaw } : {}), ...(c.cxOp ? { op: true } : {}) });
    });
    await app.register(restFace, { core, ops: OPS });
    await app.register(mcpFace, { core, ops: OPS });
    await app.register(a2aFace, { core, ops: OPS });
    await app.ready();
    await app.close();

    // Operation routes: exactly the bindings of the registry (paths and their twins).
    const opRoutes = new Set(
      OPS.flatMap((o) => (o.rest ? [o.rest.path, ...(o.rest.twins ?? []).map((t) => `${o.rest!.path}.${t}`)].map((p) => `${o.rest!.method} ${p}`) : [])),
    );
    const declared = new Set(GROUPS.flatMap((g) => Object.values<RawRoute>(g.routes).flatMap((r) => methodsOf(r).map((m) => `${m} ${r.path}`))));
    const undeclared: string[] = [];
    for (const s of seen) {
      const key = `${s.method} ${s.url}`;
      // fastify adds a HEAD beside each GET; it carries the GET's config.
      const got = s.method === 'HEAD' && !declared.has(key) && !opRoutes.has(key) ? `GET ${s.url}` : key;
      if (s.op ? !opRoutes.has(got) : !(s.raw && declared.has(got))) undeclared.push(key);
    }
    expect(undeclared).toEqual([]);
    const registered = new Set(seen.map((s) => `${s.method} ${s.url}`));
    expect([...declared].filter((d) => !registered.has(d))).toEqual([]);
    expect([...opRoutes].filter((d) => !registered.has(d))).toEqual([]);
    // The raw routes are many (pages, files, feeds, exports, git, protocol endpoints): a table that
    // stopped being read would leave this near zero.
    expect(seen.filter((s) => s.raw).length).toBeGreaterThan(80);
  });

  it('a route registered by hand fails the start', async () => {
    const app = await createHost(core, { logger: false });
    const planted = async () => {
      app.get('/planted', async () => 'by hand');
      await app.ready();
    };
    await expect(planted()).rejects.toThrow(/GET \/planted is neither an operation nor a declared raw route/);
    await app.close().catch(() => {});
  });

  it('declarations are well formed: one path per method, a purpose line, per-network buckets only', () => {
    const keys = GROUPS.flatMap((g) => Object.values<RawRoute>(g.routes).flatMap((r) => methodsOf(r).map((m) => `${m} ${r.path}`)));
    expect(keys.length).toBe(new Set(keys).size);
    for (const g of GROUPS) for (const r of Object.values<RawRoute>(g.routes)) expect(r.purpose, r.path).toMatch(/^[^\n]{3,120}$/);
  });
});

describe('what a declaration says is what the route does', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await start({ CX_TRUST_PROXY: '1' });
  });
  afterAll(async () => s.stop());
  const admin = (what: string, on: boolean) =>
    fetch(`${s.url}/admin/freeze`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.config.operatorTokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ what, on }),
    });

  it('POST /in/{id} declares freeze write: a write freeze refuses it 503 err frozen write before any lookup; lifted, an unknown id is 404', async () => {
    expect((await admin('write', true)).status).toBe(200);
    try {
      const r = await fetch(`${s.url}/in/hzzzzzzzzzzzz`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(503);
      expect(await r.text()).toBe('err frozen write\n');
    } finally {
      expect((await admin('write', false)).status).toBe(200);
    }
    const r = await fetch(`${s.url}/in/hzzzzzzzzzzzz`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(404);
  });

  it('a bulk route is shed from level 1 with the one busy line; a core one is served', async () => {
    expect((await admin('shed:1', true)).status).toBe(200);
    try {
      const tar = await fetch(`${s.url}/git/kb.tar.gz`);
      expect(tar.status).toBe(503);
      expect(await tar.text()).toMatch(/^err busy shed level 1: bulk work /);
      expect(tar.headers.get('retry-after')).not.toBeNull();
      expect((await fetch(`${s.url}/robots.txt`)).status).toBe(200);
    } finally {
      expect((await admin('shed:0', false)).status).toBe(200);
    }
  });

  it('POST /notice is an anonymous write: shed from level 3 as /limits publishes, served below it', async () => {
    for (const level of [3, 2]) {
      expect((await admin(`shed:${level}`, true)).status).toBe(200);
      try {
        const r = await fetch(`${s.url}/notice`, {
          method: 'POST',
          body: 'url=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://commons.test' },
        });
        if (level === 3) expect(await r.text()).toMatch(/^err busy shed level 3: anon_write work /);
        expect(r.status === 503, `level ${level}`).toBe(level === 3);
      } finally {
        expect((await admin('shed:0', false)).status).toBe(200);
      }
    }
  });

  it('POST /notice takes its declared notice quota only after its checks: refused forms cost nothing', async () => {
    const origin = 'http://commons.test';
    const ft = ((await (await fetch(`${s.url}/notice?f=json`)).json()) as { ft: string }).ft;
    const form = (o: Record<string, string>) =>
      new URLSearchParams({ url: `${origin}/about`, category: 'spam', reason: 'Advertising on a page.', email: 'p@example.org', good_faith: 'yes', ft, ...o });
    const post = (body: URLSearchParams) =>
      fetch(`${s.url}/notice`, {
        method: 'POST',
        body,
        headers: { origin, 'x-forwarded-for': '10.77.0.1', 'content-type': 'application/x-www-form-urlencoded' },
      });
    // More refused forms than the bucket holds (20): none is charged.
    for (let i = 0; i < 22; i++) {
      const r = await post(form({ ft: 'forged' }));
      expect(r.status).toBe(400);
    }
    const ok = await post(form({}));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toMatch(/^ok notice n[0-9a-z]{8} /);
  });
});
