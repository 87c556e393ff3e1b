// The output contract is checked in tests: the suite runs with CX_CHECK_OUTPUT=1 (vitest.config.ts),
// and invoke then parses every result with the op's output schema (a stream's items with its item
// schema), failing with the op's name and the path of the first mismatch.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../src/config.js';
import { buildCore } from '../../src/compose/core.js';
import { invoke } from '../../src/core/platform/invoke.js';
import { outputCheckOn, OutputContractError } from '../../src/core/kernel/output-check.js';
import { defineOp, type Operation, type StreamItem } from '../../src/core/kernel/types.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-outcheck-'));
const store = openSqliteStore(dir);
const core = buildCore(loadConfig({ CX_DATA: dir }), store, pino({ enabled: false }));
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});
const meta = { creds: {}, net: '10.8.0', reqId: 'r', face: 'rest' as const };

function op(result: unknown, extra: Partial<Operation> = {}): Operation {
  return defineOp({
    name: 'test.out',
    title: 't',
    summary: 't',
    input: z.object({}).strict(),
    output: z.object({ id: z.string(), rows: z.array(z.object({ n: z.number() })) }),
    auth: 'anon',
    readOnly: true,
    async run() {
      return result;
    },
    text: () => 'ok',
    ...extra,
  } as Operation);
}

async function* items(...xs: unknown[]): AsyncIterable<StreamItem> {
  let i = 0;
  for (const item of xs) yield { id: String(++i), item };
}

describe('output contract', () => {
  it('is on for the whole suite', () => {
    expect(process.env.CX_CHECK_OUTPUT).toBe('1');
    expect(outputCheckOn()).toBe(true);
  });

  it('passes a result that fits its schema', async () => {
    const { out } = await invoke(core, op({ id: 'a', rows: [{ n: 1 }] }), {}, meta);
    expect(out).toEqual({ id: 'a', rows: [{ n: 1 }] });
  });

  it('fails a result that does not, naming the op and the path', async () => {
    const err = await invoke(core, op({ id: 'a', rows: [{ n: 1 }, { n: '2' }] }), {}, meta).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutputContractError);
    expect((err as OutputContractError).op).toBe('test.out');
    expect((err as OutputContractError).path).toBe('rows.1.n');
    expect((err as Error).message).toMatch(/^output contract: test\.out returned a value that breaks its output schema at rows\.1\.n: invalid_type/);
  });

  it('checks each item of a stream as it is taken', async () => {
    const stream = { item: z.object({ line: z.string() }), text: () => '', resume: 'since', max: 'max', wait: 'wait' };
    const { out } = await invoke(core, op(items({ line: 'a' }, { line: 7 }), { stream }), {}, meta);
    const it = (out as AsyncIterable<StreamItem>)[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual({ id: '1', item: { line: 'a' } });
    const err = await it.next().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutputContractError);
    expect((err as OutputContractError).path).toBe('item[1].line');
  });
});
