// The mail operations on the generated faces: OpenAPI, the MCP tool list, an A2A skill.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOps } from '../../src/core/mail/ops.js';
import { start, type TestServer } from '../helpers/server.js';
import { agent, type Who } from '../helpers/http.js';
import { mcp } from '../helpers/mcp.js';
import { expectDocumented, expectTools, openapi, skill } from '../helpers/faces.js';

let s: TestServer;
let alice: Who;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  alice = await agent(s);
});
afterAll(async () => s.stop());

describe('OpenAPI', () => {
  it('documents every mail operation', async () => {
    expectDocumented(await openapi(s), mailOps);
  });
});

describe('MCP', () => {
  it('lists a tool per mail operation; sending needs a token', async () => {
    await expectTools(s, mailOps);
    const c = await mcp(s, null);
    try {
      const refused = await c.call('mail_send', { to: alice.id, body: 'x' });
      expect(refused.isError).toBe(true);
      expect(refused.content[0]!.text).toMatch(/^err auth token required/);
    } finally {
      await c.close();
    }
  });
});

describe('A2A 0.3', () => {
  it('mail.send runs as a skill', async () => {
    const bob = await agent(s);
    const mail = await skill(s, alice, 'mail.send', { to: bob.id, body: 'hi over A2A' });
    expect(mail.artifacts![0]!.parts[0]!.text).toMatch(new RegExp(`^ok mail m[0-9a-z]{10} to=${bob.id} size=11`));
  });
});
