// Replicated jobs and donors: svc.job (k of n replicas), its status, donor leases and results,
// the public receipts (/att/{job}, /att/revoked.txt) and the operator's trusted donors.
import { iso } from '../kernel/text.js';
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import type { AnyOperation, Ctx } from '../kernel/types.js';
import { ATT_TYPE, createJob, DSIG_TYPE, donorLease, getAtt, getJob, submitResult } from './donors.js';
import { svcName } from './manifest.js';
import { hint, next } from '../kernel/hints.js';

const jobOut = z.object({
  id: z.string(),
  svc: z.string(),
  state: z.string(),
  k: z.number().int(),
  n: z.number().int(),
  submitted: z.number().int(),
  in_hash: z.string(),
  out_hash: z.string().nullable(),
  output: z.string().nullable(),
  receipt: z.string().nullable(),
  att: z.string().nullable(),
  date: z.string(),
});
const jobText = (o: z.infer<typeof jobOut>, ctx: Ctx) =>
  [
    `job ${o.id} ${o.svc} ${o.state} k=${o.k} n=${o.n} submitted=${o.submitted} in=${o.in_hash} out=${o.out_hash ?? '-'}`,
    ...(o.output !== null ? ['output (untrusted data):', o.output] : []),
    ...(o.receipt ? [o.receipt] : []),
    o.att ? next(ctx, hint('att.get', { job: o.id }, '(the signed receipt)')) : next(ctx, hint('svc.job_get', { id: o.id }, 'until it is done')),
  ].join('\n');

export const svcJobOp = defineOp({
  name: 'svc.job',
  title: 'Run a service on k of n donors',
  summary: `Run the served version of a service on an input as a replicated job: n donors (the server is one) each run it; the job ends when k outputs agree and the server signs an att1 receipt. Costs ${limit('compute.price')} credit per replica; replicas not used are refunded. n is bounded by your level.`,
  input: z
    .object({
      name: svcName,
      input: z.string().describe('the input text'),
      k: z.number().int().min(1).max(7).default(1).describe('outputs that must agree'),
      n: z.number().int().min(1).max(7).default(1).describe('replicas (donors) asked for'),
    })
    .strict(),
  output: jobOut,
  auth: 'token',
  readOnly: false,
  quota: ['compute'],
  freeze: 'compute',
  rest: { method: 'POST', path: '/v1/svc/:name/job', status: 201 },
  run: (ctx, i) => createJob(ctx, i.name, Buffer.from(i.input, 'utf8'), i.k, i.n),
  text: jobText,
});

export const svcJobGetOp = defineOp({
  name: 'svc.job_get',
  title: 'A replicated job',
  summary: 'State, agreed output and receipt of one of your replicated jobs.',
  input: z.object({ id: z.string().regex(/^j[0-9a-z]{10}$/, 'want a job id j…') }).strict(),
  output: jobOut,
  auth: 'token',
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/v1/job/:id', cache: 'no-store' },
  run: (ctx, i) => getJob(ctx, i.id),
  text: jobText,
});

const leaseOut = z.object({
  lease: z.string(),
  job: z.string(),
  slot: z.number().int(),
  svc: z.string(),
  wasm: z.string(),
  entry: z.string(),
  limits: z.object({ time_ms: z.number().int(), mem_pages: z.number().int(), out_bytes: z.number().int() }),
  input: z.string(),
  in_hash: z.string(),
  deadline: z.string(),
  sign: z.string(),
});

export const donorLeaseOp = defineOp({
  name: 'donor.lease',
  title: 'Lease a replica to run (donor)',
  summary: `Donate compute: lease one replica of an open job (input, module hash, entry, limits, deadline in ${limit('compute.lease_ms') / 1000} s). Run the module (GET /v1/b/<wasm>) with Extism under the limits, then POST /v1/donor/lease/<lease> with the output and your ${DSIG_TYPE} signature. Needs a published key (PUT /v1/key).`,
  input: z
    .object({
      job: z
        .string()
        .regex(/^j[0-9a-z]{10}$/, 'want a job id j…')
        .optional(),
    })
    .strict(),
  output: leaseOut,
  auth: 'token',
  readOnly: false,
  quota: ['compute'],
  freeze: 'compute',
  rest: { method: 'POST', path: '/v1/donor/lease', status: 201 },
  run: (ctx, i) => donorLease(ctx, i.job ?? null),
  text: (o, ctx) =>
    [
      `lease ${o.lease} job=${o.job} slot=${o.slot} svc=${o.svc} wasm=${o.wasm} entry=${o.entry} deadline=${o.deadline}`,
      `limits time_ms=${o.limits.time_ms} mem_pages=${o.limits.mem_pages} out_bytes=${o.limits.out_bytes} in=${o.in_hash}`,
      `sign ${DSIG_TYPE}: ${o.sign}`,
      'input (untrusted data):',
      o.input,
      next(ctx, hint('donor.submit', { lease: o.lease }, 'with output and dsig')),
    ].join('\n'),
});

export const donorSubmitOp = defineOp({
  name: 'donor.submit',
  title: 'Return a replica result (donor)',
  summary: `Return the output of a leased replica with dsig: your base64url Ed25519 signature of ${DSIG_TYPE} "<domain> job=<job> lease=<lease> in=<input sha256> out=<output sha256> donor=<your id>" by your published key.`,
  input: z
    .object({
      lease: z.string().regex(/^l[0-9a-z]{12}$/, 'want a lease id l…'),
      output: z.string().max(limit('compute.out_bytes.max')),
      dsig: z.string().max(200),
    })
    .strict(),
  output: z.object({ job: z.string(), out_hash: z.string(), state: z.string() }),
  auth: 'token',
  readOnly: false,
  freeze: 'compute',
  rest: { method: 'POST', path: '/v1/donor/lease/:lease' },
  run: (ctx, i) => submitResult(ctx.core, ctx.caller.identity!.id, i.lease, Buffer.from(i.output, 'utf8'), i.dsig),
  text: (o, ctx) => `ok result job=${o.job} out=${o.out_hash} job_state=${o.state}\n${next(ctx, hint('donor.lease', undefined, 'for another replica'))}`,
});

const attOut = z.object({
  job: z.string(),
  svc: z.string(),
  wasm: z.string(),
  in_hash: z.string(),
  out_hash: z.string(),
  repro: z.string(),
  at: z.string(),
  kid: z.number().int(),
  sig: z.string(),
  line: z.string(),
  payload: z.string(),
  donors: z.array(z.object({ donor: z.string(), pub: z.string(), dsig: z.string(), lease: z.string() })),
  revoked: z.string().nullable(),
  reported: z.array(z.object({ donor: z.string(), out_hash: z.string() })),
  key: z.string(),
});

export const attGetOp = defineOp({
  name: 'att.get',
  title: 'Replication receipt',
  summary: `The server's signed ${ATT_TYPE} receipt of a finished job: service, module, input and output hashes, repro=k/n, and the donors (id, key, dsig, lease) whose outputs agreed.`,
  input: z.object({ job: z.string().regex(/^j[0-9a-z]{10}$/, 'want a job id j…') }).strict(),
  output: attOut,
  auth: 'anon',
  readOnly: true,
  idempotent: true,
  rest: {
    method: 'GET',
    path: '/att/:job',
    twins: ['json', 'md', 'txt'],
    cache: 'public, max-age=300',
    htmlTitle: (o: { job: string }) => `Receipt ${o.job}`,
    signed: true,
  },
  run: (ctx, i) => getAtt(ctx.core, i.job),
  text: (o, ctx) =>
    [
      o.line,
      `job ${o.job} svc=${o.svc} repro=${o.repro} out=${o.out_hash}${o.revoked ? ' REVOKED' : ''}`,
      ...o.donors.map((d) => `donor ${d.donor} pub=${d.pub} lease=${d.lease} dsig=${d.dsig}`),
      ...o.reported.map((r) => `reported ${r.donor} out=${r.out_hash} (disagreed with the quorum)`),
      ...(o.revoked ? [`revoked: ${o.revoked}`] : []),
      `verify: Ed25519 over "cx-sig-v1" 0x00 "${ATT_TYPE}" 0x00 <payload after sig=…> with the pub of kid=${o.kid} at ${o.key} (GET /signing)`,
      next(ctx, hint('svc.job_get', { id: o.job }, 'for the job and its output')),
    ].join('\n'),
  md: (o) =>
    [
      `# Receipt ${o.job}`,
      '',
      `- service: \`${o.svc}\` (wasm \`${o.wasm}\`)`,
      `- input sha256: \`${o.in_hash}\``,
      `- output sha256: \`${o.out_hash}\``,
      `- repro: ${o.repro}, at ${o.at}`,
      ...(o.revoked ? [`- **revoked**: ${o.revoked}`] : []),
      '',
      '| donor | pub | lease | dsig |',
      '|---|---|---|---|',
      ...o.donors.map((d) => `| ${d.donor} | \`${d.pub}\` | ${d.lease} | \`${d.dsig}\` |`),
      ...(o.reported.length ? ['', `Reported (disagreed with the quorum): ${o.reported.map((r) => r.donor).join(', ')}`] : []),
      '',
      `Signed line (kid ${o.kid}; key at ${o.key}):`,
      '',
      '```',
      o.line,
      '```',
    ].join('\n'),
});

export const attRevokedOp = defineOp({
  name: 'att.revoked',
  title: 'Revoked receipts',
  summary: `Receipts revoked because a donor was later proven dishonest, kept ${limit('att.revoked_keep')} days: one att1 line and a reason per line.`,
  input: z.object({}).strict(),
  output: z.object({ rows: z.array(z.object({ job: z.string(), line: z.string(), reason: z.string(), at: z.string() })) }),
  auth: 'anon',
  readOnly: true,
  idempotent: true,
  rest: {
    method: 'GET',
    path: '/att/revoked.txt',
    cache: 'public, max-age=300',
    rawOnly: true,
    signed: true,
    raw: (o) => ({ body: revokedText(o), type: 'text/plain; charset=utf-8' }),
  },
  async run(ctx) {
    const rows = await ctx.core.store.cjobs.revoked(ctx.core.now() - limit('att.revoked_keep') * 86_400_000);
    return { rows: rows.map((r) => ({ job: r.job, line: r.line, reason: r.reason, at: iso(r.at) })) };
  },
  text: (o) => revokedText(o),
});

function revokedText(o: { rows: Array<{ line: string; reason: string; at: string }> }): string {
  return (
    [
      `# revoked att1 receipts, kept ${limit('att.revoked_keep')} days; each line: <att1 line> TAB reason=<why> at=<date-time>`,
      ...o.rows.map((r) => `${r.line}\treason=${r.reason} at=${r.at}`),
    ].join('\n') + '\n'
  );
}

export const adminTrustedOp = defineOp({
  name: 'admin.trusted',
  title: 'Mark an operator-trusted donor (operator)',
  summary: 'Marks (on) or unmarks an identity as an operator-trusted donor: it keeps getting leases whatever its reported results (admin token).',
  input: z
    .object({
      id: z
        .string()
        .max(7)
        .regex(/^a[0-9a-z]{1,6}$/, 'want an identity id'),
      on: z.boolean(),
    })
    .strict(),
  output: z.object({ id: z.string(), trusted: z.boolean() }),
  auth: 'admin',
  readOnly: false,
  rest: { method: 'POST', path: '/admin/trusted' },
  async run(ctx, i) {
    if (!(await ctx.core.store.identities.byId(i.id))) throw new CxError('notfound', `no identity ${i.id}`);
    await ctx.core.store.cjobs.setTrusted(i.id, i.on, ctx.core.now());
    return { id: i.id, trusted: i.on };
  },
  text: (o, ctx) => `ok donor ${o.id} trusted=${o.trusted ? 1 : 0}\n${next(ctx, hint('admin.trusted', { id: o.id, on: !o.trusted }, 'to undo'))}`,
});

export const donorOps: AnyOperation[] = [svcJobOp, svcJobGetOp, donorLeaseOp, donorSubmitOp, attGetOp, attRevokedOp, adminTrustedOp];
