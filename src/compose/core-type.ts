// The core's services beyond the kernel's own, added to the kernel's `Core` by declaration merging:
// the kernel names none of the platform's classes, the adapters' runners or the configuration.
import type { Config } from '../config.js';
import type { ComputeRunner } from '../core/compute/ports.js';
import type { TombKind } from '../core/exports/ports.js';
import type { GitMirror } from '../core/gitmirror/mirror.js';
import type { Contributions } from '../core/kernel/module.js';
import type { SystemMail } from '../core/mail/ports.js';
import type { Control } from '../core/platform/control/control.js';
import type { Pow } from '../core/platform/identity/pow.js';
import type { RegistrationPolicy } from '../core/platform/identity/ports.js';
import type { RequestMetrics } from '../core/platform/metrics/requests.js';
import type { Quotas } from '../core/platform/quota/buckets.js';
import type { ServerKeys } from '../core/platform/trust/keys.js';
import type { SpaceAccess } from '../core/platform/spaces-access.js';
import type { WasmCheck } from '../core/platform/wasm-check.js';
import type { Readiness } from '../core/system/ready.js';

declare module '../core/kernel/types.js' {
  interface Core {
    config: Config;
    pow: Pow;
    /** Checked at registration before the proof is spent: the admin domain's ASN policy. */
    registrationPolicy: RegistrationPolicy;
    quotas: Quotas;
    /** Freezes, shed level and maintenance windows: persisted, read from memory (bounded staleness). */
    control: Control;
    /** The statement signing key ring (src/core/platform/trust): the one signer of the service. */
    keys: ServerKeys;
    /** The git mirror of the KB (src/core/gitmirror), when the composition root set one up. */
    mirror?: GitMirror;
    /** The WASM plugin runner (src/wasm): compute calls and KATs run on it. */
    compute: ComputeRunner;
    /** Reads a WebAssembly module's declarations at upload and publication (src/wasm/check.ts). */
    wasm: WasmCheck;
    /** Per-operation call counts and latencies (invoke records them; /metrics reads them). */
    requests: RequestMetrics;
    /** Starting, ready or draining (GET /readyz). */
    ready: Readiness;
    /** Membership of spaces as other domains see it (the private KB of spaces): the spaces' store. */
    spaceAccess: SpaceAccess;
    /** Mail the system writes for an identity (swarm mb: deliveries): the mail domain's writer. */
    systemMail: SystemMail;
    /** Feed sources, activity shares and export views the modules contribute (src/compose/contributions.ts). */
    contributions: Contributions;
    /**
     * Records a removal for the open-data exports (src/core/exports/tombstones.ts): the row stays out
     * of every later export. The exports' writer, for domains that take content down (gov's notices).
     */
    recordTombstone(t: { kind: TombKind; id: string; reason: string }): Promise<void>;
    /** When the newest open-data export was made (ms), null while there is none (/metrics). */
    newestExportAt(): Promise<number | null>;
  }
}
