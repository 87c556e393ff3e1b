// Builds the core from config and a store; tests pass their own clock or randomness.
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { Pow } from '../core/platform/identity/pow.js';
import type { Core, Logger } from '../core/kernel/types.js';
import { Quotas } from '../core/platform/quota/buckets.js';
import { Control } from '../core/platform/control/control.js';
import type { Store } from './store.js';
import { ServerKeys } from '../core/platform/trust/keys.js';
import type { ComputeRunner } from '../core/compute/ports.js';
import { noRunner } from '../core/compute/no-runner.js';
import { RequestMetrics } from '../core/platform/metrics/requests.js';
import { Readiness } from '../core/system/ready.js';
import { putMail } from '../core/mail/mail.js';
import { checkRegistrationAsn } from '../core/admin/asn.js';
import { wasmCheck } from '../wasm/check.js';
import { recordTombstone } from '../core/exports/tombstones.js';
import { newest } from '../core/exports/run.js';
import { CONTRIBUTIONS } from './contributions.js';

export const VERSION = '1.0.0';

/** `compute`: the plugin runner (the server passes src/wasm's); without one, calls answer `err compute bad`. */
export function buildCore(
  config: Config,
  store: Store,
  log: Logger,
  clock: { now(): number; random(n: number): Buffer } = { now: Date.now, random: randomBytes },
  compute: ComputeRunner = noRunner,
): Core {
  const now = () => clock.now();
  const core: Core = {
    config,
    store,
    log,
    now,
    random: (n) => clock.random(n),
    registrationPolicy: checkRegistrationAsn,
    pow: new Pow(config.sealKey, config.powBits, store.proofs, now, (n) => clock.random(n), store.powRates),
    quotas: new Quotas(store.quotas, now, config.quotaMult),
    started: now(),
    control: new Control(store.control, now, log),
    version: VERSION,
    keys: new ServerKeys(config.keys, now, new URL(config.baseUrl).host),
    compute,
    wasm: wasmCheck,
    spaceAccess: store.spaces,
    requests: new RequestMetrics(),
    ready: new Readiness(),
    // The mb: sink's mail (swarm) is written by the mail domain, which swarm does not import.
    systemMail: (m) => putMail(core, m),
    contributions: CONTRIBUTIONS,
    // Gov's notices tombstone what they take down, and /metrics reads the export age, through the
    // exports domain's own functions, which neither imports.
    recordTombstone: (t) => recordTombstone(core, t),
    newestExportAt: async () => (await newest(core))?.at ?? null,
  };
  return core;
}
