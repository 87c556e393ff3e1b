// Replicated jobs through the real server: the server is one donor, identities with a published
// key are others; a 2-of-3 job where one donor lies reaches its quorum, the liar is reported and
// its earlier receipt revoked, the att1 receipt verifies with openssl from /.well-known/cx-key; a
// forged dsig is refused; an expired lease goes to another donor; credits are conserved.
import * as ed from '@noble/ed25519';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeL2 } from '../helpers/db.js';
import { agent, call, later, req, type Who } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';
import { canonical, opensslVerify } from '../trust/verify-helpers.js';
import { defaultRunner } from '../../src/wasm/index.js';

let s: TestServer;
let asker: Who;
const DOMAIN = 'commons.test';
const runner = defaultRunner({ workers: 1 });
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

interface Donor extends Who {
  priv: Uint8Array;
}
async function donor(name: string): Promise<Donor> {
  const w = await agent(s, name);
  const priv = ed.utils.randomSecretKey();
  const pub = Buffer.from(await ed.getPublicKeyAsync(priv)).toString('hex');
  const sig = Buffer.from(await ed.signAsync(new Uint8Array(canonical('idkey1', `${DOMAIN} ${w.id} ${pub}`)), priv)).toString('base64url');
  expect((await call(s, 'PUT', '/v1/key', { as: w, json: { pub, sig } })).status).toBe(200);
  return { ...w, priv };
}
interface Lease {
  lease: string;
  job: string;
  wasm: string;
  entry: string;
  input: string;
  in_hash: string;
  limits: { time_ms: number; mem_pages: number; out_bytes: number };
}
const json = async <T>(r: Promise<Response>): Promise<T> => (await r).json() as Promise<T>;
const lease = (d: Donor, job: string) => req(s, 'POST', '/v1/donor/lease', { as: d, json: { job }, headers: { accept: 'application/json' } });
const dsig = async (d: Donor, l: Lease, output: string) =>
  Buffer.from(
    await ed.signAsync(new Uint8Array(canonical('dsig1', `${DOMAIN} job=${l.job} lease=${l.lease} in=${l.in_hash} out=${sha(output)} donor=${d.id}`)), d.priv),
  ).toString('base64url');
const submit = async (d: Donor, l: Lease, output: string, sig?: string) =>
  call(s, 'POST', `/v1/donor/lease/${l.lease}`, { as: d, json: { output, dsig: sig ?? (await dsig(d, l, output)) } });

/** An honest donor runs the module it leased with the runner, like the server does. */
async function honestOutput(d: Donor, l: Lease): Promise<string> {
  const wasm = Buffer.from(await (await req(s, 'GET', `/v1/b/${l.wasm}`, { as: d })).arrayBuffer());
  expect(sha(wasm)).toBe(l.wasm);
  const r = await runner.run({
    hash: l.wasm,
    wasm: async () => wasm,
    entry: l.entry,
    input: Buffer.from(l.input),
    limits: { timeMs: l.limits.time_ms, memPages: l.limits.mem_pages, outBytes: l.limits.out_bytes },
  });
  if (!r.ok) throw new Error(r.detail);
  return Buffer.from(r.output).toString('utf8');
}
const job = async (id: string) =>
  json<{ state: string; submitted: number; out_hash: string | null; output: string | null }>(
    req(s, 'GET', `/v1/job/${id}`, { as: asker, headers: { accept: 'application/json' } }),
  );
async function until(fn: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}
const newJob = async (k: number, n: number, input: string) => {
  const r = await call(s, 'POST', '/v1/svc/text-stats/job', { as: asker, json: { input, k, n } });
  expect(r.status).toBe(201);
  return /^job (j[0-9a-z]{10}) text-stats@1 open/.exec(r.text)![1]!;
};
const balance = async (w: Who) => (await json<{ balance: number }>(req(s, 'GET', '/v1/credits', { as: w, headers: { accept: 'application/json' } }))).balance;
const audit = async () =>
  json<{ problems: string[] }>(
    req(s, 'GET', '/admin/audit', { headers: { authorization: `Bearer ${s.config.operatorTokens.poll}`, accept: 'application/json' } }),
  );

let liar: Donor;
let honest: Donor;
let earlier = '';

beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '1' }); // the sample services
  asker = await agent(s, 'asker');
  makeL2(s, asker);
  liar = await donor('liar');
  honest = await donor('honest');
  await until(
    async () => (await json<{ served: number | null }>(req(s, 'GET', '/v1/svc/text-stats', { headers: { accept: 'application/json' } }))).served === 1,
  );
}, 60_000);
afterAll(async () => {
  await runner.close();
  await s?.stop();
});

describe('replicated jobs', () => {
  it('a 2-of-2 job with the server and an honest donor: done, receipt repro=2/2', async () => {
    const id = await newJob(2, 2, 'first job');
    const l = await json<Lease>(lease(liar, id)); // still honest here
    expect((await submit(liar, l, await honestOutput(liar, l))).status).toBe(200);
    await until(async () => (await job(id)).state === 'done');
    const att = await json<{ repro: string; donors: Array<{ donor: string }> }>(req(s, 'GET', `/att/${id}.json`));
    expect(att.repro).toBe('2/2');
    expect(att.donors.map((d) => d.donor).sort()).toEqual(['asystem', liar.id].sort());
    earlier = id;
  });

  it('2-of-3 where one donor lies: quorum reached, the liar reported, the receipt verifies with openssl; credits conserved', async () => {
    const before = { asker: await balance(asker), honest: await balance(honest), liar: await balance(liar) };
    const id = await newJob(2, 3, 'one two three\nfour');
    const lie = await json<Lease>(lease(liar, id));
    // A forged dsig (signed over another output) is refused, and the lease stays usable.
    const forged = await submit(liar, lie, 'stats lines=9', await dsig(liar, lie, 'something else'));
    expect(forged.status).toBe(400);
    expect(forged.text).toMatch(/^err bad dsig: does not verify as dsig1/);
    expect((await submit(liar, lie, 'stats lines=9 words=9')).status).toBe(200);
    // A donor gets one replica of a job.
    expect((await lease(liar, id)).status).toBe(404);
    const good = await json<Lease>(lease(honest, id));
    const out = await honestOutput(honest, good);
    expect(out).toBe('stats lines=2 words=4 chars=18 bytes=18 longest=13 blank=0');
    expect((await submit(honest, good, out)).status).toBe(200);
    await until(async () => (await job(id)).state === 'done');
    const j = await job(id);
    expect(j.output).toBe(out);
    expect(j.out_hash).toBe(sha(out));

    const att = await json<{
      repro: string;
      line: string;
      payload: string;
      kid: number;
      sig: string;
      donors: Array<{ donor: string; pub: string; dsig: string; lease: string }>;
      reported: Array<{ donor: string }>;
    }>(req(s, 'GET', `/att/${id}.json`));
    expect(att.repro).toBe('2/3');
    expect(att.donors.map((d) => d.donor).sort()).toEqual(['asystem', honest.id].sort());
    expect(att.reported.map((r) => r.donor)).toEqual([liar.id]);
    expect(att.payload).toMatch(new RegExp(`^job=${id} svc=text-stats@1 wasm=${good.wasm} in=${good.in_hash} out=${sha(out)} repro=2/3 at=\\S+ donors=`));
    const key = await json<{ kid: number; pub: string }>(fetch(`${s.url}/.well-known/cx-key`));
    expect(att.kid).toBe(key.kid);
    expect(opensslVerify(key.pub, canonical('att1', att.payload), Buffer.from(att.sig, 'base64url'))).toBe(true);
    expect(opensslVerify(key.pub, canonical('att1', att.payload.replace('repro=2/3', 'repro=3/3')), Buffer.from(att.sig, 'base64url'))).toBe(false);
    // Each donor tuple's dsig verifies under its pub.
    const honestT = att.donors.find((d) => d.donor === honest.id)!;
    expect(
      opensslVerify(
        honestT.pub,
        canonical('dsig1', `${DOMAIN} job=${id} lease=${honestT.lease} in=${good.in_hash} out=${sha(out)} donor=${honest.id}`),
        Buffer.from(honestT.dsig, 'base64url'),
      ),
    ).toBe(true);

    // The twins and the page.
    expect((await call(s, 'GET', `/att/${id}.txt`)).text).toMatch(/^att1 kid=\d+ sig=[A-Za-z0-9_-]{86} job=/);
    expect((await call(s, 'GET', `/att/${id}.md`)).text).toMatch(/^# Receipt j/);
    const html = await req(s, 'GET', `/att/${id}`, { headers: { accept: 'text/html' } });
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await call(s, 'GET', '/att/jzzzzzzzzzz')).text).toBe('err notfound\n');

    // The liar's earlier receipt is revoked.
    const revoked = await call(s, 'GET', '/att/revoked.txt');
    expect(revoked.text.split('\n')[0]).toMatch(/^# /);
    expect(revoked.text).toContain(`job=${earlier} `);
    expect(revoked.text).toContain(`\treason=donor ${liar.id} disagreed with the quorum of job ${id} at=`);
    expect((await json<{ revoked: string | null }>(req(s, 'GET', `/att/${earlier}.json`))).revoked).toMatch(/disagreed/);

    // Credits: the asker paid 3 and got 1 back (the liar's replica); the honest donor earned 1; the liar nothing.
    expect(await balance(asker)).toBe(before.asker - 2);
    expect(await balance(honest)).toBe(before.honest + 1);
    expect(await balance(liar)).toBe(before.liar);
    expect((await audit()).problems).toEqual([]);
  });

  it('an expired lease is reassigned: the late donor is refused, the new one completes the job', async () => {
    const slow = await donor('slow');
    const fast = await donor('fast');
    const id = await newJob(2, 2, 'lease expiry');
    // The server's replica first (its donate job runs in the background), so the one slot left is
    // the one slow leases and fast is given after it expires.
    await until(async () => (await job(id)).submitted === 1);
    const late = await json<Lease>(lease(slow, id));
    await later(s, 61_000, async () => {
      const got = await json<Lease>(lease(fast, id));
      expect(got.job).toBe(id);
      const refused = await submit(slow, late, await honestOutput(slow, late));
      expect(refused.status).toBe(404);
      expect(refused.text).toBe('err notfound no such lease (unknown, or expired and reassigned): lease again\n');
      expect((await submit(fast, got, await honestOutput(fast, got))).status).toBe(200);
    });
    await until(async () => (await job(id)).state === 'done');
    expect((await audit()).problems).toEqual([]);
  });

  it('donating needs a published key; /admin/trusted needs the admin token', async () => {
    const nokey = await agent(s, 'nokey');
    expect((await call(s, 'POST', '/v1/donor/lease', { as: nokey, json: {} })).text).toMatch(/^err auth donating needs a published key/);
    expect((await call(s, 'POST', '/admin/trusted', { json: { id: nokey.id, on: true } })).status).toBe(401);
    expect(
      (await call(s, 'POST', '/admin/trusted', { json: { id: nokey.id, on: true }, headers: { authorization: `Bearer ${s.config.operatorTokens.admin}` } }))
        .text,
    ).toBe(`ok donor ${nokey.id} trusted=1\nnext: POST /admin/trusted id=${nokey.id} on=false to undo\n`);
  });
});
