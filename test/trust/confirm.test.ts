// Signed confirmations through the real server: a confirmation carries the identity's conf1
// signature (by the key it published with PUT /v1/key); the entry page counts distinct signed
// identities and their distinct networks; /k/{id}/confirms lists signatures a reader verifies.
import * as ed from '@noble/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agent, type Who } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';
import { canonical, nobleVerify, opensslVerify } from './verify-helpers.js';

let s: TestServer;
let author: Who;
let entry = '';
const DOMAIN = 'commons.test';

const req = (who: Who, method: string, path: string, body?: object) =>
  fetch(`${s.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${who.token}`, 'x-forwarded-for': who.net, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

interface Keyed extends Who {
  priv: Uint8Array;
  pub: string;
}
async function withKey(w: Who): Promise<Keyed> {
  const priv = ed.utils.randomSecretKey();
  const pub = Buffer.from(await ed.getPublicKeyAsync(priv)).toString('hex');
  const sig = Buffer.from(await ed.signAsync(new Uint8Array(canonical('idkey1', `${DOMAIN} ${w.id} ${pub}`)), priv)).toString('base64url');
  expect((await req(w, 'PUT', '/v1/key', { pub, sig })).status).toBe(200);
  return { ...w, priv, pub };
}
const conf = async (k: Keyed, id = entry, type = 'conf1') =>
  Buffer.from(await ed.signAsync(new Uint8Array(canonical(type, `${DOMAIN} ${id} ${k.id}`)), k.priv)).toString('base64url');

beforeAll(async () => {
  s = await start({ CX_SEED: '0', CX_TRUST_PROXY: '1' });
  author = await agent(s, 'author');
  const r = await req(author, 'POST', '/k', {
    error: "ModuleNotFoundError: No module named 'zzqconfmod'",
    fix: 'pip install zzqconfmod inside the active virtualenv',
    eco: 'pypi',
  });
  expect(r.status).toBe(201);
  entry = /^ok k\/(k[0-9a-z]{8})/.exec(await r.text())![1]!;
});
afterAll(() => s?.stop());

describe('signed confirmations', () => {
  it('count distinct signed identities and networks; unsigned and bad signatures are not counted', async () => {
    const a = await withKey(await agent(s, 'a'));
    const b = await withKey(await agent(s, 'b'));
    // c shares a's network: two keys, one network.
    const c = await withKey({ ...(await agent(s, 'c')), net: a.net });
    const plain = await agent(s, 'plain');
    const nokey = await agent(s, 'nokey');

    expect(await (await req(plain, 'POST', `/k/${entry}/ok`)).text()).toBe(
      `ok k/${entry} confirms=1 fails=0 score=1\nnext: GET /k/${entry} for its outcomes and notes\n`,
    );
    // A signature without a published key, by another key, for another entry, or as another type: refused, vote not counted.
    const noKey = await req(nokey, 'POST', `/k/${entry}/ok`, { sig: await conf(a) });
    expect(noKey.status).toBe(400);
    expect(await noKey.text()).toBe('err bad sig: no key published; PUT /v1/key first\n');
    const forged = await req(b, 'POST', `/k/${entry}/ok`, {
      sig: Buffer.from(await ed.signAsync(new Uint8Array(canonical('conf1', `${DOMAIN} ${entry} ${b.id}`)), a.priv)).toString('base64url'),
    });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toMatch(/^err bad sig: does not verify as conf1/);
    expect((await req(b, 'POST', `/k/${entry}/ok`, { sig: await conf(b, 'kzzzzzzzz') })).status).toBe(400);
    expect((await req(b, 'POST', `/k/${entry}/ok`, { sig: await conf(b, entry, 'idkey1') })).status).toBe(400);
    expect(await (await fetch(`${s.url}/k/${entry}.json`)).json()).toMatchObject({ confirms: 1, signed_confirms: 0, signed_nets: 0 });

    for (const k of [a, b, c])
      expect(await (await req(k, 'POST', `/k/${entry}/ok`, { sig: await conf(k) })).text()).toMatch(
        / signed\nnext: GET \/k\/k[0-9a-z]{8} for its outcomes and notes\n$/,
      );
    // Again: already signed.
    expect((await req(a, 'POST', `/k/${entry}/ok`, { sig: await conf(a) })).status).toBe(409);

    const j = (await (await fetch(`${s.url}/k/${entry}.json`)).json()) as { confirms: number; signed_confirms: number; signed_nets: number };
    expect(j).toMatchObject({ confirms: 4, signed_confirms: 3, signed_nets: 2 });
    const t = await (await fetch(`${s.url}/k/${entry}`)).text();
    expect(t.split('\n')[1]).toBe(`signed: 3 identities from 2 networks confirmed with their published keys (GET /k/${entry}/confirms)`);
    expect(await (await fetch(`${s.url}/k/${entry}.md`)).text()).toContain('Signed confirmations: 3 identities from 2 networks.');
    // The page for people says it too, with a link to the signatures.
    const html = await (await fetch(`${s.url}/kb/${entry}`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain(
      `Signed: <strong>3</strong> distinct identities from <strong>2</strong> networks confirmed it with their published keys (<a href="/k/${entry}/confirms">the signatures</a>).`,
    );
  });

  it('an unsigned confirmation can be signed later; /k/{id}/confirms lists signatures that verify', async () => {
    const d = await agent(s, 'd');
    expect((await req(d, 'POST', `/k/${entry}/ok`)).status).toBe(200);
    const dk = await withKey(d);
    const r = await req(dk, 'POST', `/k/${entry}/ok`, { sig: await conf(dk) });
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(/confirms=5 fails=0 score=5 signed\nnext: GET \/k\/k[0-9a-z]{8} for its outcomes and notes\n$/);

    const list = (await (await fetch(`${s.url}/k/${entry}/confirms.json`)).json()) as {
      domain: string;
      identities: number;
      nets: number;
      rows: Array<{ id: string; pub: string; sig: string }>;
    };
    expect(list).toMatchObject({ domain: DOMAIN, identities: 4, nets: 3 });
    expect(list.rows).toHaveLength(4);
    for (const row of list.rows) {
      const msg = canonical('conf1', `${list.domain} ${entry} ${row.id}`);
      expect(opensslVerify(row.pub, msg, Buffer.from(row.sig, 'base64url'))).toBe(true);
      expect(await nobleVerify(row.pub, msg, Buffer.from(row.sig, 'base64url'))).toBe(true);
      // The key is the one the identity publishes.
      const did = (await (await fetch(`${s.url}/a/${row.id}/did.json`)).json()) as { verificationMethod: Array<{ publicKeyJwk?: { x: string } }> };
      expect(did.verificationMethod.some((m) => m.publicKeyJwk?.x === Buffer.from(row.pub, 'hex').toString('base64url'))).toBe(true);
    }
    const txt = await (await fetch(`${s.url}/k/${entry}/confirms`)).text();
    expect(txt.split('\n')[0]).toBe(`confirms k/${entry} signed=4 nets=3`);
    expect((await fetch(`${s.url}/k/kzzzzzzzz/confirms`)).status).toBe(404);
  });
});
