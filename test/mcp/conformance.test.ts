// The official MCP conformance suite against the real server. Fixture-only scenarios are listed in
// expected-failures.yml; the CLI fails on any other failure and on a stale baseline.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await start();
});
afterAll(async () => s.stop());

describe('MCP conformance suite 0.1.16', () => {
  it('passes every server scenario except the fixture-named ones', async () => {
    const url = `${s.url.replace('127.0.0.1', 'localhost')}/mcp`;
    const out = await new Promise<{ code: number | null; text: string }>((resolve) => {
      const p = spawn(
        process.execPath,
        [
          'node_modules/mcp-conformance-016/dist/index.js',
          'server',
          '--url',
          url,
          '--suite',
          'all',
          '--expected-failures',
          'test/mcp/conformance/expected-failures.yml',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let text = '';
      p.stdout.on('data', (d) => (text += d));
      p.stderr.on('data', (d) => (text += d));
      p.on('exit', (code) => resolve({ code, text }));
    });
    const summary = out.text.slice(out.text.indexOf('=== SUMMARY ==='));
    expect(summary, summary).toMatch(/Baseline check passed/);
    for (const sc of [
      'server-initialize',
      'logging-set-level',
      'ping',
      'completion-complete',
      'tools-list',
      'resources-list',
      'prompts-list',
      'dns-rebinding-protection',
      'server-sse-multiple-streams',
    ]) {
      expect(summary).toMatch(new RegExp(`✓ ${sc}: [1-9]\\d* passed, 0 failed`));
    }
    expect(out.code).toBe(0);
  }, 120_000);
});
