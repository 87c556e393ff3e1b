import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_OPS_TOKEN: 'ops-token-from-env-0123456789' });
});
afterAll(async () => s.stop());

const stats = (token?: string) => fetch(`${s.url}/admin/stats`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('operator token classes', () => {
  it('generates unset operator tokens once into a 0600 file and keeps env ones', () => {
    const file = `${s.dir}/operator-tokens.json`;
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const t = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    expect(Object.keys(t).sort()).toEqual(['admin', 'check', 'ops', 'poll']);
    expect(s.config.operatorTokens.ops).toBe('ops-token-from-env-0123456789');
    expect(s.config.operatorTokens.poll).toBe(t.poll);
  });

  it('poll and admin tokens read /admin/stats; ops, user and no token do not', async () => {
    const { poll, admin, ops } = s.config.operatorTokens;
    for (const t of [poll, admin]) {
      const r = await stats(t);
      expect(r.status).toBe(200);
      expect((await r.text()).split('\n')[0]).toMatch(/^stats identities=\d+ uptime=\d+s shed=0 frozen=- storage=sqlite-wal version=1\.0\.0$/);
    }
    const wrong = await stats(ops);
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toBe('err auth admin: poll token required\n');
    const { token } = await register(s.url);
    expect(await (await stats(token)).text()).toBe('err auth admin: poll token required\n');
    expect((await stats()).status).toBe(401);
    expect(await (await stats('not-a-token')).text()).toBe('err auth unknown token\n');
  });
});
