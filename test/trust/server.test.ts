// The server statement key through the real server: created 0600 at first start, served at
// /.well-known/cx-key with exactly the spec 2.2 fields, rotated (admin operation and
// `npm run key:rotate`) with old keys kept in prev; X-Cx-Sig-Server on KB entry reads verified by
// openssl and @noble/ed25519; the root → online key chain; identity keys and their did:web.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyOf, rawPublic, signStatement, statementLine } from '../../src/core/platform/trust/sign.js';
import { register, start, type TestServer } from '../helpers/server.js';
import { bothVerify, canonical, nobleVerify, opensslVerify } from './verify-helpers.js';

interface KeyDoc {
  kid: number;
  alg: string;
  pub: string;
  prev: Array<{ kid: number; pub: string }>;
  domain: string;
  types: string[];
}

const rootSeed = Buffer.alloc(32, 0x42);
const rootKey = privateKeyOf(rootSeed);
const ROOT_PUB = rawPublic(rootSeed).toString('hex');

let s: TestServer;
let alice: { id: string; token: string };
let entryId = '';
const dirs: string[] = [];

const cxKey = async (url = s.url) => (await (await fetch(`${url}/.well-known/cx-key`)).json()) as KeyDoc;
const post = (path: string, body: string, token = s.config.operatorTokens.admin) =>
  fetch(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'text/plain', authorization: `Bearer ${token}` }, body });
const sigOf = (h: string | null) => {
  const m = /^kid=(\d+); t=resp1; sig=([A-Za-z0-9_-]{86})$/.exec(h ?? '');
  expect(m, `X-Cx-Sig-Server: ${h}`).not.toBeNull();
  return { kid: Number(m![1]), sig: Buffer.from(m![2]!, 'base64url') };
};

beforeAll(async () => {
  s = await start({ CX_ROOT_PUB: ROOT_PUB, CX_SEED: '0' });
  alice = await register(s.url, 'alice');
  const r = await fetch(`${s.url}/k`, {
    method: 'POST',
    headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      error: "ModuleNotFoundError: No module named 'zzqsignedmod'",
      fix: 'pip install zzqsignedmod inside the active virtualenv',
      eco: 'pypi',
      libs: 'zzqsignedmod@1.0.0',
    }),
  });
  expect(r.status).toBe(201);
  entryId = /^ok k\/(k[0-9a-z]{8})/.exec(await r.text())![1]!;
});
afterAll(async () => {
  await s?.stop();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('server statement key', () => {
  it('is made at first start, 0600 in the data directory, and /.well-known/cx-key has exactly the spec fields', async () => {
    expect(statSync(join(s.dir, 'signing.key')).mode & 0o777).toBe(0o600);
    const res = await fetch(`${s.url}/.well-known/cx-key`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const k = (await res.json()) as KeyDoc;
    expect(Object.keys(k).sort()).toEqual(['alg', 'domain', 'kid', 'prev', 'pub', 'types']);
    expect(Number.isInteger(k.kid)).toBe(true);
    expect(k.alg).toBe('Ed25519');
    expect(k.pub).toMatch(/^[0-9a-f]{64}$/);
    expect(k.domain).toBe('commons.test');
    expect(k.types).toEqual(expect.arrayContaining(['ann1', 'att1', 'manifest1', 'export1', 'resp1']));
    expect(Array.isArray(k.prev)).toBe(true);
  });

  it('survives a restart unchanged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cx-trust-'));
    dirs.push(dir);
    const a = await start({ CX_SEED: '0' }, { dir });
    const before = await cxKey(a.url);
    await a.stop();
    const b = await start({ CX_SEED: '0' }, { dir });
    expect(await cxKey(b.url)).toEqual(before);
    await b.stop();
  });
});

describe('X-Cx-Sig-Server on KB entry reads', () => {
  it('signs the exact body of /k/{id} and every twin; openssl and noble verify it; a changed byte fails', async () => {
    const k = await cxKey();
    for (const path of [`/k/${entryId}`, `/k/${entryId}.txt`, `/k/${entryId}.md`, `/k/${entryId}.json`, `/k/${entryId}?f=json`]) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.status).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      const { kid, sig } = sigOf(res.headers.get('x-cx-sig-server'));
      expect(kid).toBe(k.kid);
      expect(await bothVerify(k.pub, 'resp1', body, sig)).toEqual([true, true]);
      const tampered = Buffer.from(body);
      tampered[0] ^= 1;
      expect(await bothVerify(k.pub, 'resp1', tampered, sig)).toEqual([false, false]);
      // Not valid as another statement type either.
      expect(await nobleVerify(k.pub, canonical('ann1', body), sig)).toBe(false);
    }
  });

  it('is absent on errors and on unsigned routes', async () => {
    const miss = await fetch(`${s.url}/k/kzzzzzzzz`);
    expect(miss.status).toBe(404);
    expect(miss.headers.get('x-cx-sig-server')).toBeNull();
    expect((await fetch(`${s.url}/limits`)).headers.get('x-cx-sig-server')).toBeNull();
  });
});

describe('rotation', () => {
  it('admin operation: new kid, old key in prev, statements and responses of the old kid still verify', async () => {
    const before = await cxKey();
    const old = await fetch(`${s.url}/k/${entryId}`);
    const oldBody = Buffer.from(await old.arrayBuffer());
    const oldSig = sigOf(old.headers.get('x-cx-sig-server'));

    expect((await post('/admin/key/rotate', '', alice.token)).status).toBe(401);
    const r = await post('/admin/key/rotate', '');
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(new RegExp(`^ok key kid=${before.kid + 1} pub=[0-9a-f]{64} prev=`));
    const after = await cxKey();
    expect(after.kid).toBe(before.kid + 1);
    expect(after.pub).not.toBe(before.pub);
    expect(after.prev[0]).toEqual({ kid: before.kid, pub: before.pub });

    // A verifier that only has the new cx-key finds the old kid in prev.
    const pubOf = (kid: number) => (kid === after.kid ? after.pub : after.prev.find((p) => p.kid === kid)?.pub);
    expect(await bothVerify(pubOf(oldSig.kid)!, 'resp1', oldBody, oldSig.sig)).toEqual([true, true]);
    const now = await fetch(`${s.url}/k/${entryId}`);
    const nowSig = sigOf(now.headers.get('x-cx-sig-server'));
    expect(nowSig.kid).toBe(after.kid);
    expect(opensslVerify(pubOf(nowSig.kid)!, canonical('resp1', Buffer.from(await now.arrayBuffer())), nowSig.sig)).toBe(true);
  });

  it('npm run key:rotate on the data directory; a running server picks it up (ring refresh)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cx-trust-'));
    dirs.push(dir);
    const a = await start({ CX_SEED: '0' }, { dir });
    const before = await cxKey(a.url);
    // Asynchronously: the server runs in this process, a blocked event loop would make it shed.
    const { stdout: out } = await promisify(execFile)('npm', ['run', '-s', 'key:rotate'], {
      cwd: process.cwd(),
      env: { ...process.env, CX_DATA: dir },
      encoding: 'utf8',
    });
    expect(out).toMatch(new RegExp(`ok key kid=${before.kid + 1} pub=[0-9a-f]{64} prev=${before.kid}`));
    expect(statSync(join(dir, 'signing.key')).mode & 0o777).toBe(0o600);
    // Within trust.ring_refresh (5 s) the running server serves the new key.
    let seen = before;
    for (let i = 0; i < 80 && seen.kid === before.kid; i++) {
      await new Promise((r) => setTimeout(r, 250));
      seen = await cxKey(a.url);
    }
    expect(seen.kid).toBe(before.kid + 1);
    expect(seen.prev).toEqual([{ kid: before.kid, pub: before.pub }]);
    await a.stop();
  }, 60_000);
});

describe('root → online key chain', () => {
  const certFor = (payload: string) => statementLine('key1', 0, signStatement(rootKey, 'key1', payload), payload);

  it('POST /admin/online-key keeps a root certificate; a verifier walks root → online key → statement', async () => {
    expect((await fetch(`${s.url}/.well-known/cx-cert`)).status).toBe(404);
    const k = await cxKey();
    const cert = certFor(`seq=1 exp=2099-01-01 online=${k.kid}:${k.pub}`);
    const bad = await post('/admin/online-key', cert);
    // exp is bounded (trust.cert_days): 2099 is refused with a one-line error.
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^err bad cert: exp more than \d+ days ahead\n$/);

    const exp = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const good = certFor(`seq=1 exp=${exp} online=${k.kid}:${k.pub}`);
    expect(good.length).toBeLessThanOrEqual(256);
    expect((await post('/admin/online-key', good, alice.token)).status).toBe(401);
    const r = await post('/admin/online-key', good);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe(`ok seq=1 exp=${exp}\nnext: GET /.well-known/cx-cert serves the certificate\n`);
    // The same certificate again is a replay.
    const again = await post('/admin/online-key', good);
    expect(again.status).toBe(409);
    expect(await again.text()).toMatch(/^err dup cert: seq 1 not above the last accepted 1/);

    // The verifier: root pub known out of band → certificate → online key → a signed response.
    const line = (await (await fetch(`${s.url}/.well-known/cx-cert`)).text()).trim();
    const m = /^key1 kid=0 sig=([A-Za-z0-9_-]{86}) (seq=\d+ exp=(\S+) online=(\d+):([0-9a-f]{64}))$/.exec(line)!;
    expect(m).not.toBeNull();
    expect(await bothVerify(ROOT_PUB, 'key1', m[2]!, Buffer.from(m[1]!, 'base64url'))).toEqual([true, true]);
    const res = await fetch(`${s.url}/k/${entryId}`);
    const { kid, sig } = sigOf(res.headers.get('x-cx-sig-server'));
    expect(kid).toBe(Number(m[4]));
    expect(Date.now()).toBeLessThan(Date.parse(`${m[3]}T00:00:00Z`) + 86_400_000);
    expect(await bothVerify(m[5]!, 'resp1', Buffer.from(await res.arrayBuffer()), sig)).toEqual([true, true]);
  });

  it('refuses a certificate not signed by the root, of another key, or over 256 characters', async () => {
    const k = await cxKey();
    const other = privateKeyOf(Buffer.alloc(32, 1));
    const p = `seq=5 exp=2027-01-01 online=${k.kid}:${k.pub}`;
    const forged = statementLine('key1', 0, signStatement(other, 'key1', p), p);
    const f = await post('/admin/online-key', forged);
    expect(f.status).toBe(400);
    expect(await f.text()).toMatch(/^err bad cert: not a key1 line signed by the root key/);
    const wrongKey = certFor(`seq=5 exp=2027-01-01 online=${k.kid + 7}:${k.pub}`);
    expect(await (await post('/admin/online-key', wrongKey)).text()).toMatch(/^err bad cert: names online=/);
    const long = await post('/admin/online-key', 'x'.repeat(300));
    expect([400, 413]).toContain(long.status);
    expect(await long.text()).toMatch(/^err (bad|size) /);
  });

  it('without CX_ROOT_PUB there is nothing to certify against', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cx-trust-'));
    dirs.push(dir);
    const a = await start({ CX_SEED: '0' }, { dir });
    const k = await cxKey(a.url);
    const r = await fetch(`${a.url}/admin/online-key`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.config.operatorTokens.admin}`, 'content-type': 'text/plain' },
      body: certFor(`seq=1 exp=2027-01-01 online=${k.kid}:${k.pub}`),
    });
    expect(r.status).toBe(409);
    expect(await r.text()).toMatch(/^err dup no root key configured/);
    await a.stop();
  });
});

describe('the /signing page', () => {
  it('is linked from /help and carries the vectors and the verification recipe', async () => {
    expect(await (await fetch(`${s.url}/help`)).text()).toContain('/signing');
    const t = await (await fetch(`${s.url}/signing`)).text();
    expect(t).toContain('"cx-sig-v1" 0x00 <type> 0x00 <payload bytes>');
    expect(t).toContain('X-Cx-Sig-Server: kid=<kid>; t=resp1; sig=<base64url>');
    expect(t).toContain('key1 kid=0 sig=<base64url> seq=<n> exp=<YYYY-MM-DD> online=<kid>:<pub hex>');
    expect(t).toMatch(/Key: Ed25519 seed \(private\) [0-9a-f]{64}/);
  });
});

describe('MCP face', () => {
  it('key_get of=server returns the same key as /.well-known/cx-key', async () => {
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
    const r = (await client.callTool({ name: 'key_get', arguments: { of: 'server' } })) as unknown as { structuredContent: KeyDoc };
    expect(r.structuredContent).toEqual({ of: 'server', ...(await cxKey()) });
    await client.close();
  });
});
