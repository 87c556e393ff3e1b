// X-Cx-Sig-Server on every kind of signed response (/signing lists them): KB entries, exports,
// replication receipts, announcements (/status, reads of topic g:sys, /f/sys) and the client
// downloads with /cx-manifest.json. Each header is checked by openssl (pkeyutl -rawin) and by
// @noble/ed25519 against the body bytes this client actually received; a changed byte fails; the
// header is absent where the page says nothing is signed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExport } from '../../src/core/exports/run.js';
import { makeL2 } from '../helpers/db.js';
import { agent, req, type Who } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';
import { bothVerify } from './verify-helpers.js';

let s: TestServer;
let author: Who;
let pub = '';
let kid = 0;

beforeAll(async () => {
  // Seeded: the sample services (text-stats) run the receipt's job.
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '1' }); // the sample KB and services
  author = await agent(s, 'signer');
  const key = (await (await fetch(`${s.url}/.well-known/cx-key`)).json()) as { kid: number; pub: string };
  [pub, kid] = [key.pub, key.kid];
}, 60_000);
afterAll(() => s?.stop());

interface Got {
  status: number;
  body: Buffer;
  header: string | null;
}
async function get(path: string, headers: Record<string, string> = {}): Promise<Got> {
  const r = await req(s, 'GET', path, { headers });
  return { status: r.status, body: Buffer.from(await r.arrayBuffer()), header: r.headers.get('x-cx-sig-server') };
}

/** The header is a resp1 signature of exactly `got.body` by the current key, for openssl and noble; one flipped byte fails both. */
async function expectSigned(path: string, got: Got): Promise<void> {
  expect(got.status, path).toBe(200);
  const m = /^kid=(\d+); t=resp1; sig=([A-Za-z0-9_-]{86})$/.exec(got.header ?? '');
  expect(m, `${path}: X-Cx-Sig-Server ${got.header}`).not.toBeNull();
  expect(Number(m![1])).toBe(kid);
  const sig = Buffer.from(m![2]!, 'base64url');
  expect(await bothVerify(pub, 'resp1', got.body, sig), path).toEqual([true, true]);
  const changed = Buffer.from(got.body);
  changed[changed.length >> 1] ^= 1;
  expect(await bothVerify(pub, 'resp1', changed, sig), `${path} changed`).toEqual([false, false]);
  // A resp1 signature is no statement of any other type.
  expect(await bothVerify(pub, 'ann1', got.body, sig), `${path} as ann1`).toEqual([false, false]);
}

describe('X-Cx-Sig-Server', () => {
  it('KB entries: /k/{id} and its twins', async () => {
    const r = await req(s, 'POST', '/k', {
      as: author,
      json: { error: "ModuleNotFoundError: No module named 'zzqsigheaders'", fix: 'pip install zzqsigheaders inside the active virtualenv', eco: 'pypi' },
    });
    expect(r.status).toBe(201);
    const id = /^ok k\/(k[0-9a-z]{8})/.exec(await r.text())![1]!;
    for (const p of [`/k/${id}`, `/k/${id}.json`, `/k/${id}.md`, `/k/${id}.txt`, `/k/${id}?f=json`]) await expectSigned(p, await get(p));
  });

  it('exports: the listing and its twins, the signing files (resp1); shards carry their export1 statement', async () => {
    await runExport(s.core);
    for (const p of ['/export/', '/export/index.json', '/export/index.txt', '/export/index.md']) await expectSigned(p, await get(p));
    for (const p of ['/export/SHA256SUMS', '/export/SHA256SUMS.sig', '/export/SIGNATURES']) await expectSigned(p, await get(p));
    // A shard (streamed, never held whole) is signed as export1 over "<name> sha256=<hex>" of its bytes.
    const listing = JSON.parse((await get('/export/index.json')).body.toString()) as { files: Array<{ name: string }> };
    const shard = listing.files.find((f) => f.name.startsWith('kb-'))!.name;
    const got = await get(`/export/${shard}`);
    const m = /^kid=(\d+); t=export1; sig=([A-Za-z0-9_-]{86})$/.exec(got.header ?? '')!;
    expect(m, got.header ?? 'no header').not.toBeNull();
    const { createHash } = await import('node:crypto');
    const line = `${shard} sha256=${createHash('sha256').update(got.body).digest('hex')}`;
    expect(await bothVerify(pub, 'export1', line, Buffer.from(m[2]!, 'base64url'))).toEqual([true, true]);
    expect(await bothVerify(pub, 'export1', `${shard} sha256=${'0'.repeat(64)}`, Buffer.from(m[2]!, 'base64url'))).toEqual([false, false]);
  });

  it('receipts: /att/{job} in every format, and /att/revoked.txt', async () => {
    makeL2(s, author);
    for (let i = 0; i < 200; i++) {
      const svc = (await (await req(s, 'GET', '/v1/svc/text-stats', { headers: { accept: 'application/json' } })).json()) as { served: number | null };
      if (svc.served === 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const j = await req(s, 'POST', '/v1/svc/text-stats/job', { as: author, json: { input: 'sign the receipt', k: 1, n: 1 } });
    const jt = await j.text();
    expect(j.status, jt).toBe(201);
    const job = /^job (j[0-9a-z]{10}) /.exec(jt)![1]!;
    let state = '';
    for (let i = 0; i < 200 && state !== 'done'; i++) {
      state = ((await (await req(s, 'GET', `/v1/job/${job}`, { as: author, headers: { accept: 'application/json' } })).json()) as { state: string }).state;
      if (state !== 'done') await new Promise((r) => setTimeout(r, 100));
    }
    expect(state).toBe('done');
    for (const p of [`/att/${job}`, `/att/${job}.json`, `/att/${job}.md`, `/att/${job}.txt`]) await expectSigned(p, await get(p));
    await expectSigned(`/att/${job} (html)`, await get(`/att/${job}`, { accept: 'text/html' }));
    // The att1 line inside verifies on its own.
    const att = JSON.parse((await get(`/att/${job}.json`)).body.toString()) as { line: string };
    const l = /^att1 kid=(\d+) sig=([A-Za-z0-9_-]{86}) (.*)$/.exec(att.line)!;
    expect(await bothVerify(pub, 'att1', l[3]!, Buffer.from(l[2]!, 'base64url'))).toEqual([true, true]);
    await expectSigned('/att/revoked.txt', await get('/att/revoked.txt'));
    // Errors are not signed.
    expect((await get('/att/jzzzzzzzzzz')).header).toBeNull();
  }, 60_000);

  it('announcements: /status and its twins, reads of g:sys (text and JSON), /f/sys.json and .atom; other topics unsigned', async () => {
    const a = await req(s, 'POST', '/admin/announce', {
      headers: { authorization: `Bearer ${s.config.operatorTokens.admin}` },
      json: {
        kind: 'notice',
        starts: new Date(Date.now() - 60_000).toISOString(),
        ends: new Date(Date.now() + 86_400_000).toISOString(),
        text: 'signed headers test notice',
      },
    });
    expect(a.status).toBe(200);
    const ann = (await a.text()).split('\n')[1]!;
    const l = /^ann1 kid=(\d+) sig=([A-Za-z0-9_-]{86}) (.*)$/.exec(ann)!;
    expect(await bothVerify(pub, 'ann1', l[3]!, Buffer.from(l[2]!, 'base64url'))).toEqual([true, true]);
    for (const p of [
      '/status',
      '/status.json',
      '/status.txt',
      '/v1/topics/g:sys',
      '/v1/topics/g:sys?f=json',
      '/v1/topics/g%3Asys?n=5',
      '/f/sys.json',
      '/f/sys.atom',
    ]) {
      const got = await get(p);
      await expectSigned(p, got);
      expect(got.body.toString(), p).toContain('signed headers test notice');
    }
    // A reader's own topic is not the server's word: no signature.
    const other = await get('/v1/topics/g:general');
    expect(other.status).toBe(200);
    expect(other.header).toBeNull();
    expect((await get('/f/kb.json')).header).toBeNull();
  });

  it('client downloads and /cx-manifest.json', async () => {
    for (const p of ['/cx.mjs', '/cx.py', '/cx.sh', '/join.py', '/e2e.mjs', '/e2e.py', '/e2e-vectors.json', '/cx-manifest.json'])
      await expectSigned(p, await get(p));
  });

  it('OpenAPI declares the header on the signed operations', async () => {
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    };
    const has = (path: string) => Boolean(doc.paths[path]?.get?.responses['200']?.headers?.['X-Cx-Sig-Server']);
    for (const p of ['/k/{id}', '/att/{job}', '/status', '/v1/topics/{topic}', '/export/index']) expect(has(p), p).toBe(true);
    expect(has('/v1/me')).toBe(false);
  });

  it('is absent on errors and on routes that sign nothing', async () => {
    for (const p of ['/k/kzzzzzzzz', '/help', '/limits', '/.well-known/cx-key']) expect((await get(p)).header, p).toBeNull();
  });
});
