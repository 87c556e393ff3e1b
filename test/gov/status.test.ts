// /status, /st/{target} and /healthz?v=2 through the real server, from control state set in the test
// (freezes, shed level, a maintenance window) and an announcement line on g:sys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishLine } from '../../src/core/swarm/lines.js';
import { start, type TestServer } from '../helpers/server.js';
import { caller } from './helpers.js';

let s: TestServer;
let call: ReturnType<typeof caller>;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  call = caller(s);
});
afterAll(async () => s.stop());

describe('/status and /st', () => {
  it('all operational at first', async () => {
    const t = (await call('GET', '/status')).text;
    expect(t).toMatch(/^status at=\S+Z shed=0 frozen=- maintenance_until=-\n/);
    expect(t).toContain('st api operational\n');
    expect((await call('GET', '/st/drops')).text).toBe(
      'st drops operational\nwhy: no freeze, maintenance or shedding\nannouncements: 0 (GET /status)\nnext: GET /f/st/drops.atom\n',
    );
  });

  it('shows a freeze and an announcement line; /st of the frozen kind says frozen', async () => {
    await s.core.control.freeze('drops', true, 'admin', 'disk <full>');
    const line = await publishLine(s.core, 'g:sys', 'ann1 #1 incident 2026-11-24T10:00:00Z..2026-11-24T12:00:00Z drops paused <b>', { by: 'sys' });
    const t = (await call('GET', '/status')).text;
    expect(t).toMatch(/^status at=\S+ shed=0 frozen=drops maintenance_until=-\n/);
    expect(t).toMatch(/\nfreeze drops since=\S+Z by=admin note=disk <full>\n/);
    expect(t).toContain(`\nann #${line.seq} `);
    expect(t).toContain('drops paused <b>');
    expect(t).toContain('st drops frozen\n');
    expect(t).toContain('st notes operational\n');
    const st = await call('GET', '/st/drops');
    expect(st.text).toMatch(/^st drops frozen\nwhy: frozen: drops \(disk <full>\)\nsince: \S+Z\nannouncements: 1 /);
    const j = JSON.parse((await call('GET', '/status.json')).text);
    expect(j.freezes).toEqual([expect.objectContaining({ kind: 'drops', by: 'admin', note: 'disk <full>' })]);
    expect(j.announcements[0]).toMatchObject({ seq: line.seq, by: 'sys', text: line.text });
    // Browsers get HTML with every stored string escaped.
    const html = (await call('GET', '/status', { accept: 'text/html' })).text;
    expect(html).toContain('disk &lt;full&gt;');
    expect(html).toContain('drops paused &lt;b&gt;');
    expect(html).not.toContain('<b>');
    // `write` freezes every write kind, `all` the api itself.
    await s.core.control.freeze('write', true, 'admin');
    expect((await call('GET', '/st/notes')).text.split('\n')[0]).toBe('st notes frozen');
    expect((await call('GET', '/st/compute')).text.split('\n')[0]).toBe('st compute operational');
    await s.core.control.freeze('write', false, 'admin');
    await s.core.control.freeze('drops', false, 'admin');
    expect((await call('GET', '/st/drops')).text.split('\n')[0]).toBe('st drops operational');
  });

  it('unknown targets are 404; over-long ones 400', async () => {
    expect((await call('GET', '/st/nope')).status).toBe(404);
    expect((await call('GET', `/st/${'x'.repeat(81)}`)).status).toBe(400);
  });
});

describe('/healthz?v=2', () => {
  it('reports the real shed level, frozen kinds and maintenance_until; /status agrees', async () => {
    const h1 = JSON.parse((await call('GET', '/healthz?v=2&f=json')).text);
    expect(h1).toMatchObject({ ok: true, shed: 0, frozen: [], maintenance_until: null });
    await s.core.control.setShed(2, 'test load');
    await s.core.control.freeze('mail', true, 'admin');
    const ends = Math.floor((Date.now() + 3_600_000) / 1000) * 1000;
    await s.core.control.addMaintenance({ starts: Date.now() - 1000, ends, text: 'db upgrade' });
    const until = new Date(ends).toISOString().replace('.000Z', 'Z');
    const h = JSON.parse((await call('GET', '/healthz?v=2&f=json')).text);
    expect(h).toMatchObject({ shed: 2, frozen: ['mail'], maintenance_until: until });
    expect(h.shed_reasons).toContain('operator');
    const t = (await call('GET', '/healthz?v=2')).text;
    expect(t).toContain('\nshed: 2 operator');
    expect(t).toContain('\nfrozen: mail\n');
    expect(t).toContain(`\nmaintenance_until: ${until}`);
    const st = JSON.parse((await call('GET', '/status?f=json')).text);
    expect(st).toMatchObject({ shed: 2, maintenance_until: until });
    expect(st.maintenance).toEqual([expect.objectContaining({ ends: until, text: 'db upgrade' })]);
    expect(st.targets.find((x: { target: string }) => x.target === 'notes').state).toBe('maintenance');
    expect(st.targets.find((x: { target: string }) => x.target === 'compute').state).toBe('degraded');
    expect(st.targets.find((x: { target: string }) => x.target === 'mail').state).toBe('frozen');
    await s.core.control.clearMaintenance();
    await s.core.control.setShed(0, '');
    await s.core.control.freeze('mail', false, 'admin');
    expect(JSON.parse((await call('GET', '/healthz?v=2&f=json')).text)).toMatchObject({ shed: 0, frozen: [], maintenance_until: null });
  });
});
