import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadingZeroBits, Pow, solve } from '../../src/core/platform/identity/pow.js';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  // Each call comes from its own /24 (trusted X-Forwarded-For) so the per-network
  // registration quota, tested on its own below, does not interfere.
  s = await start({ CX_TRUST_PROXY: '1' });
});
let netN = 0;
const xff = () => ({ 'x-forwarded-for': `10.1.${++netN}.9` });
afterAll(async () => s.stop());

async function challenge(purpose = 'reg', accept = 'application/json') {
  const res = await fetch(`${s.url}/v1/challenge?for=${purpose}`, { method: 'POST', headers: { accept, ...xff() } });
  return res;
}

async function postRegister(body: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${s.url}/v1/register`, { method: 'POST', body: new URLSearchParams(body), headers: { ...xff(), ...headers } });
}

/** A nonce whose hash misses the difficulty. */
function weakProof(c: string, bits: number): string {
  for (let i = 0; ; i++) {
    const p = `${c}:w${i}`;
    if (leadingZeroBits(createHash('sha256').update(p).digest()) < bits) return p;
  }
}

describe('PoW challenge', () => {
  it('issues the exact text line and the JSON form', async () => {
    const t = await (await challenge('reg', 'text/plain')).text();
    const first = t.split('\n')[0]!;
    expect(first).toMatch(/^challenge 1\.reg\.8\.\d+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+ bits=8 exp=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ for=reg$/);
    expect(t).toMatch(/\nnext: /);
    const j = (await (await challenge('w')).json()) as { challenge: string; bits: number; exp: string; for: string };
    expect(j.for).toBe('w');
    expect(j.bits).toBe(4); // CX_POW_BITS=8 → anonymous writes 4 bits cheaper
    expect(Date.parse(j.exp) - Date.now()).toBeGreaterThan(590_000);
  });

  it('rejects an unknown purpose', async () => {
    const res = await challenge('admin', 'text/plain');
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^err bad for: .+\n$/);
  });
});

describe('registration', () => {
  it('solve refuses what is not a challenge (a shed 503 read as one) instead of spinning forever', () => {
    const shed = { error: 'busy', detail: 'shed level 3', status: 503 } as unknown as { challenge: string; bits: number };
    expect(() => solve(shed.challenge, shed.bits)).toThrow(/^pow: not a challenge/);
    expect(() => solve('1.w.4.0.x.y', Number.NaN)).toThrow(/^pow: not a challenge/);
  });

  it('round trip: solve the PoW, register, use the token', async () => {
    const c = (await (await challenge()).json()) as { challenge: string; bits: number };
    const res = await postRegister({ pow: solve(c.challenge, c.bits), name: 'tester-1' });
    expect(res.status).toBe(201);
    const line = (await res.text()).split('\n')[0]!;
    const m = /^ok (a[0-9a-z]{6}) token=(cx_[A-Za-z0-9_-]+) lvl=L0$/.exec(line);
    expect(m).not.toBeNull();
    const [, id, token] = m!;
    expect(id!.length).toBeLessThanOrEqual(7);
    const me = await fetch(`${s.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(await me.text()).toMatch(new RegExp(`^me ${id} name=tester-1 lvl=L0 rep=0 confirmed=0 since=\\S+ token=user\\n`));
  });

  it('accepts the proof in X-PoW and JSON bodies', async () => {
    const c = (await (await challenge()).json()) as { challenge: string; bits: number };
    const res = await fetch(`${s.url}/v1/register`, { method: 'POST', headers: { 'x-pow': solve(c.challenge, c.bits), accept: 'application/json', ...xff() } });
    expect(res.status).toBe(201);
    const j = (await res.json()) as { id: string; token: string; lvl: string };
    expect(j.lvl).toBe('L0');
    expect(j.token.startsWith('cx_')).toBe(true);
    const c2 = (await (await challenge()).json()) as { challenge: string; bits: number };
    const res2 = await fetch(`${s.url}/v1/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...xff() },
      body: JSON.stringify({ pow: solve(c2.challenge, c2.bits) }),
    });
    expect(res2.status).toBe(201);
  });

  it('stores tokens only as hashes', async () => {
    const { token } = await register(s.url, undefined, xff());
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(`${s.dir}/commons.db`, { readonly: true });
    const rows = db.prepare('SELECT hash FROM tokens').all() as { hash: string }[];
    db.close();
    expect(rows.some((r) => r.hash === token)).toBe(false);
    expect(rows.some((r) => r.hash === createHash('sha256').update(token).digest('hex'))).toBe(true);
  });

  it('rejects a replayed proof, and a second nonce for a spent challenge', async () => {
    const c = (await (await challenge()).json()) as { challenge: string; bits: number };
    const proof = solve(c.challenge, c.bits);
    expect((await postRegister({ pow: proof })).status).toBe(201);
    const again = await postRegister({ pow: proof });
    expect(again.status).toBe(400);
    expect(await again.text()).toBe('err pow proof already spent\n');
    let other = '';
    for (let i = 0; ; i++) {
      const p = `${c.challenge}:x${i}`;
      if (leadingZeroBits(createHash('sha256').update(p).digest()) >= c.bits) {
        other = p;
        break;
      }
    }
    const third = await postRegister({ pow: other });
    expect(await third.text()).toBe('err pow proof already spent\n');
  });

  it('rejects an expired challenge', async () => {
    // A genuinely sealed challenge, issued by a clock eleven minutes in the past.
    const past = new Pow(
      s.config.sealKey,
      s.config.powBits,
      { spend: async () => true, purgeExpired: async () => 0 },
      () => Date.now() - 11 * 60_000,
      randomBytes,
    );
    const c = past.issue('reg');
    const res = await postRegister({ pow: solve(c.challenge, c.bits) });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('err pow challenge expired\n');
  });

  it('rejects a forged challenge (tampered bits or seal)', async () => {
    const c = (await (await challenge()).json()) as { challenge: string; bits: number };
    const easier = c.challenge.replace('.reg.8.', '.reg.1.');
    const r1 = await postRegister({ pow: solve(easier, 1) });
    expect(await r1.text()).toBe('err pow forged challenge\n');
    const parts = c.challenge.split('.');
    parts[5] = Buffer.alloc(16).toString('base64url');
    const forged = parts.join('.');
    const r2 = await postRegister({ pow: solve(forged, c.bits) });
    expect(r2.status).toBe(400);
    expect(await r2.text()).toBe('err pow forged challenge\n');
  });

  it('rejects a too-weak proof and a proof for another purpose', async () => {
    const c = (await (await challenge()).json()) as { challenge: string; bits: number };
    const weak = await postRegister({ pow: weakProof(c.challenge, c.bits) });
    expect(weak.status).toBe(400);
    expect(await weak.text()).toMatch(/^err pow too weak: [0-7] of 8 bits\n$/);
    const w = (await (await challenge('w')).json()) as { challenge: string; bits: number };
    const wrong = await postRegister({ pow: solve(w.challenge, w.bits) });
    expect(await wrong.text()).toBe('err pow challenge is for=w, need for=reg\n');
    const junk = await postRegister({ pow: 'nonsense' });
    expect(await junk.text()).toBe('err pow malformed proof, want <challenge>:<nonce>\n');
  });

  it('rejects bad names and secrets in names', async () => {
    const c = (await (await challenge()).json()) as { challenge: string; bits: number };
    const long = await postRegister({ pow: solve(c.challenge, c.bits), name: 'x'.repeat(33) });
    expect(long.status).toBe(400);
    expect(await long.text()).toMatch(/^err bad name: .*32.*\n$/);
    const secret = await postRegister({ pow: solve(c.challenge, c.bits), name: 'cx_' + 'AbCdEfGhIjKlMnOpQrStUvWx' });
    expect(secret.status).toBe(400);
    expect(await secret.text()).toBe('err scrub cx name@0\n');
  });

  it('answers an anonymous write with 401 and both challenges', async () => {
    const res = await fetch(`${s.url}/v1/token/url`, { method: 'POST' });
    expect(res.status).toBe(401);
    expect((await res.text()).startsWith('err auth token required')).toBe(true);
    const h = res.headers.get('www-authenticate')!;
    expect(h).toMatch(/^Bearer realm="commons", PoW realm="commons" challenge="1\.reg\.8\.[^"]+" bits="8" for="reg"/);
    // The challenge in the header is a real one: it can be solved and spent.
    const c = /challenge="([^"]+)"/.exec(h)![1]!;
    expect((await postRegister({ pow: solve(c, 8) })).status).toBe(201);
  });

  it('rejects unknown and malformed tokens', async () => {
    const r1 = await fetch(`${s.url}/v1/me`, { headers: { authorization: 'Bearer cx_nope' } });
    expect(r1.status).toBe(401);
    expect(await r1.text()).toBe('err auth unknown token\n');
    const r2 = await fetch(`${s.url}/v1/me`, { headers: { authorization: 'Basic Zm9vOmJhcg==' } });
    expect(r2.status).toBe(401);
    expect(await r2.text()).toBe('err auth use Authorization: Bearer <token>\n');
  });

  it('issues url-class tokens that the bearer path does not accept', async () => {
    const { token } = await register(s.url, undefined, xff());
    const res = await fetch(`${s.url}/v1/token/url`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(201);
    const line = (await res.text()).split('\n')[0]!;
    const m = /^ok url-token (cxu_[A-Za-z0-9_-]+) mcp=http:\/\/commons\.test\/mcp\/t\/cxu_/.exec(line);
    expect(m).not.toBeNull();
    const asBearer = await fetch(`${s.url}/v1/me`, { headers: { authorization: `Bearer ${m![1]}` } });
    expect(asBearer.status).toBe(401);
  });
});

describe('quotas', () => {
  it('exhausting the per-network registration quota gives 429 err quota with Retry-After', async () => {
    const q = await start();
    try {
      const limits = (await (await fetch(`${q.url}/limits.json`)).json()) as { quotas: { bucket: string; burst: number }[] };
      const burst = limits.quotas.find((b) => b.bucket === 'reg')!.burst;
      for (let i = 0; i < burst; i++) await register(q.url);
      const c = (await (await fetch(`${q.url}/v1/challenge`, { method: 'POST', headers: { accept: 'application/json' } })).json()) as {
        challenge: string;
        bits: number;
      };
      const res = await fetch(`${q.url}/v1/register`, { method: 'POST', body: new URLSearchParams({ pow: solve(c.challenge, c.bits) }) });
      expect(res.status).toBe(429);
      expect(await res.text()).toMatch(/^err quota reg retry in \d+s\n$/);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await q.stop();
    }
  });
});
