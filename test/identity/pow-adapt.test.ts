// Adaptive proof of work through the real server (CX_POW_BITS=8 keeps the solving cheap): a
// registration flood from one network raises that network's difficulty (1 bit per doubling above
// pow.calm_net), a flood from many raises everyone's (pow.calm_global); /limits shows the figures the
// challenges carry; a challenge is checked against the bits it was issued with; and the difficulty
// falls back to the base once pow.window has passed (the server's clock is moved by the test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadingZeroBits, solve } from '../../src/core/platform/identity/pow.js';
import { extraBits } from '../../src/core/platform/identity/pow-rate.js';
import { limit } from '../../src/core/kernel/limits.js';
import { newNet } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';
import { createHash } from 'node:crypto';

let s: TestServer;
let skew = 0;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' }, { now: () => Date.now() + skew });
});
afterAll(async () => s.stop());

type Ch = { challenge: string; bits: number; for: string };
const challenge = async (net: string, p: 'reg' | 'w' = 'reg'): Promise<Ch> =>
  (await (await fetch(`${s.url}/v1/challenge?for=${p}`, { method: 'POST', headers: { accept: 'application/json', 'x-forwarded-for': net } })).json()) as Ch;
const limits = async (net: string) =>
  (
    (await (await fetch(`${s.url}/limits.json`, { headers: { 'x-forwarded-for': net } })).json()) as {
      pow: { reg_bits: number; w_bits: number; reg_bits_min: number; reg_bits_max: number; regs: number; regs_net: number };
    }
  ).pow;
const registerWith = (net: string, pow: string) =>
  fetch(`${s.url}/v1/register`, { method: 'POST', headers: { 'x-forwarded-for': net, 'content-type': 'application/json' }, body: JSON.stringify({ pow }) });
async function registerFrom(net: string): Promise<void> {
  const c = await challenge(net);
  const r = await registerWith(net, solve(c.challenge, c.bits));
  expect(r.status).toBe(201);
}
/** A proof with exactly `bits` leading zero bits (not more), for the challenge. */
function exactly(c: string, bits: number): string {
  for (let i = 0; ; i++) {
    const p = `${c}:${i.toString(36)}`;
    if (leadingZeroBits(createHash('sha256').update(p).digest()) === bits) return p;
  }
}

describe('adaptive PoW', () => {
  it('a flood from one network raises its difficulty step by step; other networks keep the base; /limits matches the challenges', async () => {
    const flood = newNet();
    const calm = newNet();
    const early = await challenge(flood); // issued before the flood: 8 bits
    expect(early.bits).toBe(8);
    const calmNet = limit('pow.calm_net');
    for (let n = 1; n <= 7; n++) {
      await registerFrom(flood);
      const want = 8 + extraBits(n, calmNet);
      const c = await challenge(flood);
      const l = await limits(flood);
      expect(c.bits).toBe(want);
      expect(l.reg_bits).toBe(want);
      expect(l.regs_net).toBe(n);
      expect(c.challenge.split('.')[2]).toBe(String(want)); // the sealed figure is the stated one
      expect((await challenge(flood, 'w')).bits).toBe(4 + extraBits(n, calmNet));
    }
    expect((await challenge(flood)).bits).toBe(10); // 7 > 2 x 3: two bits
    expect((await limits(calm)).reg_bits).toBe(8);
    expect((await challenge(calm)).bits).toBe(8);
    const l = await limits(flood);
    expect(l).toMatchObject({ reg_bits_min: 8, reg_bits_max: 8 + limit('pow.extra_max') });
    // /limits text states the live figure on its first line.
    expect(await (await fetch(`${s.url}/limits`, { headers: { 'x-forwarded-for': flood } })).text()).toMatch(
      /^limits pow_reg_bits=10 pow_w_bits=6 pow_ttl=600s\npow live: reg_bits=10 \(8-14\) /,
    );
    // The check uses the bits a challenge was issued with: the early 8-bit one still registers ...
    expect((await registerWith(flood, exactly(early.challenge, 8))).status).toBe(201);
    // ... and a 10-bit challenge needs 10, whatever the difficulty when it is spent.
    const hard = await challenge(flood);
    expect(hard.bits).toBe(10);
    const weak = await registerWith(flood, exactly(hard.challenge, 9));
    expect(weak.status).toBe(400);
    expect(await weak.text()).toBe('err pow too weak: 9 of 10 bits\n');
  });

  it("a flood from many networks raises everyone's difficulty; it falls back after the window", async () => {
    const global = limit('pow.calm_global');
    const before = (await limits(newNet())).regs;
    for (let i = before; i <= global; i++) await registerFrom(newNet());
    const fresh = newNet();
    const l = await limits(fresh);
    expect(l.regs).toBeGreaterThan(global);
    expect(l.regs_net).toBe(0);
    expect(l.reg_bits).toBe(8 + extraBits(l.regs, global));
    expect((await challenge(fresh)).bits).toBe(l.reg_bits);
    expect(l.reg_bits).toBeGreaterThan(8);
    // The window passes (the server's clock moves): the base again, everywhere.
    skew += (limit('pow.window') + 1) * 1000;
    const after = await limits(fresh);
    expect(after).toMatchObject({ reg_bits: 8, w_bits: 4, regs: 0, regs_net: 0 });
    expect((await challenge(fresh)).bits).toBe(8);
    await registerFrom(fresh);
    expect((await limits(fresh)).regs).toBe(1);
  });
});
