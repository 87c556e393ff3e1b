import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS } from '../../src/compose/registry.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start();
});
afterAll(async () => s.stop());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${s.url}${path}`, { headers, redirect: 'manual' });
const type = (r: Response) => r.headers.get('content-type') ?? '';

describe('landing and indexes', () => {
  it('/ is HTML for browsers and 303 to /index.md otherwise', async () => {
    const html = await get('/', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(html.status).toBe(200);
    expect(type(html)).toBe('text/html; charset=utf-8');
    expect(await html.text()).toMatch(/<title>Agent Commons<\/title>/);
    for (const accept of ['*/*', 'text/plain', 'application/json', 'text/markdown']) {
      const r = await get('/', { accept });
      expect(r.status).toBe(303);
      expect(r.headers.get('location')).toBe('/index.md');
    }
    const md = await get('/index.md');
    expect(type(md)).toMatch(/^text\/markdown/);
    expect(await md.text()).toMatch(/^# Agent Commons/);
  });

  it('/llms.txt is under 1200 bytes, generated from the registry, with rev', async () => {
    const r = await get('/llms.txt');
    const body = await r.text();
    expect(Buffer.byteLength(body)).toBeLessThan(1200);
    expect(body).toMatch(/^# Agent Commons\n/);
    expect(body).toContain('POST /v1/register');
    expect((await get('/llms.txt?rev=1')).status).toBe(200);
    const r0 = await get('/llms.txt?rev=0');
    expect(r0.status).toBe(400);
    expect(await r0.text()).toBe('err bad rev: integer at least 1\n');
    const r9 = await get('/llms.txt?rev=9');
    expect(r9.status).toBe(404);
    expect(await r9.text()).toBe('err notfound no revision 9; latest is 1\n');
  });

  it('/llms-full.txt lists every operation and stays within 512 KiB', async () => {
    const body = await (await get('/llms-full.txt')).text();
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(512 * 1024);
    for (const op of OPS) expect(body).toContain(`### ${op.name}:`);
  });

  it('/AGENTS.md, /grammar, /help, /ci, /aup.txt, /hazards.txt', async () => {
    const agents = await get('/AGENTS.md');
    expect(type(agents)).toMatch(/^text\/markdown/);
    const a = await agents.text();
    for (const op of OPS) expect(a).toContain(`| ${op.name} |`);
    expect(await (await get('/grammar')).text()).toMatch(/^error +=/m);
    const help = await (await get('/help')).text();
    expect(help).toMatch(/^POST \/v1\/register\tanon\t/m);
    expect(type(await get('/help', { accept: 'text/markdown' }))).toMatch(/^text\/markdown/);
    expect(await (await get('/ci')).text()).toMatch(/\/e\?f=gha/);
    expect((await get('/aup.txt')).status).toBe(200);
    const hz = await (await get('/hazards.txt')).text();
    const families = hz.split('\n').filter((l) => l && !l.startsWith('#') && /^[a-z]+\t/.test(l));
    expect(families).toHaveLength(7);
  });
});

describe('twins', () => {
  it('/limits: text, .txt, .md, .json, ?f=json, Accept JSON; public max-age=300', async () => {
    const t = await get('/limits');
    expect(type(t)).toBe('text/plain; charset=utf-8');
    expect(t.headers.get('cache-control')).toBe('public, max-age=300');
    const body = await t.text();
    expect(body).toMatch(/^limits pow_reg_bits=8 pow_w_bits=4 pow_ttl=600s\n/);
    expect(body).toMatch(/^drop\.body 16384 chars$/m);
    expect(body).toMatch(/^e\.lines 400 lines$/m);
    expect(await (await get('/limits.txt')).text()).toBe(body);
    const md = await get('/limits.md');
    expect(type(md)).toMatch(/^text\/markdown/);
    expect(await md.text()).toMatch(/^# Limits\n/);
    for (const r of [await get('/limits.json'), await get('/limits?f=json'), await get('/limits', { accept: 'application/json' })]) {
      expect(type(r)).toBe('application/json; charset=utf-8');
      expect(r.headers.get('cache-control')).toBe('public, max-age=300');
      const j = (await r.json()) as { pow: { reg_bits: number }; limits: { key: string; value: number }[] };
      expect(j.pow.reg_bits).toBe(8);
      expect(j.limits.find((l) => l.key === 'brief.b.max')!.value).toBe(2000);
    }
  });

  it('/about, /legal, /changelog: HTML, .md, .txt, .json', async () => {
    for (const p of ['/about', '/legal', '/changelog']) {
      const html = await get(p, { accept: 'text/html' });
      expect(type(html)).toBe('text/html; charset=utf-8');
      expect(await html.text()).toMatch(/^<!doctype html>/);
      expect(type(await get(`${p}.md`))).toMatch(/^text\/markdown/);
      expect(type(await get(`${p}.txt`))).toBe('text/plain; charset=utf-8');
      expect(type(await get(p))).toBe('text/plain; charset=utf-8');
      const j = await get(`${p}.json`);
      expect(type(j)).toBe('application/json; charset=utf-8');
      expect(typeof (await j.json())).toBe('object');
      expect(type(await get(p, { accept: 'application/json' }))).toBe('application/json; charset=utf-8');
    }
    const cl = (await (await get('/changelog.json')).json()) as { entries: { version: string }[] };
    expect(cl.entries.at(-1)!.version).toBe('1.0.0');
  });

  it('/healthz and ?v=2', async () => {
    const h = await get('/healthz');
    expect(await h.text()).toMatch(/^ok version=1\.0\.0 uptime=\d+s db=ok\nnext: GET \/healthz\?v=2 adds shed levels, frozen kinds and maintenance\n$/);
    const v2 = await (await get('/healthz?v=2')).text();
    expect(v2).toMatch(
      /^ok version=1\.0\.0 uptime=\d+s db=ok\nshed: 0\nfrozen: -\nmaintenance_until: -\nnext: GET \/status for announcements and maintenance windows\n$/,
    );
    const j = (await (await get('/healthz?v=2&f=json')).json()) as Record<string, unknown>;
    expect(j).toMatchObject({ ok: true, db: true, shed: 0, frozen: [], maintenance_until: null });
  });
});

describe('well-known', () => {
  it('security.txt is RFC 9116: Contact and a future Expires within a year', async () => {
    const r = await get('/.well-known/security.txt');
    expect(type(r)).toBe('text/plain; charset=utf-8');
    const t = await r.text();
    expect(t).toMatch(/^Contact: mailto:security@commons\.test$/m);
    const exp = Date.parse(/^Expires: (.+)$/m.exec(t)![1]!);
    expect(exp).toBeGreaterThan(Date.now());
    expect(exp - Date.now()).toBeLessThan(366 * 86_400_000);
  });

  it('api-catalog is an RFC 9727 linkset, and HEAD carries the Link', async () => {
    const r = await get('/.well-known/api-catalog');
    expect(type(r)).toMatch(/^application\/linkset\+json/);
    const j = (await r.json()) as { linkset: { anchor: string; 'service-desc': { href: string }[] }[] };
    expect(j.linkset[0]!['service-desc'][0]!.href).toBe('http://commons.test/openapi.json');
    const head = await fetch(`${s.url}/.well-known/api-catalog`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('link')).toBe('<http://commons.test/.well-known/api-catalog>; rel="api-catalog"');
  });

  it('/data/ → 301 /export/', async () => {
    const r = await get('/data/');
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe('/export/');
  });
});

describe('OpenAPI', () => {
  it('is a valid OpenAPI 3.1.0 document covering every REST operation', async () => {
    const doc = (await (await get('/openapi.json')).json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, Record<string, { 'x-cx-op': string }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    await SwaggerParser.validate(structuredClone(doc) as never);
    const listed = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o['x-cx-op']));
    for (const op of OPS.filter((o) => o.rest)) expect(listed).toContain(op.name);
  });
});

describe('catalog interface', () => {
  it('serves its health route on its own port', async () => {
    const r = await fetch(`${s.catalogUrl}/api/health`);
    expect(await r.json()).toEqual({ ok: true });
  });
});
