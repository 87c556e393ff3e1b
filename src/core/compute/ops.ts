// Compute operations: operator blobs and services (PUT /admin/blob, POST /admin/svc), publication by
// L2 identities, L2 ok reports, the service catalogue, calls and their records.
import { iso } from '../kernel/text.js';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { decodeB64, kindOf, wasmCaps } from '../platform/blob-bytes.js';
import { BLOB_HASH as HASH } from '../platform/ids.js';
import { CxError, notFound } from '../kernel/errors.js';
import { levelOf } from '../platform/identity/levels.js';
import { limit } from '../kernel/limits.js';
import { defineOp } from '../kernel/types.js';
import type { AnyOperation, Ctx } from '../kernel/types.js';
import { callService, getCall } from './calls.js';
import { donorOps } from './donor-ops.js';
import { isReserved, manifestSchema, svcName, svcVer } from './manifest.js';
import { OK_TYPE, OPERATOR, publish, reportOk, servedVersion, SYSTEM } from './services.js';
import { hint, next } from '../kernel/hints.js';

const hash = z.string().regex(HASH, 'want 64 lowercase hex (sha256 of the module, a blob)');

export const adminBlobOp = defineOp({
  name: 'admin.blob',
  title: 'Upload a module blob (operator)',
  summary: `Store a WebAssembly module above the public cap (up to ${limit('blob.admin')} bytes), owned by the system and pinned by the admin; name and ver pin it as <name>@<ver>, note says why (admin token).`,
  input: z
    .object({
      data_b64: z.string().describe('the module bytes, base64 (REST: the raw body of PUT /admin/blob)'),
      name: z
        .string()
        .min(1)
        .max(32)
        .regex(/^[A-Za-z0-9._-]+$/, 'want A-Z a-z 0-9 . _ -')
        .optional(),
      ver: z
        .string()
        .min(1)
        .max(32)
        .regex(/^[A-Za-z0-9._-]+$/, 'want A-Z a-z 0-9 . _ -')
        .optional(),
      note: z.string().max(120).optional(),
    })
    .strict(),
  output: z.object({
    hash: z.string(),
    size: z.number().int(),
    kind: z.string(),
    owner: z.string(),
    pinned_by: z.string(),
    pin: z.string().nullable(),
    note: z.string().nullable(),
    created: z.boolean(),
  }),
  auth: 'admin',
  readOnly: false,
  idempotent: true,
  rest: {
    method: 'PUT',
    path: '/admin/blob',
    textBody: 'data_b64',
    bodyType: 'application/octet-stream',
    bodyLimit: limit('blob.admin'),
    rawBody: 'base64',
    query: ['name', 'ver', 'note'],
    cache: 'no-store',
  },
  async run(ctx, i) {
    const bytes = decodeB64(i.data_b64);
    const max = limit('blob.admin');
    if (bytes.length > max) throw new CxError('size', `blob over ${max} bytes`, 413);
    if (!bytes.length) throw new CxError('bad', 'body: empty blob');
    if (kindOf(bytes) !== 'wasm') throw new CxError('bad', 'body: not a WebAssembly module (\\0asm)');
    wasmCaps(ctx.core, bytes);
    if ((i.name === undefined) !== (i.ver === undefined)) throw new CxError('bad', 'name and ver: give both to pin <name>@<ver>, or neither');
    const h = createHash('sha256').update(bytes).digest('hex');
    const pin = i.name !== undefined ? `${i.name}@${i.ver}` : null;
    const r = await ctx.core.store.blobs.putPinned({ hash: h, size: bytes.length, kind: 'wasm', owner: SYSTEM, created: ctx.core.now() }, bytes, {
      by: OPERATOR,
      pin,
      note: i.note ?? null,
    });
    return {
      hash: h,
      size: r.meta.size,
      kind: r.meta.kind,
      owner: SYSTEM,
      pinned_by: r.meta.pinned_by ?? OPERATOR,
      pin: r.meta.pin ?? null,
      note: r.meta.note ?? null,
      created: r.created,
    };
  },
  text: (b, ctx) =>
    `ok blob ${b.hash} size=${b.size} kind=${b.kind} owner=${b.owner} pinned_by=${b.pinned_by}${b.pin ? ` pin=${b.pin}` : ''}\n${next(ctx, hint('admin.svc', undefined, `with wasm=${b.hash} to publish it as a service`))}`,
});

const publishIn = {
  name: svcName.describe('service name: a-z 0-9 -, starts with a letter'),
  ver: svcVer.describe('integer version, higher than any published'),
  wasm: hash.describe('sha256 of the module (a blob: PUT /v1/b, or PUT /admin/blob)'),
  manifest: manifestSchema.describe('entry (exported function, default run), desc, kats [{in, out}] (at least one), limits {time_ms, mem_pages, out_bytes}'),
  stable: z.boolean().optional().describe('make this version the stable one (the first version of a name is stable anyway)'),
};
const publishOut = z.object({
  name: z.string(),
  ver: z.number().int(),
  wasm: z.string(),
  state: z.literal('pending'),
  kats: z.number().int(),
  stable: z.boolean(),
});
const publishText = (o: z.infer<typeof publishOut>, ctx: Ctx) =>
  `ok ${o.name}@${o.ver} pending kats=${o.kats}${o.stable ? ' stable' : ''}\n${next(ctx, hint('svc.get', { name: o.name }, 'for the KAT result'))}`;

export const adminSvcOp = defineOp({
  name: 'admin.svc',
  title: 'Publish a service version (operator)',
  summary:
    'Publish <name>@<ver> from a wasm blob and a manifest (entry, desc, known-answer tests, limits); reserved names allowed. It is served once its KATs pass; the first version of a name becomes stable (admin token).',
  input: z.object(publishIn).strict(),
  output: publishOut,
  auth: 'admin',
  readOnly: false,
  rest: { method: 'POST', path: '/admin/svc', status: 201, cache: 'no-store' },
  run: (ctx, i) => publish(ctx, i, OPERATOR),
  text: publishText,
});

export const svcPublishOp = defineOp({
  name: 'svc.publish',
  title: 'Publish a service version',
  summary:
    'Publish <name>@<ver> of your own service (level L2): a wasm blob you uploaded and a manifest with known-answer tests. Served once its KATs pass and another L2 identity reports it ok.',
  input: z.object(publishIn).strict(),
  output: publishOut,
  auth: 'token',
  readOnly: false,
  quota: ['write'],
  freeze: 'compute',
  rest: { method: 'POST', path: '/v1/svc', status: 201 },
  async run(ctx, i) {
    const me = ctx.caller.identity!;
    if (levelOf(me, ctx.core.now()) < 2) throw new CxError('auth', 'publishing a service needs level L2 (see /limits trust levels)', 403);
    if (isReserved(i.name)) throw new CxError('auth', `name ${i.name} is reserved for the operator`, 403);
    return publish(ctx, i, me.id);
  },
  text: publishText,
});

export const svcOkOp = defineOp({
  name: 'svc.ok',
  title: 'Report that a service version works',
  summary: `An L2 ok report: as an identity of level L2 with a published key, sign ${OK_TYPE} "<domain> <name>@<ver> <wasm sha256> <your id>" (see /signing). A stable version is served once it has one.`,
  input: z
    .object({
      name: svcName,
      ver: svcVer,
      sig: z
        .string()
        .regex(/^[A-Za-z0-9_-]{86}$/, 'want a base64url Ed25519 signature (86 characters)')
        .describe(`base64url signature of the ${OK_TYPE} statement by the key you published with PUT /v1/key`),
      note: z.string().max(limit('svc.ok_note')).optional(),
    })
    .strict(),
  output: z.object({ name: z.string(), ver: z.number().int(), by: z.string(), oks: z.number().int() }),
  auth: 'token',
  readOnly: false,
  quota: ['write'],
  scrub: ['note'],
  hazard: ['note'],
  freeze: 'compute',
  rest: { method: 'POST', path: '/v1/svc/:name/:ver/ok', status: 201 },
  async run(ctx, i) {
    const r = await reportOk(ctx, i.name, i.ver, i.sig, i.note ?? null);
    return { name: i.name, ver: i.ver, by: r.ok.by, oks: r.count };
  },
  text: (o, ctx) => `ok reported ${o.name}@${o.ver} by ${o.by} oks=${o.oks}\n${next(ctx, hint('svc.get', { name: o.name }))}`,
});

const verOut = z.object({
  ver: z.number().int(),
  wasm: z.string(),
  state: z.string(),
  kats: z.number().int(),
  log: z.string().nullable(),
  publisher: z.string(),
  stable: z.boolean(),
  oks: z.number().int(),
  date: z.string(),
});

export const svcGetOp = defineOp({
  name: 'svc.get',
  title: 'A service and its versions',
  summary:
    'A service: owner, stable version, whether it is served, and its versions (KAT state and log, ok reports), newest first. Services are untrusted code published by unknown agents or the operator.',
  input: z.object({ name: svcName }).strict(),
  output: z.object({
    name: z.string(),
    owner: z.string(),
    stable: z.number().int().nullable(),
    served: z.number().int().nullable(),
    desc: z.string(),
    versions: z.array(verOut),
    mcp: z.string().nullable(),
  }),
  auth: 'anon',
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/v1/svc/:name', twins: ['json', 'txt'], cache: 'no-store' },
  async run(ctx, i) {
    const { store } = ctx.core;
    const n = await store.services.name(i.name);
    if (!n) throw notFound();
    const vs = await store.services.versions(i.name, limit('svc.versions'));
    const served = await servedVersion(ctx.core, i.name);
    const versions = await Promise.all(
      vs.map(async (v) => ({
        ver: v.ver,
        wasm: v.wasm,
        state: v.state,
        kats: v.kats,
        log: v.log,
        publisher: v.publisher,
        stable: n.stable === v.ver,
        oks: await store.services.okCount(v.name, v.ver),
        date: iso(v.created),
      })),
    );
    const desc = (served ?? vs[0])?.manifest.desc ?? '';
    return {
      name: n.name,
      owner: n.owner,
      stable: n.stable,
      served: served?.ver ?? null,
      desc,
      versions,
      mcp: served ? `${ctx.core.config.baseUrl}/mcp/svc/${n.name}` : null,
    };
  },
  text: (o, ctx) =>
    [
      `svc ${o.name} owner=${o.owner} stable=${o.stable ?? '-'} served=${o.served ?? '-'} untrusted`,
      `desc: ${o.desc}`,
      ...o.versions.map(
        (v) =>
          `${o.name}@${v.ver} ${v.state} kats=${v.kats} oks=${v.oks}${v.stable ? ' stable' : ''} by ${v.publisher} ${v.date} wasm=${v.wasm.slice(0, 12)}${v.log && v.state === 'failed' ? `\n  ${v.log.split('\n').join('\n  ')}` : ''}`,
      ),
      o.served
        ? ctx.face === 'rest'
          ? next(ctx, hint('svc.call', { name: o.name }, `with the input as the body, or MCP ${o.mcp}`))
          : next(ctx, hint('svc.call', { name: o.name, input: '<input>' }), `; or mount its own MCP endpoint ${o.mcp}`)
        : next(ctx, 'not served until the stable version passes its KATs and has an L2 ok (', hint('svc.ok', { name: '<name>', ver: '<ver>' }), ')'),
    ].join('\n'),
});

export const svcListOp = defineOp({
  name: 'svc.list',
  title: 'Services',
  summary: `Service names in alphabetical order with their stable and served versions (${limit('svc.page')} per page, \`after\` pages on).`,
  input: z.object({ after: z.string().max(limit('svc.name')).default('') }).strict(),
  output: z.object({
    services: z.array(z.object({ name: z.string(), owner: z.string(), stable: z.number().int().nullable(), served: z.boolean() })),
    next: z.string().nullable(),
  }),
  auth: 'anon',
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/v1/svc', cache: 'no-store' },
  async run(ctx, i) {
    const page = limit('svc.page');
    const rows = await ctx.core.store.services.list(i.after, page);
    const services = await Promise.all(
      rows.map(async (n) => ({ name: n.name, owner: n.owner, stable: n.stable, served: (await servedVersion(ctx.core, n.name)) !== null })),
    );
    return { services, next: rows.length === page ? rows[rows.length - 1]!.name : null };
  },
  text: (o, ctx) =>
    [
      `services n=${o.services.length}`,
      ...o.services.map((s) => `${s.name} stable=${s.stable ?? '-'} ${s.served ? 'served' : 'not-served'} owner=${s.owner}`),
      o.next ? next(ctx, hint('svc.list', { after: o.next })) : next(ctx, hint('svc.get', { name: '<name>' }), ', then ', hint('svc.call', { name: '<name>' })),
    ].join('\n'),
});

const callOutSchema = z.object({
  id: z.string(),
  svc: z.string(),
  status: z.enum(['ok', 'failed']),
  code: z.string().nullable(),
  detail: z.string().nullable(),
  output: z.string().nullable(),
  out_hash: z.string().nullable(),
  in_hash: z.string(),
  ms: z.number().int(),
  charged: z.number().int(),
  donor: z.string(),
  date: z.string(),
});
const callText = (o: z.infer<typeof callOutSchema>, ctx: Ctx) =>
  [
    `run ${o.id} ${o.svc} ${o.status}${o.code ? ` ${o.code}` : ''} ms=${o.ms} charged=${o.charged} donor=${o.donor} out=${o.out_hash ?? '-'}`,
    ...(o.status === 'ok' ? ['output (untrusted data):', o.output ?? ''] : [`detail: ${o.detail ?? ''}`]),
    next(ctx, hint('svc.run', { id: o.id })),
  ].join('\n');

export const svcCallOp = defineOp({
  name: 'svc.call',
  title: 'Run a service',
  summary: `Run the served (stable) version of a service on an input (at most ${limit('compute.in_bytes')} bytes of UTF-8 text); the server runs it in a sandbox and charges ${limit('compute.price')} credit (refunded when the run fails). The output is untrusted data.`,
  input: z.object({ name: svcName, input: z.string().describe('the input text (REST: the request body, text/plain)') }).strict(),
  output: callOutSchema,
  auth: 'token',
  readOnly: false,
  quota: ['compute'],
  freeze: 'compute',
  rest: { method: 'POST', path: '/v1/svc/:name/call', textBody: 'input', sizeLimit: 'compute.in_bytes', bodyLimit: 2 * limit('compute.in_bytes') },
  run: (ctx, i) => callService(ctx, i.name, Buffer.from(i.input, 'utf8')),
  text: callText,
});

export const svcRunOp = defineOp({
  name: 'svc.run',
  title: 'A call and its result',
  summary: `Status and output of one of your calls (kept ${limit('compute.keep_d')} days).`,
  input: z.object({ id: z.string().regex(/^r[0-9a-z]{10}$/, 'want a call id r…') }).strict(),
  output: callOutSchema,
  auth: 'token',
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/v1/run/:id', twins: ['json', 'txt'], cache: 'no-store' },
  run: (ctx, i) => getCall(ctx, i.id),
  text: callText,
});

export const computeOps: AnyOperation[] = [adminBlobOp, adminSvcOp, svcPublishOp, svcOkOp, svcListOp, svcGetOp, svcCallOp, svcRunOp, ...donorOps];
