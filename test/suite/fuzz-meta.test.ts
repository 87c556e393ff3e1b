// Meta-tests of the fuzz property: an operation made to fail (a thrown error, a leaked SQL error
// text, a hang) on a running server is caught by the same property that passes on the real one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CxError } from '../../src/core/kernel/errors.js';
import { OPS } from '../../src/compose/registry.js';
import type { AnyOperation } from '../../src/core/kernel/types.js';
import { start, type TestServer } from '../helpers/server.js';
import { fuzzOp, prepare, type Target } from './harness.js';

let s: TestServer;
let t: Target;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  t = await prepare(s);
});
afterAll(async () => s?.stop());

/** Runs `fn` with the op's run replaced (the registry's own object: every face calls it). */
async function broken(name: string, run: AnyOperation['run'], fn: (op: AnyOperation) => Promise<void>): Promise<void> {
  const op = OPS.find((o) => o.name === name)! as { run: AnyOperation['run'] };
  const real = op.run;
  op.run = run;
  try {
    await fn(op as AnyOperation);
  } finally {
    op.run = real;
  }
}

describe('meta: the fuzz property catches a broken operation', () => {
  it('the unbroken operation passes', async () => {
    await fuzzOp(t, OPS.find((o) => o.name === 'note.list')!, { runs: 5, seed: 1 });
  });

  it('a throw inside run (500 err internal) fails the property', async () => {
    await broken(
      'note.list',
      async () => {
        throw new Error('boom');
      },
      async (op) => {
        await expect(fuzzOp(t, op, { runs: 5, seed: 1 })).rejects.toThrow(/5xx 500/);
      },
    );
  });

  it('SQL text in an error detail fails the property', async () => {
    await broken(
      'note.list',
      async () => {
        throw new CxError('bad', 'SQLITE_ERROR: near "FROM": syntax error');
      },
      async (op) => {
        await expect(fuzzOp(t, op, { runs: 5, seed: 1 })).rejects.toThrow(/leak sql/);
      },
    );
  });

  it('a filesystem path in a reply fails the property', async () => {
    await broken(
      'note.list',
      async () => {
        throw new CxError('bad', `cannot open ${t.s.dir}/commons.db`);
      },
      async (op) => {
        await expect(fuzzOp(t, op, { runs: 5, seed: 1 })).rejects.toThrow(/leak path/);
      },
    );
  });

  it('a hang over 5 s fails the property', { timeout: 30_000 }, async () => {
    await broken(
      'sys.limits',
      () => new Promise((r) => setTimeout(() => r({}), 8_000)),
      async (op) => {
        await expect(fuzzOp(t, op, { runs: 1, seed: 1 })).rejects.toThrow(/hang/);
      },
    );
  });
});
