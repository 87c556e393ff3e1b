// Server logs (CX_LOG): `pretty` is one short line per request for a person at a terminal (method,
// path with secrets masked, status, ms) and one line per other message; `json` is pino's structured
// lines for a collector. Both through the real HTTP host (buildApp) with its log stream read back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { buildCore } from '../../src/compose/core.js';
import { OPS } from '../../src/compose/registry.js';
import { logFormatFor, prettyLine } from '../../src/http/log-format.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

function sink() {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (d: Buffer) => lines.push(...d.toString('utf8').split('\n').filter(Boolean)));
  return { stream, lines };
}

const dir = mkdtempSync(join(tmpdir(), 'cx-logs-'));
const store = openSqliteStore(dir);
const core = buildCore(loadConfig({ CX_DATA: dir, CX_BASE_URL: 'http://commons.test', CX_SEED: '0' }), store, pino({ enabled: false }));
const prettyLog = sink();
const jsonLog = sink();
const pretty = await buildApp(core, OPS, { logStream: prettyLog.stream, logFormat: 'pretty' });
const json = await buildApp(core, OPS, { logStream: jsonLog.stream, logFormat: 'json' });
let pUrl = '';
let jUrl = '';
beforeAll(async () => {
  pUrl = await pretty.listen({ port: 0, host: '127.0.0.1' });
  jUrl = await json.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await Promise.all([pretty.close(), json.close()]);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const settle = () => new Promise((r) => setTimeout(r, 50));

describe('CX_LOG=pretty', () => {
  it('one short line per request: time, method, path, status, ms; drop secrets masked; no JSON', async () => {
    await (await fetch(`${pUrl}/healthz`)).text();
    await (await fetch(`${pUrl}/d/zz-secret-that-must-not-show`)).text();
    await (await fetch(`${pUrl}/nope?token=x`)).text();
    await settle();
    expect(prettyLog.lines[0]).toMatch(/^\d\d:\d\d:\d\d INFO Server listening at http:\/\/127\.0\.0\.1:\d+$/);
    const lines = prettyLog.lines.slice(1);
    expect(lines.length).toBe(3);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d GET \/healthz 200 \d+(\.\d)?ms$/);
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d GET \/d\/\*\*\* 404 \d+(\.\d)?ms$/);
    expect(lines[2]).toMatch(/^\d\d:\d\d:\d\d GET \/nope 404 \d+(\.\d)?ms$/);
    expect(lines.join('\n')).not.toContain('zz-secret');
    expect(lines.join('\n')).not.toContain('{');
  });
  it('other messages: level, message and fields on one line', () => {
    const line = prettyLine(
      JSON.stringify({
        level: 30,
        time: Date.UTC(2026, 0, 1, 12, 4, 5),
        pid: 1,
        hostname: 'h',
        url: 'http://x',
        msg: 'agent commons listening',
        data: './data',
        note: 'two words',
      }),
    );
    expect(line).toBe('12:04:05 INFO agent commons listening data=./data note="two words"');
  });
});

describe('CX_LOG=json', () => {
  it('pino JSON lines with the request id, method, masked url and status', async () => {
    await (await fetch(`${jUrl}/healthz`, { headers: { 'x-request-id': 'newcomer-1' } })).text();
    await settle();
    const rows = jsonLog.lines.map((l) => JSON.parse(l) as Record<string, any>);
    const mine = rows.filter((r) => r.reqId === 'newcomer-1');
    expect(mine.find((r) => r.msg === 'incoming request')?.req).toMatchObject({ method: 'GET', url: '/healthz' });
    expect(mine.find((r) => r.msg === 'request completed')?.res).toMatchObject({ statusCode: 200 });
  });
});

describe('the switch', () => {
  it('CX_LOG=pretty|json is taken, anything else stops the start with one line; unset follows whether the log goes to a terminal', () => {
    const base = { CX_DATA: dir };
    expect(loadConfig({ ...base, CX_LOG: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ ...base, CX_LOG: 'JSON' }).logFormat).toBe('json');
    expect(() => loadConfig({ ...base, CX_LOG: 'loud' })).toThrow('config: CX_LOG must be pretty or json');
    expect(loadConfig(base).logFormat).toBe('auto');
    expect(logFormatFor('auto')).toBe(process.stdout.isTTY ? 'pretty' : 'json');
    // A log that goes elsewhere than stdout (a file, a test's stream) is never taken for a terminal.
    expect(logFormatFor('auto', new PassThrough())).toBe('json');
    expect(logFormatFor('pretty', new PassThrough())).toBe('pretty');
  });
});
