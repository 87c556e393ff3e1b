import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let tok = '';
beforeAll(async () => {
  s = await start({ CX_SEED: '1' }); // the sample KB
  tok = (await register(s.url, 'briefer')).token;
});
afterAll(async () => s.stop());

const brief = (q: Record<string, string>, token?: string) =>
  fetch(`${s.url}/brief?${new URLSearchParams(q)}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('GET /brief', () => {
  it('header, sections in fixed order, next line; used never exceeds total', async () => {
    const r = await brief({ q: 'ModuleNotFoundError No module named requests', env: 'requests@2.31.0 numpy@1.26.0', b: '1000' }, tok);
    expect(r.status).toBe(200);
    const t = await r.text();
    const lines = t.trimEnd().split('\n');
    const m = /^brief q=ModuleNotFoundError No module named requests libs=2 hits=(\d+) changes=(\d+) cached=0 b=(\d+)\/1000$/.exec(lines[0]!);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThan(0);
    const used = Number(m![3]);
    expect(used).toBeLessThanOrEqual(1000);
    expect(countTokens(t.trimEnd())).toBe(used);
    const order = lines.filter((l) => /^(kb|changes|digests|cache|wanted):$/.test(l));
    expect(order).toEqual(['kb:', 'changes:', 'digests:', 'cache:', 'wanted:']);
    expect(lines.at(-1)).toMatch(/^next: /);
  });

  it('special-token markers in a question or a published fix are counted as plain text, not a 500', async () => {
    const plain = (t: string) => countTokens(t, { disallowedSpecial: new Set() });
    const k = await fetch(`${s.url}/k`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        error: 'QuuxSpecialError: token <|endoftext|> leaked',
        fix: 'strip <|endoftext|> and <|im_start|> markers before sending',
        eco: 'pypi',
      }),
    });
    expect(k.status).toBe(201);
    const r = await brief({ q: 'QuuxSpecialError <|endoftext|> leaked', b: '600' }, tok);
    expect(r.status).toBe(200);
    const t = (await r.text()).trimEnd();
    expect(t).toContain('fix: strip <|endoftext|> and <|im_start|> markers');
    const used = Number(/b=(\d+)\/600$/.exec(t.split('\n')[0]!)![1]);
    expect(plain(t)).toBe(used);
    expect(used).toBeLessThanOrEqual(600);
  });

  it('never exceeds any budget, from 200 to 2000, and refuses out-of-range b', async () => {
    for (const b of ['200', '350', '600', '2000']) {
      const t = (await (await brief({ q: 'error', b }, tok)).text()).trimEnd();
      const [, used, total] = /b=(\d+)\/(\d+)$/.exec(t.split('\n')[0]!)!;
      expect(Number(total)).toBe(Number(b));
      expect(Number(used)).toBeLessThanOrEqual(Number(b));
      expect(countTokens(t)).toBe(Number(used));
    }
    // Spec 4.2: b is an integer 200 to 2000; outside that is 400 err bad, not a silent clamp.
    for (const b of ['199', '2001', '50', '99999', '-1']) {
      const r = await brief({ q: 'error', b }, tok);
      expect(r.status).toBe(400);
      expect(await r.text()).toMatch(/^err bad b: [^\n]+\n$/);
    }
    for (const b of ['200', '2000']) expect(await (await brief({ q: 'error', b }, tok)).text()).toMatch(new RegExp(`b=\\d+/${b}\\n`));
    // Anonymous callers asking above their cap of 400 (within 200-2000) are capped, not refused.
    expect(await (await brief({ q: 'error', b: '2000' })).text()).toMatch(/b=\d+\/400\n/);
    expect(await (await brief({ q: 'error', b: '200' })).text()).toMatch(/b=\d+\/200\n/);
    const anonOut = await brief({ q: 'error', b: '2001' });
    expect(anonOut.status).toBe(400);
    expect(await anonOut.text()).toMatch(/^err bad b: /);
  });

  it('anonymous callers are capped at 400 and served from a 60 s cache', async () => {
    const a = await (await brief({ q: 'permission denied docker.sock', b: '2000' })).text();
    expect(a).toMatch(/ cached=0 b=\d+\/400\n/);
    const b = await (await brief({ q: 'permission denied docker.sock', b: '2000' })).text();
    expect(b).toMatch(/ cached=1 b=\d+\/400\n/);
    const withTok = await (await brief({ q: 'permission denied docker.sock', b: '2000' }, tok)).text();
    expect(withTok).toMatch(/ cached=0 b=\d+\/2000\n/);
  });

  it('400 for q over 400, env over 20 libraries or 400 chars, bad ns; q required', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ q: 'x'.repeat(401) }, /^err bad q: /],
      [{ q: 'ok', env: Array.from({ length: 21 }, (_, i) => `l${i}@1`).join(' ') }, /^err bad env: 21 libraries, at most 20\n$/],
      [{ q: 'ok', env: 'a'.repeat(401) }, /^err bad env: /],
      [{ q: 'ok', ns: 'bad ns!' }, /^err bad ns: /],
      [{ q: 'ok', ns: 'x'.repeat(33) }, /^err bad ns: /],
      [{}, /^err bad q: required\n$/],
    ];
    for (const [q, re] of cases) {
      const r = await brief(q, tok);
      expect(r.status).toBe(400);
      expect(await r.text()).toMatch(re);
    }
    expect((await brief({ q: 'x'.repeat(400) }, tok)).status).toBe(200);
    expect((await brief({ q: 'ok', env: Array.from({ length: 20 }, (_, i) => `l${i}@1`).join(' ') }, tok)).status).toBe(200);
  });

  it('the cache section shows the result cached under sha256(q) in ns', async () => {
    const { createHash } = await import('node:crypto');
    const q = 'how do I pin numpy below 2 for this build';
    const key = createHash('sha256').update(q).digest('hex');
    const put = await fetch(`${s.url}/v1/c/${key}?ns=team1`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${tok}`, 'content-type': 'text/plain' },
      body: 'pip install "numpy<2"',
    });
    expect(put.status).toBe(200);
    const t = await (await brief({ q, ns: 'team1', b: '600' }, tok)).text();
    expect(t).toContain(`cache:\nc/${key} ns=team1 by `);
    expect(t).toContain('untrusted: pip install "numpy<2"');
    const other = await (await brief({ q, ns: 'team2', b: '600' }, tok)).text();
    expect(other).toContain('cache:\n-\n');
  });

  it('503 err busy from shed level 2 (briefs are heavy work: src/core/platform/control/shed.ts); level 1 still serves them', async () => {
    await s.core.control.setShed(1, 'test', 'admin');
    try {
      expect((await brief({ q: 'anything' }, tok)).status).toBe(200);
      await s.core.control.setShed(2, 'test', 'admin');
      const r = await brief({ q: 'anything' }, tok);
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('10');
      expect(await r.text()).toMatch(/^err busy shed level 2: heavy work .* retry later\n$/);
    } finally {
      await s.core.control.setShed(0, '', 'admin');
    }
  });
});

describe('digests', () => {
  it('publish, read best of a version, line diff of a range, API set diff', async () => {
    const put = (ver: string, topic: string, lines: string) =>
      fetch(`${s.url}/dg`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' },
        body: JSON.stringify({ lib: 'zzlib', ver, topic, lines }),
      });
    expect((await put('1.0.0', 'breaking', 'removed foo()\nrenamed bar to baz')).status).toBe(201);
    expect((await put('2.0.0', 'breaking', 'renamed bar to baz\ndropped Node 18')).status).toBe(201);
    expect((await put('1.0.0', 'api', 'foo\nbar\nqux')).status).toBe(201);
    expect((await put('2.0.0', 'api', 'baz\nqux\nnew')).status).toBe(201);
    const lib = await (await fetch(`${s.url}/dg/zzlib`)).text();
    expect(lib).toMatch(/^dg zzlib digests=4\n/);
    const one = await (await fetch(`${s.url}/dg/zzlib/1.0.0/breaking`)).text();
    expect(one).toBe('dg zzlib@1.0.0 breaking lines=2\nremoved foo()\nrenamed bar to baz\nnext: GET /dg/zzlib\n');
    const diff = await (await fetch(`${s.url}/dg/zzlib/1.0.0..2.0.0/breaking`)).text();
    expect(diff).toBe('dg zzlib 1.0.0..2.0.0 breaking changes=2\n- removed foo()\n  renamed bar to baz\n+ dropped Node 18\nnext: GET /dg/zzlib\n');
    const api = await (await fetch(`${s.url}/dg/zzlib/1.0.0..2.0.0/api`)).text();
    expect(api).toBe('dg zzlib 1.0.0..2.0.0 api changes=4\n+ baz\n+ new\n- bar\n- foo\nnext: GET /dg/zzlib\n');
    expect((await fetch(`${s.url}/dg/zzlib/9.9.9/breaking`)).status).toBe(404);
    expect((await fetch(`${s.url}/dg/nolib`)).status).toBe(404);
    expect((await fetch(`${s.url}/dg/zzlib/1.0.0/Bad Topic`)).status).toBe(400);
    const brief2 = await (await brief({ q: 'renamed bar', env: 'zzlib@1.0.0', b: '2000' }, tok)).text();
    expect(brief2).toContain('zzlib@2.0.0 breaking: dropped Node 18');
  });
});
