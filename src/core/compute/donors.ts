// Replicated jobs: a caller asks for k of n replicas of a served service on an input; donors (the
// server itself by default, and identities with a published key) lease a replica slot, run it with
// the same runner contract, and return the output with their Ed25519 signature over the lease
// (dsig1). The job ends when k outputs agree: the agreeing donors are paid, the disagreeing ones
// lose standing and are reported (and receipts they took part in are revoked), and the server
// signs an att1 receipt. A lease not answered by its deadline is reassigned.
import { iso } from '../kernel/text.js';
import { CxError, notFound } from '../kernel/errors.js';
import { newId } from '../platform/identity/tokens.js';
import { levelOf } from '../platform/identity/levels.js';
import { limit } from '../kernel/limits.js';
import { shortError } from '../platform/ledger/ledger.js';
import type { Core, Ctx } from '../kernel/types.js';
import { b64u, statementLine, verifyStatement } from '../platform/trust/sign.js';
import { COMPUTE_ACCOUNT, pay } from './calls.js';
import { runLimits } from './manifest.js';
import type { CJob, CSlot } from './ports.js';
import { mustServe, sha256, SYSTEM, wasmOf } from './services.js';
import { hint } from '../kernel/hints.js';

/** The system account holding a job's credits until donors are paid or the caller refunded. */
export const JOBS_ACCOUNT = 'sys:jobs';
/** The queue of the server's own donor. */
export const DONATE_QUEUE = 'svc.donate';
export const DSIG_TYPE = 'dsig1';
export const ATT_TYPE = 'att1';

/** What a donor signs: `<domain> job=<id> lease=<lease> in=<sha256> out=<sha256> donor=<id>`. */
export const dsigPayload = (domain: string, job: string, lease: string, inHash: string, outHash: string, donor: string) =>
  `${domain} job=${job} lease=${lease} in=${inHash} out=${outHash} donor=${donor}`;

/** Replicas an identity may ask for, by level. */
export const maxReplicas = (lvl: number) => [limit('compute.n.l0'), 3, 5, 7][Math.min(3, lvl)]!;

export interface JobView {
  id: string;
  svc: string;
  state: string;
  k: number;
  n: number;
  submitted: number;
  in_hash: string;
  out_hash: string | null;
  output: string | null;
  receipt: string | null;
  att: string | null;
  date: string;
}

function view(core: Core, j: CJob, slots: CSlot[]): JobView {
  return {
    id: j.id,
    svc: `${j.name}@${j.ver}`,
    state: j.state,
    k: j.k,
    n: j.n,
    submitted: slots.filter((s) => s.state === 'done').length,
    in_hash: j.in_hash,
    out_hash: j.out_hash,
    output: j.output ? Buffer.from(j.output).toString('utf8') : null,
    receipt: j.receipt,
    att: j.state === 'done' ? `${core.config.baseUrl}/att/${j.id}` : null,
    date: iso(j.created),
  };
}

export async function createJob(ctx: Ctx, name: string, input: Buffer, k: number, n: number): Promise<JobView> {
  const { core } = ctx;
  const me = ctx.caller.identity!;
  const max = limit('compute.in_bytes');
  if (input.length > max) throw new CxError('size', `input over ${max} bytes`, 413);
  if (k > n) throw new CxError('bad', `k: ${k} is more than n=${n}`);
  const nMax = maxReplicas(levelOf(me, core.now()));
  if (n > nMax) throw new CxError('bad', `n: at most ${nMax} replicas at your level`);
  const v = await mustServe(core, name);
  const id = newId('j', core.random, 10);
  const price = limit('compute.price');
  if (price > 0) {
    const r = await core.store.ledger.post(pay('compute', id, me.id, JOBS_ACCOUNT, price * n), core.now());
    if ('short' in r) throw await shortError(ctx, me.id, price * n);
  }
  await core.store.cjobs.create({ id, name: v.name, ver: v.ver, wasm: v.wasm, caller: me.id, input, in_hash: sha256(input), k, n, price, created: core.now() });
  await core.store.jobs.enqueue(DONATE_QUEUE, { job: id }, { key: id });
  return view(core, (await core.store.cjobs.get(id))!, await core.store.cjobs.slots(id));
}

export async function getJob(ctx: Ctx, id: string): Promise<JobView> {
  const j = await ctx.core.store.cjobs.get(id);
  if (!j || j.caller !== ctx.caller.identity!.id) throw notFound();
  return view(ctx.core, j, await ctx.core.store.cjobs.slots(id));
}

export interface LeaseView {
  lease: string;
  job: string;
  slot: number;
  svc: string;
  wasm: string;
  entry: string;
  limits: { time_ms: number; mem_pages: number; out_bytes: number };
  input: string;
  in_hash: string;
  deadline: string;
  sign: string;
}

/** Leases a replica slot to a donor (an identity with a published key, or the server). */
export async function leaseSlot(core: Core, donor: string, pub: string, job: string | null): Promise<LeaseView | null> {
  const lease = newId('l', core.random, 12);
  const got = await core.store.cjobs.lease(donor, pub, lease, core.now() + limit('compute.lease_ms'), core.now(), job);
  if (!got) return null;
  const j = got.job;
  const v = await core.store.services.version(j.name, j.ver);
  const m = v!.manifest;
  return {
    lease,
    job: j.id,
    slot: got.slot,
    svc: `${j.name}@${j.ver}`,
    wasm: j.wasm,
    entry: m.entry,
    limits: m.limits,
    input: Buffer.from(j.input).toString('utf8'),
    in_hash: j.in_hash,
    deadline: iso(core.now() + limit('compute.lease_ms')),
    sign: dsigPayload(core.keys.domain, j.id, lease, j.in_hash, '<sha256 of your output>', donor),
  };
}

export async function donorLease(ctx: Ctx, job: string | null): Promise<LeaseView> {
  const { core } = ctx;
  const me = ctx.caller.identity!;
  const key = await core.store.identityKeys.get(me.id);
  if (!key) throw new CxError('auth', ['donating needs a published key: ', hint('key.publish', undefined, 'first')], 403);
  const d = await core.store.cjobs.donor(me.id);
  if (d && !d.trusted && d.bad >= limit('compute.donor_bad') && d.bad > d.good)
    throw new CxError('auth', `lost standing: ${d.bad} reported results, ${d.good} agreeing`, 403);
  const l = await leaseSlot(core, me.id, key.pub, job);
  if (!l) throw notFound('no replica to lease now');
  return l;
}

/** A donor's result: the dsig must verify under the pub recorded with the lease. */
export async function submitResult(
  core: Core,
  donor: string,
  lease: string,
  output: Buffer,
  dsig: string,
): Promise<{ job: string; out_hash: string; state: string }> {
  const slot = await core.store.cjobs.slotByLease(lease);
  if (!slot || slot.donor !== donor) throw notFound('no such lease (unknown, or expired and reassigned): lease again');
  const j = (await core.store.cjobs.get(slot.job))!;
  const outHash = sha256(output);
  const payload = dsigPayload(core.keys.domain, j.id, lease, j.in_hash, outHash, donor);
  const sig = /^[A-Za-z0-9_-]{86}$/.test(dsig) ? Buffer.from(dsig, 'base64url') : Buffer.alloc(0);
  if (!verifyStatement(Buffer.from(slot.pub!, 'hex'), DSIG_TYPE, payload, sig))
    throw new CxError('bad', `dsig: does not verify as ${DSIG_TYPE} "${payload}" under your published key`);
  const r = await core.store.cjobs.submit(lease, donor, { out_hash: outHash, output, dsig }, core.now());
  if (r === 'stale') throw new CxError('dup', 'lease expired or already used: lease again');
  const state = await settle(core, j.id);
  return { job: j.id, out_hash: outHash, state };
}

/** The server's own replica of a job (the donate queue's handler). */
export async function serverDonate(core: Core, job: string): Promise<void> {
  const l = await leaseSlot(core, SYSTEM, core.keys.pub, job);
  if (!l) return;
  const j = (await core.store.cjobs.get(job))!;
  const v = (await core.store.services.version(j.name, j.ver))!;
  const r = await core.compute.run({
    hash: j.wasm,
    wasm: () => wasmOf(core, j.wasm),
    entry: v.manifest.entry,
    input: Buffer.from(j.input),
    limits: runLimits(v.manifest),
  });
  if (!r.ok && r.code === 'busy') throw new Error('runner busy'); // the job retries; the lease expires meanwhile
  // A failed run is a result too (its one line): replicas that fail the same way agree.
  const output = r.ok ? Buffer.from(r.output) : Buffer.from(`err compute ${r.code}`);
  const payload = dsigPayload(core.keys.domain, job, l.lease, j.in_hash, sha256(output), SYSTEM);
  await submitResult(core, SYSTEM, l.lease, output, b64u(core.keys.sign(DSIG_TYPE, payload).sig));
}

/** The att1 payload: job, service, module, input and output hashes, repro, date, the quorum's donor tuples. */
export function attPayload(j: CJob, out: string, agree: CSlot[], at: number): string {
  const donors = agree.map((s) => `${s.donor}:${s.pub}:${s.dsig}:${s.lease}`).join(',');
  return `job=${j.id} svc=${j.name}@${j.ver} wasm=${j.wasm} in=${j.in_hash} out=${out} repro=${agree.length}/${j.n} at=${iso(at)} donors=${donors}`;
}

/** Ends the job when k outputs agree (or fails it when every replica answered without a quorum). */
async function settle(core: Core, id: string): Promise<string> {
  const j = (await core.store.cjobs.get(id))!;
  const slots = await core.store.cjobs.slots(id);
  const done = slots.filter((s) => s.state === 'done');
  const now = core.now();
  if (j.state !== 'open') {
    // A result after the end: compared with the quorum all the same.
    for (const s of done)
      if (
        j.out_hash &&
        s.out_hash !== j.out_hash &&
        (await core.store.cjobs.report({ job: id, donor: s.donor!, out_hash: s.out_hash!, quorum: j.out_hash, at: now }))
      )
        await revokeFor(core, s.donor!, id);
    return j.state;
  }
  const groups = new Map<string, CSlot[]>();
  for (const s of done) groups.set(s.out_hash!, [...(groups.get(s.out_hash!) ?? []), s]);
  const best = [...groups.entries()].sort((a, b) => b[1].length - a[1].length)[0];
  if (best && best[1].length >= j.k) {
    const [out, agree] = best;
    // A quorum on a failure (`err compute timeout`, a trap, a cap) ends the job as failed, with that
    // line as its output and no receipt: a signed att1 would read as a result that was computed.
    const failedRun = Buffer.from(agree[0]!.output!).subarray(0, 12).toString('latin1') === 'err compute ';
    let receipt: string | null = null;
    if (!failedRun) {
      const payload = attPayload(j, out, agree, now);
      const signed = core.keys.sign(ATT_TYPE, payload);
      receipt = statementLine(ATT_TYPE, signed.kid, signed.sig, payload);
    }
    const disagree = done.filter((s) => s.out_hash !== out).map((s) => ({ donor: s.donor!, out_hash: s.out_hash! }));
    const state = failedRun ? 'failed' : 'done';
    if (!(await core.store.cjobs.finish(id, { state, out_hash: out, output: agree[0]!.output, receipt, agree: agree.map((s) => s.donor!), disagree }, now)))
      return state;
    if (j.price > 0) {
      for (const s of agree) await core.store.ledger.post(pay('payout', id, JOBS_ACCOUNT, s.donor === SYSTEM ? COMPUTE_ACCOUNT : s.donor!, j.price), now);
      const rest = (j.n - agree.length) * j.price;
      if (rest > 0) await core.store.ledger.post(pay('refund', id, JOBS_ACCOUNT, j.caller, rest), now);
    }
    for (const d of disagree) await revokeFor(core, d.donor, id);
    return state;
  }
  if (done.length === j.n) {
    if (await core.store.cjobs.finish(id, { state: 'failed', out_hash: null, output: null, receipt: null, agree: [], disagree: [] }, now)) {
      if (j.price > 0) await core.store.ledger.post(pay('refund', id, JOBS_ACCOUNT, j.caller, j.n * j.price), now);
    }
    return 'failed';
  }
  return 'open';
}

/** A donor proven dishonest: every receipt of the last year it took part in is revoked. */
async function revokeFor(core: Core, donor: string, job: string): Promise<void> {
  if (donor === SYSTEM) return;
  const since = core.now() - limit('att.revoked_keep') * 86_400_000;
  for (const r of await core.store.cjobs.receiptsWith(donor, since))
    await core.store.cjobs.revoke(r.job, r.receipt, `donor ${donor} disagreed with the quorum of job ${job}`, core.now());
}

export interface AttView {
  job: string;
  svc: string;
  wasm: string;
  in_hash: string;
  out_hash: string;
  repro: string;
  at: string;
  kid: number;
  sig: string;
  line: string;
  payload: string;
  donors: Array<{ donor: string; pub: string; dsig: string; lease: string }>;
  revoked: string | null;
  /** Donors whose outputs disagreed with the quorum (they lost standing). */
  reported: Array<{ donor: string; out_hash: string }>;
  key: string;
}

export async function getAtt(core: Core, id: string): Promise<AttView> {
  const j = await core.store.cjobs.get(id);
  if (!j || j.state !== 'done' || !j.receipt) throw notFound();
  const m = /^att1 kid=(\d+) sig=([A-Za-z0-9_-]+) (.*)$/.exec(j.receipt)!;
  const payload = m[3]!;
  const f = Object.fromEntries(payload.split(' ').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
  const donors = (f.donors ?? '')
    .split(',')
    .filter(Boolean)
    .map((t: string) => {
      const [donor, pub, dsig, lease] = t.split(':');
      return { donor: donor!, pub: pub!, dsig: dsig!, lease: lease! };
    });
  const rev = (await core.store.cjobs.revoked(0)).find((r) => r.job === id);
  const reported = (await core.store.cjobs.reports(id)).map((r) => ({ donor: r.donor, out_hash: r.out_hash }));
  return {
    job: id,
    svc: f.svc!,
    wasm: f.wasm!,
    in_hash: f.in!,
    out_hash: f.out!,
    repro: f.repro!,
    at: f.at!,
    kid: Number(m[1]),
    sig: m[2]!,
    line: j.receipt,
    payload,
    donors,
    revoked: rev?.reason ?? null,
    reported,
    key: `${core.config.baseUrl}/.well-known/cx-key`,
  };
}
