// The trust operations on the generated faces: OpenAPI, the MCP tool list, and an A2A skill call
// and an MCP tool call of the key publication (proof of possession checked on every face).
import * as ed from '@noble/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustOps } from '../../src/core/platform/trust/ops.js';
import { agent } from '../helpers/http.js';
import { expectDocumented, expectTools, openapi, skill, skillText } from '../helpers/faces.js';
import { mcp } from '../helpers/mcp.js';
import { start, type TestServer } from '../helpers/server.js';
import { canonical } from './verify-helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '0' });
});
afterAll(async () => s.stop());

async function keyFor(id: string) {
  const priv = ed.utils.randomSecretKey();
  const pub = Buffer.from(await ed.getPublicKeyAsync(priv)).toString('hex');
  const sig = Buffer.from(await ed.signAsync(new Uint8Array(canonical('idkey1', `commons.test ${id} ${pub}`)), priv)).toString('base64url');
  return { pub, sig };
}

describe('faces', () => {
  it('OpenAPI documents every trust route; MCP lists the public ones (operator ops are not tools; the key documents are one, key_get)', async () => {
    expectDocumented(
      await openapi(s),
      trustOps.filter((o) => o.rest),
    );
    const tools = await expectTools(
      s,
      trustOps.filter((o) => !o.name.startsWith('admin.') && !o.via),
    );
    expect(
      trustOps
        .filter((o) => o.via)
        .map((o) => o.name)
        .sort(),
    ).toEqual(['key.agent_did', 'key.cert', 'key.did', 'key.server']);
    for (const o of trustOps.filter((o) => o.via)) expect(tools.has(o.name.replace('.', '_')), o.name).toBe(false);
  });

  it('A2A: key.get of=server answers the cx-key; key.publish checks the proof of possession', async () => {
    const r = await skill(s, null, 'key.get', { of: 'server' });
    expect(skillText(r)).toMatch(/^key kid=\d+ alg=Ed25519 pub=[0-9a-f]{64} domain=commons\.test/);
    const who = await agent(s, 'a2akey');
    const k = await keyFor(who.id);
    const bad = await skill(s, who, 'key.publish', { pub: k.pub, sig: (await keyFor('aother')).sig });
    expect(bad.status.state).not.toBe('completed');
    const ok = await skill(s, who, 'key.publish', k);
    expect(skillText(ok)).toBe(`ok key ${who.id} pub=${k.pub} did=did:web:commons.test:a:${who.id}\nnext: GET http://commons.test/a/${who.id}/did.json`);
    expect((await fetch(`${s.url}/a/${who.id}/did.json`)).status).toBe(200);
  });

  it('MCP: key_publish as a tool call', async () => {
    const who = await agent(s, 'mcpkey');
    const c = await mcp(s, who);
    try {
      const k = await keyFor(who.id);
      const r = await c.call('key_publish', k);
      expect(r.structuredContent?.did).toBe(`did:web:commons.test:a:${who.id}`);
    } finally {
      await c.close();
    }
  });
});
