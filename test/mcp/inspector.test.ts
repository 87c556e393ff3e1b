// The MCP Inspector CLI, pinned, lists and calls tools on the real server.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
let s: TestServer;
beforeAll(async () => {
  s = await start();
});
afterAll(async () => s.stop());

const inspector = (args: string[]) =>
  run('npx', ['-y', '@modelcontextprotocol/inspector@2.12.0', '--cli', `${s.url}/mcp`, ...args], {
    timeout: 240_000,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });

describe('MCP Inspector CLI 2.12.0', () => {
  it('lists the registry tools', async () => {
    const { stdout } = await inspector(['--method', 'tools/list']);
    const tools = (JSON.parse(stdout) as { tools: { name: string; annotations: object }[] }).tools;
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['id_challenge', 'id_register', 'sys_limits']));
    expect(tools.every((t) => t.annotations)).toBe(true);
  }, 300_000);

  it('calls a tool with arguments', async () => {
    const { stdout } = await inspector(['--method', 'tools/call', '--tool-name', 'id_challenge', '--tool-arg', 'for=w']);
    const r = JSON.parse(stdout) as { content: { text: string }[]; structuredContent: { for: string; bits: number } };
    expect(r.content[0]!.text).toMatch(/^challenge 1\.w\.4\./);
    expect(r.structuredContent).toMatchObject({ for: 'w', bits: 4 });
  }, 300_000);
});
