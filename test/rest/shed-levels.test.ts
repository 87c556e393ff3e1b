// Load shedding by levels through the real server: each level sheds its class of work in order
// (bulk from 1, heavy from 2, anonymous writes from 3) with 503 err busy and Retry-After, while
// /healthz, /limits, operator routes and token work are served at every level; the same on the MCP
// face; and an induced event-loop delay (the stallLoop test hook) raises the measured level with
// /healthz still answering, which falls back once the loop is calm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stallLoop } from '../../src/http/pressure.js';
import { agent, type Who } from '../helpers/http.js';
import { mcp, toolText } from '../helpers/mcp.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let who: Who;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SHED: '1' });
  who = await agent(s);
});
afterAll(async () => s.stop());

const h = (o: { token?: string } = {}) => ({ 'x-forwarded-for': who.net, ...(o.token ? { authorization: `Bearer ${o.token}` } : {}) });
const probes: Record<string, { cls: 'bulk' | 'heavy' | 'anon_write' | 'core' | 'never'; go: () => Promise<Response> }> = {
  feed: { cls: 'bulk', go: () => fetch(`${s.url}/f/kb.json`, { headers: h() }) },
  search: { cls: 'bulk', go: () => fetch(`${s.url}/search?q=error`, { headers: h() }) },
  inj: { cls: 'bulk', go: () => fetch(`${s.url}/inj`, { headers: h() }) },
  export: { cls: 'bulk', go: () => fetch(`${s.url}/export/index`, { headers: h() }) },
  brief: { cls: 'heavy', go: () => fetch(`${s.url}/brief?q=module%20not%20found`, { headers: h({ token: who.token }) }) },
  challenge: { cls: 'anon_write', go: () => fetch(`${s.url}/v1/challenge?for=reg`, { method: 'POST', headers: h() }) },
  me: { cls: 'core', go: () => fetch(`${s.url}/v1/me`, { headers: h({ token: who.token }) }) },
  anchor: {
    cls: 'core',
    go: () =>
      fetch(`${s.url}/v1/anchor/shed-test`, {
        method: 'PUT',
        headers: { ...h({ token: who.token }), 'content-type': 'application/json' },
        body: JSON.stringify({ note: 'here' }),
      }),
  },
  health: { cls: 'never', go: () => fetch(`${s.url}/healthz`, { headers: h() }) },
  limits: { cls: 'never', go: () => fetch(`${s.url}/limits`, { headers: h() }) },
  inbox: { cls: 'never', go: () => fetch(`${s.url}/admin/inbox`, { headers: h({ token: s.config.operatorTokens.poll }) }) },
};
const FROM = { bulk: 1, heavy: 2, anon_write: 3, core: Infinity, never: Infinity } as const;

async function health(): Promise<{ shed: number; shed_reasons: string[] }> {
  return (await (await fetch(`${s.url}/healthz?v=2&f=json`)).json()) as { shed: number; shed_reasons: string[] };
}

describe('shed levels', () => {
  it('levels 0-3 set by /admin/freeze shed:<n> shed bulk, then heavy, then anonymous writes; never /healthz, /limits, operator or token work', async () => {
    const freeze = (what: string, on: boolean) =>
      fetch(`${s.url}/admin/freeze`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.config.operatorTokens.admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ what, on }),
      });
    try {
      for (const level of [0, 1, 2, 3]) {
        if (level) expect((await freeze(`shed:${level}`, true)).status).toBe(200);
        expect(await health()).toMatchObject({ shed: level, shed_reasons: level ? ['operator'] : [] });
        for (const [name, p] of Object.entries(probes)) {
          const r = await p.go();
          const shed = level >= FROM[p.cls];
          // Served means anything but 503 (the export index is 404 until the first daily export).
          expect([name, level, r.status === 503]).toEqual([name, level, shed]);
          if (shed) {
            expect(r.headers.get('retry-after')).toBe('10');
            expect(await r.text()).toMatch(new RegExp(`^err busy shed level ${level}: ${p.cls} work .* retry later\\n$`));
          } else expect([200, 201, ...(name === 'export' ? [404] : [])]).toContain(r.status);
        }
      }
    } finally {
      await freeze('shed:0', false);
    }
    expect((await probes.feed!.go()).status).toBe(200);
  });

  it('the MCP face sheds the same operations', async () => {
    await s.core.control.setShed(1, 'test', 'admin');
    const c = await mcp(s, who, who.net, 'all');
    try {
      const r = await c.call('kb_search', { q: 'error' });
      expect(r.isError).toBe(true);
      expect(toolText(r)).toMatch(/^err busy shed level 1: bulk work /);
      expect((await c.call('id_me', {})).isError).toBeFalsy();
    } finally {
      await c.close();
      await s.core.control.setShed(0, '', 'admin');
    }
  });

  it('an induced event-loop delay raises the measured level: bulk work is shed, /healthz answers; calm brings it back to 0', async () => {
    // Block the loop 1.2 s in every 1.3 s for up to 15 s: p99 delay over each second is above shed.delay.l1.
    const stop = stallLoop(1200, 1300, 15_000);
    let seen: { shed: number; shed_reasons: string[] } | null = null;
    try {
      for (let i = 0; i < 40 && !seen; i++) {
        const r = await fetch(`${s.url}/healthz?v=2&f=json`);
        expect(r.status).toBe(200); // liveness answers throughout
        const v = (await r.json()) as { shed: number; shed_reasons: string[] };
        if (v.shed >= 1) seen = v;
        else await new Promise((res) => setTimeout(res, 250));
      }
      expect(seen).not.toBeNull();
      expect(seen!.shed_reasons).toContain('event_loop_delay');
      const feed = await probes.feed!.go();
      expect(feed.status).toBe(503);
      expect(feed.headers.get('retry-after')).toBe('10');
      expect((await probes.health!.go()).status).toBe(200);
      expect((await probes.me!.go()).status).toBe(200);
    } finally {
      stop();
    }
    // Calm: down one level per shed.calm quiet seconds.
    let level = 99;
    for (let i = 0; i < 60 && level > 0; i++) {
      await new Promise((res) => setTimeout(res, 500));
      level = (await health()).shed;
    }
    expect(level).toBe(0);
    expect((await probes.feed!.go()).status).toBe(200);
  }, 60_000);
});
