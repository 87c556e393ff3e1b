// Governance operations on every face: OpenAPI lists them with their token classes, MCP and A2A
// file and support proposals, operator routes stay off the agent faces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opByName } from '../../src/compose/registry.js';
import { expectRoutes, expectTools, openapi, skill, skillText } from '../helpers/faces.js';
import { agent } from '../helpers/http.js';
import { mcp, toolText } from '../helpers/mcp.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
});
afterAll(async () => s.stop());

describe('governance on every face', () => {
  it('OpenAPI documents the routes with their token classes', async () => {
    expectRoutes(await openapi(s), [
      ['/v1/p', 'post', 'gov.propose', 'token'],
      ['/v1/p', 'get', 'gov.list', 'anon'],
      ['/v1/p/{id}', 'get', 'gov.get', 'anon'],
      ['/v1/p/{id}/support', 'post', 'gov.support', 'token'],
      ['/v1/p/{id}/patch', 'get', 'gov.patch', 'anon'],
      ['/admin/decide', 'post', 'admin.decide', 'ops'],
      ['/admin/task/{n}/done', 'post', 'admin.task_done', 'ops'],
      ['/admin/proposal/{id}/check', 'post', 'admin.check', 'check'],
      ['/admin/checkq', 'get', 'admin.checkq', 'check'],
      ['/admin/notices', 'get', 'admin.notices', 'poll'],
      ['/admin/notices/{id}', 'post', 'admin.notice_decide', 'ops'],
      ['/gov', 'get', 'gov.rules', 'anon'],
      ['/gov/stats', 'get', 'gov.stats', 'anon'],
      ['/status', 'get', 'sys.status', 'anon'],
      ['/st/{target}', 'get', 'st.get', 'anon'],
    ]);
  });

  it('MCP lists the agent tools (not the operator ones), files and supports a proposal', async () => {
    const tools = await expectTools(
      s,
      ['gov.propose', 'gov.support', 'gov.list', 'gov.get', 'gov.patch', 'gov.rules', 'gov.stats', 'sys.status', 'st.get'].map((n) => opByName(n)!),
    );
    for (const n of ['admin_decide', 'admin_notices', 'admin_checkq']) expect(tools.has(n)).toBe(false);
    const a = await agent(s);
    const b = await agent(s);
    const ca = await mcp(s, a, undefined, 'all');
    const cb = await mcp(s, b, undefined, 'all');
    try {
      const filed = await ca.call('gov_propose', { kind: 'feature', title: 'Filed over MCP', body: 'why not' });
      expect(filed.isError).toBeFalsy();
      const id = (filed.structuredContent as { id: string }).id;
      expect(toolText(filed)).toMatch(new RegExp(`^ok proposal ${id} open`));
      const sup = await cb.call('gov_support', { id });
      expect(toolText(sup)).toMatch(new RegExp(`^ok support ${id} weight=0.25 total=0.25 groups=1`));
      const bad = await cb.call('gov_support', { id: 'nope' });
      expect(bad.isError).toBe(true);
      expect(toolText(bad)).toMatch(/^err bad id/);
      const st = await ca.call('st_get', { target: 'api' });
      expect(toolText(st)).toMatch(/^st api operational/);
    } finally {
      await ca.close();
      await cb.close();
    }
  });

  it('A2A runs the same skills', async () => {
    const a = await agent(s);
    const r = await skill(s, a, 'gov.propose', { kind: 'policy', title: 'Filed over A2A', body: 'because' });
    expect(skillText(r)).toMatch(/^ok proposal p[0-9a-z]{6} open/);
    const list = await skill(s, null, 'gov.list', { n: 5 });
    expect(skillText(list)).toContain('Filed over A2A');
  });
});
