// A fault inside an operation reaches the caller as one line with a request id: no stack, SQL or path.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../src/config.js';
import { buildCore } from '../../src/compose/core.js';
import { OPS } from '../../src/compose/registry.js';
import { defineOp } from '../../src/core/kernel/types.js';
import { buildApp } from '../../src/app.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-int-'));
const store = openSqliteStore(dir);
const core = buildCore(loadConfig({ CX_DATA: dir }), store, pino({ enabled: false }));
const boom = defineOp({
  name: 'test.boom',
  title: 'boom',
  summary: 'throws',
  input: z.object({}).strict(),
  output: z.object({}),
  auth: 'anon',
  readOnly: true,
  rest: { method: 'GET', path: '/boom' },
  async run() {
    throw new Error('SQLITE_ERROR: near "SELECT * FROM tokens" at /work/main/src/store/sqlite/db.ts:12');
  },
  text: () => '',
});
let url = '';
const app = await buildApp(core, [...OPS, boom], { logger: false });
beforeAll(async () => {
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('internal faults', () => {
  it('answer 500 err internal request <id>, nothing else', async () => {
    const res = await fetch(`${url}/boom`);
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(body).toBe(`err internal request ${res.headers.get('x-request-id')}\n`);
    expect(body).not.toMatch(/SQL|\/work|\.ts|at /);
    const j = (await (await fetch(`${url}/boom?f=json`)).json()) as { line: string };
    expect(j.line).toMatch(/^err internal request [0-9a-f]+$/);
  });
});
