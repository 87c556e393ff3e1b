// did:web through the real server behind HTTPS: a reverse proxy with a self-signed certificate
// (made by openssl, trusted by this test process only) in front of it, and did-resolver +
// web-did-resolver resolving the server's document and an identity's. Identity keys are published
// with a proof of possession (PUT /v1/key).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ed from '@noble/ed25519';
import { Resolver, type ResolverRegistry } from 'did-resolver';
import { getResolver } from 'web-did-resolver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, start, type TestServer } from '../helpers/server.js';
import { canonical } from './verify-helpers.js';

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function unbase58(s: string): Buffer {
  let n = 0n;
  for (const c of s) n = n * 58n + BigInt(B58.indexOf(c));
  const hex = n.toString(16);
  const bytes = Buffer.from(hex.length % 2 ? '0' + hex : hex, 'hex');
  const zeros = /^1*/.exec(s)![0].length;
  return Buffer.concat([Buffer.alloc(zeros), bytes]);
}
/** The raw key of a Multikey (z + base58btc of 0xed 0x01 + 32 bytes). */
function fromMultikey(mk: string): Buffer {
  expect(mk).toMatch(/^z6Mk/);
  const b = unbase58(mk.slice(1));
  expect(b.subarray(0, 2).toString('hex')).toBe('ed01');
  return b.subarray(2);
}

interface Vm {
  id: string;
  type: string;
  controller: string;
  publicKeyMultibase?: string;
  publicKeyJwk?: { kty: string; crv: string; x: string };
}
interface DidDoc {
  id: string;
  verificationMethod: Vm[];
  authentication: string[];
  assertionMethod: string[];
}

let s: TestServer;
let proxy: https.Server;
let base = '';
let host = '';
const dir = mkdtempSync(join(tmpdir(), 'cx-did-'));
// web-did-resolver bundles its own did-resolver typings (an older copy): same shape at run time.
const resolver = new Resolver(getResolver() as unknown as ResolverRegistry);
let savedCa: unknown;

beforeAll(async () => {
  // A self-signed certificate for localhost, trusted by this process through the global agent.
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  const cert = readFileSync(join(dir, 'cert.pem'));
  savedCa = https.globalAgent.options.ca;
  https.globalAgent.options.ca = cert;
  let target = '';
  proxy = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => {
    const up = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  const port = (proxy.address() as AddressInfo).port;
  host = `localhost:${port}`;
  base = `https://${host}`;
  s = await start({ CX_BASE_URL: base, CX_SEED: '0' });
  target = s.url;
}, 30_000);
afterAll(async () => {
  https.globalAgent.options.ca = savedCa as never;
  await new Promise((ok) => proxy?.close(ok));
  await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('server did:web', () => {
  it('/.well-known/did.json is application/did+json and resolves over HTTPS with the cx-key as Multikey and JWK', async () => {
    const raw = await fetch(`${s.url}/.well-known/did.json`);
    expect(raw.headers.get('content-type')).toMatch(/^application\/did\+json/);
    const did = `did:web:${encodeURIComponent(host)}`;
    const r = await resolver.resolve(did);
    expect(r.didResolutionMetadata.error).toBeUndefined();
    const doc = r.didDocument as unknown as DidDoc;
    expect(doc.id).toBe(did);
    const key = (await (await fetch(`${s.url}/.well-known/cx-key`)).json()) as { kid: number; pub: string };
    const mk = doc.verificationMethod.find((m) => m.id === `${did}#key-${key.kid}`)!;
    expect(mk.type).toBe('Multikey');
    expect(mk.controller).toBe(did);
    expect(fromMultikey(mk.publicKeyMultibase!).toString('hex')).toBe(key.pub);
    const jwk = doc.verificationMethod.find((m) => m.id === `${did}#key-${key.kid}-jwk`)!;
    expect(jwk.publicKeyJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key.pub, 'hex').toString('base64url') });
    expect(doc.assertionMethod).toContain(mk.id);
  });

  it('after a rotation the old key stays in the document (assertionMethod) and the new one is current', async () => {
    const r = await fetch(`${s.url}/admin/key/rotate`, { method: 'POST', headers: { authorization: `Bearer ${s.config.operatorTokens.admin}` } });
    expect(r.status).toBe(200);
    const key = (await (await fetch(`${s.url}/.well-known/cx-key`)).json()) as { kid: number; pub: string; prev: Array<{ kid: number; pub: string }> };
    const did = `did:web:${encodeURIComponent(host)}`;
    const doc = (await resolver.resolve(did)).didDocument as unknown as DidDoc;
    expect(doc.authentication).toEqual([`${did}#key-${key.kid}`, `${did}#key-${key.kid}-jwk`]);
    for (const p of key.prev) {
      const m = doc.verificationMethod.find((v) => v.id === `${did}#key-${p.kid}`)!;
      expect(fromMultikey(m.publicKeyMultibase!).toString('hex')).toBe(p.pub);
      expect(doc.assertionMethod).toContain(m.id);
    }
  });
});

describe('identity keys', () => {
  it('404 before a key is published; PUT /v1/key proves possession; /a/{id}/did.json resolves over HTTPS', async () => {
    const alice = await register(s.url, 'alice');
    const bob = await register(s.url, 'bob');
    const before = await fetch(`${s.url}/a/${alice.id}/did.json`);
    expect(before.status).toBe(404);
    expect(await before.text()).toBe('err notfound no key published\n');

    const priv = ed.utils.randomSecretKey();
    const pub = Buffer.from(await ed.getPublicKeyAsync(priv)).toString('hex');
    const sign = async (payload: string) => Buffer.from(await ed.signAsync(new Uint8Array(canonical('idkey1', payload)), priv)).toString('base64url');
    const put = (who: { token: string }, body: object) =>
      fetch(`${s.url}/v1/key`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    // Anonymous, a signature for another identity, another type, a malformed key: all refused.
    expect(
      (
        await fetch(`${s.url}/v1/key`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ pub, sig: await sign(`${host} ${alice.id} ${pub}`) }),
        })
      ).status,
    ).toBe(401);
    const stolen = await put(bob, { pub, sig: await sign(`${host} ${alice.id} ${pub}`) });
    expect(stolen.status).toBe(400);
    expect(await stolen.text()).toMatch(/^err bad sig: does not verify as idkey1/);
    const otherType = Buffer.from(await ed.signAsync(new Uint8Array(canonical('ann1', `${host} ${alice.id} ${pub}`)), priv)).toString('base64url');
    expect((await put(alice, { pub, sig: otherType })).status).toBe(400);
    const malformed = await put(alice, { pub: 'xyz', sig: await sign('x') });
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toMatch(/^err bad pub/);
    expect((await fetch(`${s.url}/a/${alice.id}/did.json`)).status).toBe(404);

    const ok = await put(alice, { pub, sig: await sign(`${host} ${alice.id} ${pub}`) });
    expect(ok.status).toBe(200);
    const did = `did:web:${encodeURIComponent(host)}:a:${alice.id}`;
    expect(await ok.text()).toBe(`ok key ${alice.id} pub=${pub} did=${did}\nnext: GET ${base}/a/${alice.id}/did.json\n`);

    const served = await fetch(`${s.url}/a/${alice.id}/did.json`);
    expect(served.headers.get('content-type')).toMatch(/^application\/did\+json/);
    const r = await resolver.resolve(did);
    expect(r.didResolutionMetadata.error).toBeUndefined();
    const doc = r.didDocument as unknown as DidDoc;
    expect(doc.id).toBe(did);
    const mk = doc.verificationMethod.find((m) => m.type === 'Multikey')!;
    expect(fromMultikey(mk.publicKeyMultibase!).toString('hex')).toBe(pub);
    expect(doc.verificationMethod.find((m) => m.type === 'JsonWebKey2020')!.publicKeyJwk!.x).toBe(Buffer.from(pub, 'hex').toString('base64url'));
    // Bob's document is still absent.
    expect((await resolver.resolve(`did:web:${encodeURIComponent(host)}:a:${bob.id}`)).didResolutionMetadata.error).toBe('notFound');
  });
});
