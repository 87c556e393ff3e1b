// GET and HEAD /d/{secret}: raw bodies, headers, reads left, burning, exactly-once under
// concurrency, and 404s that are identical for unknown, expired, burnt and foreign drops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';
import { del, get, put, secret, snapshot, wkey, xff } from './helpers.js';

let s: TestServer;
let tok: string;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  tok = (await register(s.url, undefined, xff())).token;
});
afterAll(async () => s.stop());

/** Runs `fn` with the server's clock moved forward by `ms`. */
async function later<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const real = s.core.now;
  s.core.now = () => real() + ms;
  try {
    return await fn();
  } finally {
    s.core.now = real;
  }
}

describe('GET', () => {
  it('returns the raw body with no-store, X-Drop-Exp, X-Drop-Reads and X-Next; the last read burns', async () => {
    const sec = secret();
    const body = 'line one\nline two: é€😀\n\ttabbed, no trailing newline';
    const created = await (await put(s.url, sec, body, { wk: wkey() })).text();
    const exp = /exp=(\S+)/.exec(created)![1]!;
    for (const left of ['2', '1', '0']) {
      const r = await get(s.url, sec);
      expect(r.status).toBe(200);
      expect(await r.text()).toBe(body);
      expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('x-drop-exp')).toBe(exp);
      expect(r.headers.get('x-drop-reads')).toBe(left);
      expect(r.headers.get('x-next')).toBeTruthy();
    }
    expect((await get(s.url, sec)).status).toBe(404);
    expect((await get(s.url, sec, 'HEAD')).status).toBe(404);
  });

  it('once=1 burns on the first read', async () => {
    const sec = secret();
    await put(s.url, sec, 'once only', { token: tok, query: 'once=1' });
    const r = await get(s.url, sec);
    expect(await r.text()).toBe('once only');
    expect(r.headers.get('x-drop-reads')).toBe('0');
    expect(r.headers.get('x-next')).toMatch(/^burnt/);
    expect((await get(s.url, sec)).status).toBe(404);
  });

  it('JSON on request: body plus state', async () => {
    const sec = secret();
    await put(s.url, sec, 'j', { token: tok, query: 'reads=2' });
    const r = await get(s.url, sec, 'GET', { accept: 'application/json' });
    expect(await r.json()).toMatchObject({ body: 'j', reads_left: 1, once: false, burnt: false });
  });

  it('refuses query parameters and malformed secrets with 400, not 404', async () => {
    const r = await fetch(`${s.url}/d/${secret()}?x=1`);
    expect(r.status).toBe(400);
    expect((await get(s.url, 'short')).status).toBe(400);
  });
});

describe('HEAD', () => {
  it('shows exp and reads left and consumes nothing', async () => {
    const sec = secret();
    await put(s.url, sec, 'peek', { wk: wkey() });
    for (let i = 0; i < 5; i++) {
      const h = await get(s.url, sec, 'HEAD');
      expect(h.status).toBe(200);
      expect(h.headers.get('x-drop-reads')).toBe('3');
      expect(h.headers.get('x-drop-exp')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(h.headers.get('cache-control')).toBe('no-store');
      expect(await h.text()).toBe('');
    }
    const g = await get(s.url, sec);
    expect(g.headers.get('x-drop-reads')).toBe('2');
    expect((await get(s.url, sec, 'HEAD')).headers.get('x-drop-reads')).toBe('2');
  });
});

describe('exactly once under concurrency', () => {
  const burst = async (sec: string, n: number) =>
    Promise.all(
      Array.from({ length: n }, () => get(s.url, sec).then(async (r) => ({ status: r.status, left: r.headers.get('x-drop-reads'), snap: await snapshot(r) }))),
    );

  it('100 concurrent GETs on reads=3 → exactly 3 bodies and 97 identical 404s', async () => {
    const sec = secret();
    await put(s.url, sec, 'contended body', { wk: wkey(), query: 'reads=3' });
    const rs = await burst(sec, 100);
    const ok = rs.filter((r) => r.status === 200);
    const nf = rs.filter((r) => r.status === 404);
    expect(ok).toHaveLength(3);
    expect(nf).toHaveLength(97);
    for (const r of ok) expect(Buffer.from(r.snap.body, 'hex').toString()).toBe('contended body');
    expect(ok.map((r) => r.left).sort()).toEqual(['0', '1', '2']);
    for (const r of nf) expect(r.snap).toEqual(nf[0]!.snap);
  });

  it('100 concurrent GETs on once=1 → exactly 1 body', async () => {
    const sec = secret();
    await put(s.url, sec, 'single', { token: tok, query: 'once=1' });
    const rs = await burst(sec, 100);
    expect(rs.filter((r) => r.status === 200)).toHaveLength(1);
    expect(rs.filter((r) => r.status === 404)).toHaveLength(99);
  });
});

describe('identical 404s', () => {
  it('unknown, expired, burnt and foreign: same status, body and headers, byte for byte', async () => {
    const burnt = secret();
    await put(s.url, burnt, 'gone', { token: tok, query: 'once=1' });
    await get(s.url, burnt);
    const expired = secret();
    await put(s.url, expired, 'old', { token: tok, query: 'ttl=1' });
    const foreign = secret();
    await put(s.url, foreign, 'theirs', { wk: wkey() });

    const unknown = await snapshot(await get(s.url, secret()));
    expect(unknown.status).toBe(404);
    expect(Buffer.from(unknown.body, 'hex').toString()).toBe('err notfound\n');
    expect(await snapshot(await get(s.url, burnt))).toEqual(unknown);
    expect(await later(3_600_001, async () => snapshot(await get(s.url, expired)))).toEqual(unknown);
    expect(await snapshot(await del(s.url, foreign, { wk: wkey() }))).toEqual(unknown);
    expect(await snapshot(await put(s.url, foreign, 'x', { token: tok }))).toEqual(unknown);

    const headUnknown = await snapshot(await get(s.url, secret(), 'HEAD'));
    expect(headUnknown.status).toBe(404);
    expect(await snapshot(await get(s.url, burnt, 'HEAD'))).toEqual(headUnknown);
    expect(await later(3_600_001, async () => snapshot(await get(s.url, expired, 'HEAD')))).toEqual(headUnknown);
  });

  it('an expired drop stays unreadable, and its secret can be taken over by a new create', async () => {
    const sec = secret();
    await put(s.url, sec, 'first life', { token: tok, query: 'ttl=1' });
    await later(3_600_001, async () => {
      expect((await get(s.url, sec)).status).toBe(404);
      const other = (await register(s.url, undefined, xff())).token;
      expect((await put(s.url, sec, 'second life', { token: other })).status).toBe(201);
      expect(await (await get(s.url, sec)).text()).toBe('second life');
    });
  });

  it('unknown, burnt, expired and foreign take the same path: the same store calls, the same result', async () => {
    const burnt = secret();
    await put(s.url, burnt, 'b', { token: tok, query: 'once=1' });
    await get(s.url, burnt);
    const expired = secret();
    await put(s.url, expired, 'e', { token: tok, query: 'ttl=1' });
    const foreign = secret();
    await put(s.url, foreign, 'f', { token: tok, query: 'reads=10' });
    const other = (await register(s.url, undefined, xff())).token;

    // Every call the core makes on the drop store, with what it got back (keys are opaque).
    const repo = s.core.store.drops as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    const calls: string[] = [];
    const names = ['get', 'peek', 'create', 'update', 'claim', 'remove'];
    const real = Object.fromEntries(names.map((n) => [n, repo[n]!]));
    for (const n of names)
      repo[n] = async (...a: unknown[]) => {
        const r = await real[n]!.apply(s.core.store.drops, a);
        calls.push(`${n}(${a.length}) -> ${r === null ? 'null' : typeof r === 'boolean' ? r : 'row'}`);
        return r;
      };
    const trace = async (f: () => Promise<Response>) => {
      calls.length = 0;
      const snap = await snapshot(await f());
      return { calls: [...calls], snap };
    };
    try {
      await later(3_600_001, async () => {
        const reads = [await trace(() => get(s.url, secret())), await trace(() => get(s.url, burnt)), await trace(() => get(s.url, expired))];
        expect(reads[0]!.calls).toEqual(['claim(2) -> null']);
        for (const r of reads) expect(r).toEqual(reads[0]);
        const dels = [await trace(() => del(s.url, secret(), { token: other })), await trace(() => del(s.url, foreign, { token: other }))];
        expect(dels[0]!.calls).toEqual(['remove(4) -> false']);
        expect(dels[1]).toEqual(dels[0]);
      });
    } finally {
      for (const n of names) repo[n] = real[n]!;
    }
  });

  it('no timing difference worth measuring: medians of many interleaved samples, generous ratio', async () => {
    // The path check above is exact; this one only catches a gross difference (say, a decryption
    // or a second query on one kind), so it allows for a loaded machine: medians of interleaved
    // samples (noise hits every kind alike) within a factor of 2 plus 1 ms.
    const n = 200;
    const burnt: string[] = [];
    const expired: string[] = [];
    const foreign: string[] = [];
    for (let i = 0; i < n; i++) {
      const b = secret();
      await put(s.url, b, 'b', { token: tok, query: 'once=1' });
      await get(s.url, b);
      burnt.push(b);
      const e = secret();
      await put(s.url, e, 'e', { token: tok, query: 'ttl=1' });
      expired.push(e);
      if (i % 4 === 0) {
        const f = secret();
        await put(s.url, f, 'f', { token: tok, query: 'reads=10' });
        foreign.push(f);
      }
    }
    const t = { unknown: [] as number[], burnt: [] as number[], expired: [] as number[] };
    const d = { unknown: [] as number[], foreign: [] as number[] };
    const time = async (bucket: number[], f: () => Promise<Response>) => {
      const t0 = performance.now();
      const r = await f();
      await r.arrayBuffer();
      bucket.push(performance.now() - t0);
      expect(r.status).toBe(404);
    };
    const other = (await register(s.url, undefined, xff())).token;
    await later(3_600_001, async () => {
      for (let i = 0; i < n; i++) {
        // The order rotates too, so no kind always runs first after a pause.
        const round = [
          () => time(t.unknown, () => get(s.url, secret())),
          () => time(t.burnt, () => get(s.url, burnt[i]!)),
          () => time(t.expired, () => get(s.url, expired[i]!)),
          () => time(d.unknown, () => del(s.url, secret(), { token: other })),
          () => time(d.foreign, () => del(s.url, foreign[i % foreign.length]!, { token: other })),
        ];
        for (let k = 0; k < round.length; k++) await round[(i + k) % round.length]!();
      }
    });
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    for (const group of [t, d]) {
      const m = Object.fromEntries(Object.entries(group).map(([k, v]) => [k, median(v)]));
      const lo = Math.min(...Object.values(m));
      const hi = Math.max(...Object.values(m));
      expect(hi, JSON.stringify(m)).toBeLessThan(lo * 2 + 1);
    }
  });
});
