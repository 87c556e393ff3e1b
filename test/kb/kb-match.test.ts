// Confidence said out loud on every face: REST (text and JSON), the MCP SDK client and both A2A SDK
// clients. An exact match (the key line's own signature), a near one (another signature whose key
// line agrees closely: its fix is shown), a related one (candidates worth a look, no fix), and a
// real miss: one line on REST that names the next step; a normal result on MCP and A2A with up to 3
// related entries found by search and the next tool to call. What is not exact is recorded as wanted.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errsig } from '../../src/core/kb/errsig/errsig.js';
import { client03, client13, data03, msg03, serveBase, text03, type Json } from '../a2a/helpers.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let mcp: Client;
beforeAll(async () => {
  s = await start({ CX_SEED: '1' }); // the sample KB and services
  serveBase(s.url);
  mcp = new Client({ name: 'test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
});
afterAll(async () => {
  await mcp.close();
  await s.stop();
});

const tb = (mod: string) =>
  `Traceback (most recent call last):\n  File "/home/u/app/x.py", line 2, in <module>\n    import ${mod}\nModuleNotFoundError: No module named '${mod}'`;
// The sample data has a fix for requests (exact). A module it has never seen has many neighbours
// that read alike (one per package name): related, no fix. Another host and port of a refused ssh
// connection is near: the same key line, other names.
const EXACT = tb('requests');
const RELATED = tb('zzqwidgets');
const NEAR = 'ssh: connect to host backup.lan port 2222: Connection refused';
const MISS =
  'Traceback (most recent call last):\n  File "/srv/sync.py", line 9, in run\n    pool.take()\nZzqPoolError: gadget registry exhausted while waiting';

type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Json; isError?: boolean };
const tool = async (name: string, args: Json) => (await mcp.callTool({ name, arguments: args })) as ToolResult;
const postE = (body: string, q = '') => fetch(`${s.url}/e${q}`, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });

describe('exact, near and related matches', () => {
  it('REST says how sure it is on the e: line, and its JSON says the same', async () => {
    for (const [text, match] of [
      [EXACT, 'exact'],
      [NEAR, 'near'],
    ] as const) {
      const t = await (await postE(text)).text();
      const j = (await (await postE(text, '?f=json')).json()) as Json;
      const lines = t.trimEnd().split('\n');
      expect(lines[0]).toBe(`e: ${errsig(text).sig} hits=${j.hits} raw=${text.length} chars match=${match}`);
      expect(j).toMatchObject({ sig: errsig(text).sig, h: errsig(text).h, match, related: [] });
      expect(j.hits).toBeGreaterThan(0);
      // Parity: the text lists exactly the JSON's entries, in order, then its fix and next step.
      expect(lines.filter((l) => l.startsWith('k/')).map((l) => l.split(' ')[0])).toEqual(j.entries.map((e: Json) => `k/${e.id}`));
      expect(lines).toContain(`fix: ${j.fix.replace(/\s+/g, ' ').trim().slice(0, 599)}${j.fix.replace(/\s+/g, ' ').trim().length > 600 ? '…' : ''}`);
      // libs: the libraries of the answer shown, not of its neighbours.
      expect(j.libs).toEqual(j.entries[0].libs);
      expect(lines).toContain(`next: ${j.next}`);
    }
    expect(((await (await postE(NEAR, '?f=json')).json()) as Json).entries[0].title).toBe('ssh: connect to host port 22: Connection refused');
    // Markdown and GitHub Actions annotations say a near match is one.
    expect(await (await postE(NEAR, '?f=md')).text()).toMatch(/^### Agent Commons: `[^\n]*`\n\nNear match: /);
    expect(await (await postE(NEAR, '?f=gha')).text()).toMatch(/^::notice title=Agent Commons \(near match\)%3A /);
    expect(await (await postE(EXACT, '?f=md')).text()).not.toContain('Near match');
    // What is not exact is wanted.
    const wanted = await (await fetch(`${s.url}/wanted`)).text();
    expect(wanted).toContain(errsig(NEAR).sig);
    expect(wanted).not.toContain(errsig(EXACT).sig);
  });

  it('related: up to 3 candidates with why each was picked, and no fix line, on every format', async () => {
    const r = await postE(RELATED);
    expect(r.status).toBe(200);
    const lines = (await r.text()).trimEnd().split('\n');
    const j = (await (await postE(RELATED, '?f=json')).json()) as Json;
    expect(lines[0]).toBe(`e: ${errsig(RELATED).sig} hits=0 raw=${RELATED.length} chars match=related`);
    expect(j).toMatchObject({ match: 'related', hits: 0, entries: [], fix: '', libs: [] });
    expect(j.related.length).toBeGreaterThanOrEqual(2);
    expect(j.related.length).toBeLessThanOrEqual(3);
    expect(lines.slice(1, -1)).toEqual(j.related.map((e: Json) => `related: k/${e.id} ${e.title} (${e.why})`));
    for (const e of j.related) expect(e.title).toMatch(/ModuleNotFoundError/);
    expect(lines.some((l) => l.startsWith('fix:'))).toBe(false);
    expect(lines.at(-1)).toMatch(/^next: no confident fix: /);
    expect(await (await postE(RELATED, '?f=md')).text()).toContain('No confident fix. Related entries to check:');
    expect(await (await postE(RELATED, '?f=gha')).text()).toMatch(/^::notice title=Agent Commons%3A no confident fix::/);
    expect(await (await fetch(`${s.url}/wanted`)).text()).toContain(errsig(RELATED).sig);
  });

  it('GET /e/{msg} answers as POST /e does; GET /h/{hex} of a coarse hash is related, never a fix', async () => {
    for (const text of [NEAR, "ModuleNotFoundError: No module named 'zzqgadgets'"]) {
      const page = await fetch(`${s.url}/e/${encodeURIComponent(text)}`);
      expect(page.status).toBe(200);
      const post = ((await (await postE(text, '?f=json')).json()) as Json).match;
      expect((await page.text()).split('\n')[0]).toMatch(new RegExp(` match=${post}$`));
    }
    const byCh = await fetch(`${s.url}/h/${errsig(RELATED).ch}`);
    expect(byCh.status).toBe(200);
    const t = await byCh.text();
    expect(t).toMatch(/^h: [0-9a-f]{12} hits=0 match=related\nrelated: k\/k[0-9a-z]{8} /);
    expect(t).not.toContain('\nfix: ');
  });

  it('the MCP tool gives the same text as REST and the match in structuredContent', async () => {
    for (const [text, match] of [
      [EXACT, 'exact'],
      [NEAR, 'near'],
      [RELATED, 'related'],
    ] as const) {
      const r = await tool('kb_e', { text });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ match, sig: errsig(text).sig });
      // Same lines as REST, except that the next line names tools instead of routes (issue 15).
      const rest = (await (await postE(text)).text()).trimEnd().split('\n');
      const lines = r.content[0]!.text.split('\n');
      expect(lines.slice(0, -1)).toEqual(rest.slice(0, -1));
      if (match !== 'related') {
        expect(rest.at(-1)).toMatch(/^next: GET \/k\//);
        expect(lines.at(-1)).toMatch(/^next: call kb_get \{"id":"k[0-9a-z]{8}"\}.*call kb_confirm \{"id":/);
      }
    }
  });
});

describe('a real miss', () => {
  it('REST: one 404 line that names the next step; the signature is recorded as wanted', async () => {
    const r = await postE(MISS);
    expect(r.status).toBe(404);
    const t = await r.text();
    expect(t).toBe(
      `err notfound no fix yet for ${errsig(MISS).sig}; recorded as wanted; try GET /brief?q=ZzqPoolError+gadget+registry+exhausted+while+waiting\n`,
    );
    expect(await (await fetch(`${s.url}/wanted`)).text()).toContain(errsig(MISS).sig);
    const h = await fetch(`${s.url}/h/${'7'.repeat(64)}`);
    expect(h.status).toBe(404);
    expect(await h.text()).toBe('err notfound no fix for this hash; recorded as wanted; try POST /e with the whole error output\n');
  });

  it('MCP: a normal result listing up to 3 related entries (title and id) and the next tool', async () => {
    const r = await tool('kb_e', { text: MISS });
    expect(r.isError).toBeFalsy();
    const o = r.structuredContent as Json;
    expect(o).toMatchObject({ sig: errsig(MISS).sig, match: 'none', hits: 0, entries: [] });
    expect(o.related.length).toBeGreaterThanOrEqual(1);
    expect(o.related.length).toBeLessThanOrEqual(3);
    for (const e of o.related) {
      expect(e.id).toMatch(/^k[0-9a-z]{8}$/);
      expect(e.title.length).toBeGreaterThan(0);
    }
    expect(o.next).toMatch(/^call kb_brief \{"q":"ZzqPoolError gadget registry exhausted while waiting"\}/);
    const lines = r.content[0]!.text.split('\n');
    expect(lines[0]).toBe(`e: ${errsig(MISS).sig} hits=0 raw=${MISS.length} chars match=none`);
    expect(lines.slice(1, -1)).toEqual(o.related.map((e: Json) => `related: k/${e.id} ${e.title}`));
    expect(lines.at(-1)).toBe(`next: ${o.next}`);
    // The named tools exist, and a related entry can be read.
    const names = (await mcp.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['kb_brief', 'kb_get', 'kb_add']));
    expect((await tool('kb_get', { id: o.related[0].id })).isError).toBeFalsy();
    // A hash nobody knows: a normal result naming kb_e.
    const h = await tool('kb_h', { hex: '8'.repeat(64) });
    expect(h.isError).toBeFalsy();
    expect(h.structuredContent).toMatchObject({ match: 'none', hits: 0, related: [] });
    expect(h.content[0]!.text).toMatch(/\nnext: call kb_e with the whole error output/);
  });

  it('A2A (0.3 and 1.0 clients): a completed task whose result lists the related entries and the next skill', async () => {
    const c03 = await client03(`${s.url}/.well-known/agent.json`);
    const r = (await c03.sendMessage({
      message: msg03([data03({ skill: 'kb.e', input: { text: MISS } })]) as never,
      configuration: { blocking: true },
    })) as Json;
    const task = r.result;
    expect(task.status.state).toBe('completed');
    const [text, data] = task.artifacts[0].parts;
    expect(data.data).toMatchObject({ match: 'none', sig: errsig(MISS).sig });
    expect(data.data.related.length).toBeGreaterThanOrEqual(1);
    expect(text.text).toMatch(/\nrelated: k\/k[0-9a-z]{8} /);
    // In A2A's own terms: the message that runs the skill, not an MCP tool.
    expect(text.text).toMatch(/\nnext: send \{"skill":"kb\.brief","input":\{"q":/);
    expect(text.text).not.toMatch(/kb_brief|kb_get|kb_add/);
    // The text command `e <error text>` is the same skill.
    const cmd = (await c03.sendMessage({ message: msg03([text03(`e ${MISS}`)]) as never, configuration: { blocking: true } })) as Json;
    expect(cmd.result.artifacts[0].parts[1].data).toMatchObject({ match: 'none' });

    const c13 = await client13(s.url);
    const r13 = (await c13.sendMessage(
      SendMessageRequest.fromJSON({ message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text: `e ${MISS}` }] }, configuration: {} }),
    )) as Json;
    expect(r13.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(r13.artifacts[0].parts[0].content.value).toMatch(/ match=none\n(related: k\/k[0-9a-z]{8} [^\n]+\n){1,3}next: send \{"skill":"kb\.brief"/);
  });
});
