// Fuzzing generated from the registry: every operation, valid and invalid inputs derived from its
// zod schema, through every face that exposes it. Operator operations (freeze, purge, key rotation
// ...) run on a server of their own so their effects do not change what the agent operations see.
// Seeded and small here; `npm run fuzz` (CX_FUZZ_RUNS, CX_FUZZ_SEED) runs it long.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS } from '../../src/compose/registry.js';
import { start, type TestServer } from '../helpers/server.js';
import { isAgentOp } from './faces.js';
import { alive, fuzzOp, FUZZ, prepare, type Target } from './harness.js';

const only = process.env.CX_FUZZ_OPS ? new RegExp(process.env.CX_FUZZ_OPS) : null;
const pick = (agent: boolean) => OPS.filter((o) => isAgentOp(o) === agent && (!only || only.test(o.name)));
// Each op's budget: a few requests per run and face, under a loaded 2-core machine.
const perOp = 20_000 + FUZZ.runs * 4_000;

for (const [title, agent] of (
  [
    ['agent operations', true],
    ['operator operations', false],
  ] as const
).filter(([, a]) => pick(a).length)) {
  describe(`fuzz: ${title}`, () => {
    let s: TestServer;
    let t: Target;
    beforeAll(async () => {
      s = await start({ CX_TRUST_PROXY: '1' });
      t = await prepare(s);
    });
    afterAll(async () => {
      // The server is alive after everything the fuzzer sent.
      if (t) expect(await alive(t)).toBe(true);
      await s?.stop();
    });
    for (const op of pick(agent)) {
      it(`${op.name}: no 5xx, no hang, one err line, no leak on every face`, { timeout: perOp }, async () => {
        await fuzzOp(t, op, FUZZ);
      });
    }
  });
}
