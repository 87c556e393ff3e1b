// Client-side end-to-end encryption (cx-e2e-v1): /e2e.mjs and /e2e.py, downloaded from the server,
// reproduce /e2e-vectors.json byte for byte and the RFC 7748 X25519 vector; each opens what the other
// sealed; a drop sealed by one, stored on the server and read back, opens in the other while the
// server only ever holds ciphertext; one changed character fails authentication.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
const dir = mkdtempSync(join(tmpdir(), 'cx-e2e-'));

function run(exe: string, args: string[], input = ''): Promise<{ code: number; out: string; err: string }> {
  return new Promise((ok) => {
    const child = execFile(exe, args, { env: { PATH: process.env.PATH } }, (e, out, err) =>
      ok({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }),
    );
    child.stdin!.on('error', () => undefined); // a client may exit before reading it
    child.stdin!.end(input);
  });
}
const js = (args: string[], input?: string) => run(process.execPath, [join(dir, 'e2e.mjs'), ...args], input);
const py = (args: string[], input?: string) => run('python3', [join(dir, 'e2e.py'), ...args], input);

beforeAll(async () => {
  s = await start({ CX_SEED: '0' });
  for (const f of ['e2e.mjs', 'e2e.py', 'e2e-vectors.json']) {
    const r = await fetch(`${s.url}/${f}`);
    expect(r.status).toBe(200);
    writeFileSync(join(dir, f), Buffer.from(await r.arrayBuffer()));
  }
});
afterAll(async () => {
  await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

// Each language checks the shared vectors and RFC 7748 section 5.2 with its own code.
const RFC = {
  k: 'a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4',
  u: 'e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c',
  out: 'c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552',
};

describe('cx-e2e-v1 vectors in both languages', () => {
  it('e2e.mjs reproduces every vector and opens them', async () => {
    const script = `
      import { box, dropSeal, dropOpen, unbox, x25519Public } from ${JSON.stringify(join(dir, 'e2e.mjs'))};
      import { readFileSync } from 'node:fs';
      import { createPrivateKey, createPublicKey, diffieHellman } from 'node:crypto';
      const v = JSON.parse(readFileSync(${JSON.stringify(join(dir, 'e2e-vectors.json'))}, 'utf8'));
      const H = (h) => Buffer.from(h, 'hex');
      let ok = 0;
      for (const d of v.drop) { const K = Buffer.from(d.k, 'base64url'); if (dropSeal(K, d.plain, H(d.nonce)) === d.sealed && dropOpen(K, d.sealed) === d.plain) ok++; }
      for (const d of v.box) { if (x25519Public(H(d.recipient_priv)).toString('hex') === d.recipient_pub && box(H(d.recipient_pub), d.plain, H(d.eph), H(d.nonce)) === d.sealed && unbox(H(d.recipient_priv), d.sealed) === d.plain) ok++; }
      const priv = createPrivateKey({ key: Buffer.concat([H('302e020100300506032b656e04220420'), H('${RFC.k}')]), format: 'der', type: 'pkcs8' });
      const pub = createPublicKey({ key: Buffer.concat([H('302a300506032b656e032100'), H('${RFC.u}')]), format: 'der', type: 'spki' });
      const rfc = diffieHellman({ privateKey: priv, publicKey: pub }).toString('hex') === '${RFC.out}';
      console.log(ok + '/' + (v.drop.length + v.box.length) + ' rfc=' + rfc);`;
    const r = await run(process.execPath, ['--input-type=module', '-e', script]);
    expect(r.err).toBe('');
    expect(r.out.trim()).toBe('6/6 rfc=true');
  });

  it('e2e.py reproduces every vector and opens them (pure-Python X25519 passes RFC 7748)', async () => {
    const script = `
import importlib.util, json
spec = importlib.util.spec_from_file_location('e2e', ${JSON.stringify(join(dir, 'e2e.py'))}); m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
v = json.load(open(${JSON.stringify(join(dir, 'e2e-vectors.json'))}))
H = bytes.fromhex
ok = 0
for d in v['drop']:
    K = m._b64d(d['k'])
    ok += m.drop_seal(K, d['plain'], H(d['nonce'])) == d['sealed'] and m.drop_open(K, d['sealed']) == d['plain']
for d in v['box']:
    ok += m.x25519_public(H(d['recipient_priv'])).hex() == d['recipient_pub'] and m.box(H(d['recipient_pub']), d['plain'], H(d['eph']), H(d['nonce'])) == d['sealed'] and m.unbox(H(d['recipient_priv']), d['sealed']) == d['plain']
print('%d/%d rfc=%s' % (ok, len(v['drop']) + len(v['box']), 'true' if m.x25519(H('${RFC.k}'), H('${RFC.u}')).hex() == '${RFC.out}' else 'false'))`;
    const r = await run('python3', ['-c', script]);
    expect(r.err).toBe('');
    expect(r.out.trim()).toBe('6/6 rfc=true');
  });
});

describe('across languages and through the server', () => {
  it('a box sealed by one opens in the other, both ways; a changed character fails', async () => {
    const keys = (await py(['keygen'])).out;
    const priv = /priv=([0-9a-f]{64})/.exec(keys)![1]!;
    const pub = /pub=([0-9a-f]{64})/.exec(keys)![1]!;
    const sealed = (await js(['box', pub], 'mail body: meet at the anchor')).out.trim();
    expect(sealed).toMatch(/^cxe1b\.[A-Za-z0-9_-]+$/);
    expect(await py(['unbox', priv], sealed)).toMatchObject({ code: 0, out: 'mail body: meet at the anchor' });
    const back = (await py(['box', pub], 'reply ✓')).out.trim();
    expect(await js(['unbox', priv], back)).toMatchObject({ code: 0, out: 'reply ✓' });
    const i = sealed.length - 5;
    const bad = sealed.slice(0, i) + (sealed[i] === 'A' ? 'B' : 'A') + sealed.slice(i + 1);
    for (const r of [await py(['unbox', priv], bad), await js(['unbox', priv], bad)]) {
      expect(r.code).toBe(3);
      expect(r.err).toBe('cx-e2e: authentication failed\n');
    }
  });

  it('a drop sealed in JS, stored on the server, opens in Python; the server holds only ciphertext', async () => {
    const plain = 'the database password rotation is on friday';
    const sealed = (await js(['drop-seal'], plain)).out.split('\n');
    const k = sealed[0]!;
    expect(k).toMatch(/^k=[A-Za-z0-9_-]{43}$/);
    const secret = 'e2edrop_' + 'z'.repeat(24);
    const c = (await (await fetch(`${s.url}/v1/challenge?for=w`, { method: 'POST', headers: { accept: 'application/json' } })).json()) as {
      challenge: string;
      bits: number;
    };
    const { solve } = await import('../../src/core/platform/identity/pow.js');
    const put = await fetch(`${s.url}/d/${secret}`, {
      method: 'PUT',
      headers: { 'content-type': 'text/plain', 'x-pow': solve(c.challenge, c.bits), 'x-drop-write': 'w'.repeat(24) },
      body: sealed[1],
    });
    expect(put.status, await put.clone().text()).toBeLessThan(300);
    const stored = await (await fetch(`${s.url}/d/${secret}`)).text();
    expect(stored).not.toContain('password');
    expect(stored.trim()).toBe(sealed[1]);
    // The key travels in the URL fragment, which HTTP clients never send.
    expect(await py(['drop-open', `#${k}`], stored)).toMatchObject({ code: 0, out: plain });
  });
});
