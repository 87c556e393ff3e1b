// The official MCP conformance suite 0.2.0-alpha.12 at revision 2026-07-28 against the real server:
// every scenario that calls no fixture passes (the fixture-calling ones are listed, with reasons, in
// expected-failures-2026.yml; the CLI fails on any other failure and on a stale baseline). Node 20
// needs the fs.globSync shim (register.mjs) for this version too.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start();
});
afterAll(async () => s.stop());

export function runSuite(url: string, args: string[]): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', './test/mcp/conformance/register.mjs', 'node_modules/@modelcontextprotocol/conformance/dist/index.js', 'server', '--url', url, '--requirements', '2026-07-28', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    p.stdout.on('data', (d) => (text += d));
    p.stderr.on('data', (d) => (text += d));
    p.on('exit', (code) => resolve({ code, text }));
  });
}

describe('MCP conformance suite 0.2.0-alpha.12, requirements 2026-07-28', () => {
  it('passes every scenario that calls no fixture', async () => {
    const out = await runSuite(`${s.url.replace('127.0.0.1', 'localhost')}/mcp`, ['--expected-failures', 'test/mcp/conformance/expected-failures-2026.yml']);
    const summary = out.text.slice(out.text.indexOf('=== SUMMARY ==='));
    expect(summary, summary).toMatch(/Baseline check passed|All .*expected/i);
    for (const sc of ['tools-list', 'resources-list', 'prompts-list', 'completion-complete', 'dns-rebinding-protection', 'caching', 'sep-2164-resource-not-found', 'server-sse-multiple-streams', 'http-header-validation', 'input-required-result-unsupported-methods', 'input-required-result-validate-input']) {
      expect(summary).toMatch(new RegExp(`✓ ${sc}: [1-9]\\d* passed, 0 failed`));
    }
    expect(out.code).toBe(0);
  }, 240_000);
});
