// Services `<name>@<ver>`: publication (operator or L2 identity), the KAT gate run by a job, L2 ok
// reports, and which version is served. A version is served when it is its name's stable version,
// its known-answer tests passed, and at least one L2 ok report names it (docs/decisions.md).
import { createHash } from 'node:crypto';
import { CxError, notFound } from '../kernel/errors.js';
import type { Core, Ctx } from '../kernel/types.js';
import { b64u, verifyStatement } from '../platform/trust/sign.js';
import { levelOf } from '../platform/identity/levels.js';
import { limit } from '../kernel/limits.js';
import { runLimits } from './manifest.js';
import type { SvcManifest, SvcOk, SvcVersion } from './ports.js';
import { hint } from '../kernel/hints.js';

/** The job queue of KAT runs. */
export const KAT_QUEUE = 'svc.kats';
/** Who the operator is in service records. */
export const OPERATOR = 'admin';
/** The server's own identity: its ok reports and its donor role (spec: asystem owns operator blobs). */
export const SYSTEM = 'asystem';
/** Statement type of an L2 ok report. */
export const OK_TYPE = 'svcok1';

/** The payload an ok report signs: `<domain> <name>@<ver> <wasm sha256> <identity id>`. */
export const okPayload = (domain: string, name: string, ver: number, wasm: string, by: string) => `${domain} ${name}@${ver} ${wasm} ${by}`;

export interface Published {
  name: string;
  ver: number;
  wasm: string;
  state: 'pending';
  kats: number;
  stable: boolean;
}

/** Checks the module against its manifest (imports, entry, memory) before anything is stored. */
async function checkWasm(core: Core, hash: string, m: SvcManifest): Promise<void> {
  const meta = await core.store.blobs.meta(hash);
  const bytes = meta ? await core.store.blobs.bytes(hash) : null;
  if (!meta || !bytes) throw new CxError('notfound', [`wasm: no blob ${hash}; upload it first (`, hint('blob.put'), ', or ', hint('admin.blob'), ')']);
  const why = core.wasm.publish(bytes, m.entry, m.limits.mem_pages);
  if (why !== null) throw new CxError('bad', `wasm: ${why}`);
}

export async function publish(
  ctx: Ctx,
  i: { name: string; ver: number; wasm: string; manifest: SvcManifest; stable?: boolean },
  publisher: string,
): Promise<Published> {
  const { core } = ctx;
  await checkWasm(core, i.wasm, i.manifest);
  const mode = i.stable ? 'always' : 'first';
  const r = await core.store.services.publish(
    { name: i.name, ver: i.ver, wasm: i.wasm, manifest: i.manifest, publisher, kats: i.manifest.kats.length, created: core.now() },
    publisher,
    mode,
  );
  if (r === 'taken') throw new CxError('dup', `name ${i.name} belongs to another publisher`);
  if (r === 'dup') throw new CxError('dup', `${i.name}@${i.ver} exists; publish a higher ver`);
  // Bounded tries: a module that kills its runner (or, before runners were processes, the server)
  // fails after compute.runner_tries deliveries instead of being retried at every start.
  await core.store.jobs.enqueue(KAT_QUEUE, { name: i.name, ver: i.ver }, { key: `${i.name}@${i.ver}`, maxTries: limit('compute.runner_tries') });
  const n = await core.store.services.name(i.name);
  return { name: i.name, ver: i.ver, wasm: i.wasm, state: 'pending', kats: i.manifest.kats.length, stable: n?.stable === i.ver };
}

/**
 * The KAT run of one version (the job handler): every test's output must equal its expected text
 * exactly. An operator's version that passes gets the server's own ok report (signed svcok1).
 */
export async function runKats(
  core: Core,
  name: string,
  ver: number,
  attempt: { tries: number; maxTries: number } = { tries: 1, maxTries: 1 },
): Promise<'ok' | 'failed' | 'settled'> {
  const v = await core.store.services.version(name, ver);
  if (!v || v.state !== 'pending') return 'settled';
  const limits = runLimits(v.manifest);
  const fails: string[] = [];
  for (const [i, k] of v.manifest.kats.entries()) {
    const r = await core.compute.run({ hash: v.wasm, wasm: () => wasmOf(core, v.wasm), entry: v.manifest.entry, input: Buffer.from(k.in, 'utf8'), limits });
    // A full queue is no verdict on the module: throw, and the job retries later.
    if (!r.ok && r.code === 'busy') throw new Error(`runner busy: ${r.detail}`);
    // A dead runner may be the host's fault (the OS, a restart): tried again, a bounded number of
    // times; at the last try it is the module's verdict.
    if (!r.ok && r.code === 'crash' && attempt.tries < attempt.maxTries)
      throw new Error(`runner crashed (try ${attempt.tries} of ${attempt.maxTries}): ${r.detail}`);
    if (!r.ok) fails.push(`kat ${i + 1}: err compute ${r.code} ${r.detail}`);
    else {
      const got = Buffer.from(r.output).toString('utf8');
      if (got !== k.out) fails.push(`kat ${i + 1}: got ${JSON.stringify(got.slice(0, 80))} want ${JSON.stringify(k.out.slice(0, 80))}`);
    }
  }
  const state = fails.length ? 'failed' : 'ok';
  const log = fails.length ? fails.join('\n') : `${v.kats}/${v.kats} passed`;
  if (!(await core.store.services.settle(name, ver, state, log, core.now()))) return 'settled';
  if (state === 'ok' && v.publisher === OPERATOR) await systemOk(core, v);
  return state;
}

/** The server's own ok report of an operator's version whose KATs passed. */
async function systemOk(core: Core, v: SvcVersion): Promise<void> {
  const payload = okPayload(core.keys.domain, v.name, v.ver, v.wasm, SYSTEM);
  const s = core.keys.sign(OK_TYPE, payload);
  await core.store.services.addOk({
    name: v.name,
    ver: v.ver,
    by: SYSTEM,
    pub: core.keys.pub,
    sig: b64u(s.sig),
    note: `known-answer tests passed; operator publication (kid=${s.kid})`,
    at: core.now(),
  });
}

export async function wasmOf(core: Core, hash: string): Promise<Uint8Array> {
  const b = await core.store.blobs.bytes(hash);
  if (!b) throw new Error(`blob ${hash} is gone`);
  return b;
}

/** The served version of a name, or null: stable, KATs passed, at least one L2 ok report. */
export async function servedVersion(core: Core, name: string): Promise<SvcVersion | null> {
  const n = await core.store.services.name(name);
  if (!n || n.stable === null) return null;
  const v = await core.store.services.version(name, n.stable);
  if (!v || v.state !== 'ok') return null;
  return (await core.store.services.okCount(name, v.ver)) > 0 ? v : null;
}

export async function mustServe(core: Core, name: string): Promise<SvcVersion> {
  const v = await servedVersion(core, name);
  if (!v) throw notFound(`no served service ${name}`);
  return v;
}

/**
 * An L2 ok report: the reporter is at level 2 or more, has published a key (PUT /v1/key), did not
 * publish the version, and signs svcok1 `<domain> <name>@<ver> <wasm> <id>` with that key. Only a
 * version whose KATs passed can be reported.
 */
export async function reportOk(ctx: Ctx, name: string, ver: number, sig: string, note: string | null): Promise<{ ok: SvcOk; count: number }> {
  const { core } = ctx;
  const me = ctx.caller.identity!;
  if (levelOf(me, core.now()) < 2) throw new CxError('auth', 'an ok report needs level L2 (see /limits trust levels)', 403);
  const v = await core.store.services.version(name, ver);
  if (!v) throw notFound(`no version ${name}@${ver}`);
  if (v.publisher === me.id) throw new CxError('dup', 'the publisher cannot report its own version');
  if (v.state !== 'ok') throw new CxError('dup', `${name}@${ver} is ${v.state}: only a version whose KATs passed can be reported`);
  const key = await core.store.identityKeys.get(me.id);
  if (!key) throw new CxError('bad', ['sig: no key published; ', hint('key.publish', undefined, 'first')]);
  const payload = okPayload(core.keys.domain, name, ver, v.wasm, me.id);
  if (!verifyStatement(Buffer.from(key.pub, 'hex'), OK_TYPE, payload, Buffer.from(sig, 'base64url'))) {
    throw new CxError('bad', `sig: does not verify as ${OK_TYPE} "${payload}" under your published key`);
  }
  const ok: SvcOk = { name, ver, by: me.id, pub: key.pub, sig, note, at: core.now() };
  if (!(await core.store.services.addOk(ok))) throw new CxError('dup', `${me.id} already reported ${name}@${ver}`);
  return { ok, count: await core.store.services.okCount(name, ver) };
}

export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
