// The ports the core needs from storage, gathered; no domain module imports better-sqlite3.
import type { DropRepo } from '../core/drops/ports.js';
import type { IdentityRepo, SpentProofRepo } from '../core/platform/identity/ports.js';
import type { Digest, KbEntry, KbRepo } from '../core/kb/ports.js';
import type { A2aStore } from '../core/a2a/ports.js';
import type { AgentRepo } from '../core/agents/ports.js';
import type { LedgerRepo } from '../core/platform/ledger/ports.js';
import type { Task, TaskRepo } from '../core/tasks/ports.js';
import type { SpaceRepo } from '../core/spaces/ports.js';
import type { SpaceKbRepo } from '../core/kb/space/ports.js';
import type { SavedCounter } from '../core/profiles/ports.js';
import type { NoteRepo } from '../core/notes/ports.js';
import type { CheckpointRepo } from '../core/checkpoints/ports.js';
import type { AnchorRepo } from '../core/anchors/ports.js';
import type { CacheRepo } from '../core/cache/ports.js';
import type { BlobRepo } from '../core/blobs/ports.js';
import type { MailRepo } from '../core/mail/ports.js';
import type { EventBus } from '../core/platform/events/ports.js';
import type { JobQueue } from '../core/platform/jobs/ports.js';
import type { ControlRepo } from '../core/platform/control/ports.js';
import type { QuotaRepo } from '../core/platform/quota/ports.js';
import type { IdentityKeyRepo, SignedConfirmRepo } from '../core/platform/trust/ports.js';
import type { SwarmRepo } from '../core/swarm/ports.js';
import type { WebhookRepo } from '../core/webhooks/ports.js';
import type { ExportFiles, ExportRepo } from '../core/exports/ports.js';
import type { AdminRepo } from '../core/admin/ports.js';
import type { GovRepo } from '../core/gov/ports.js';
import type { CJobRepo, ServiceRepo } from '../core/compute/ports.js';
import type { InjRepo } from '../core/inj/ports.js';
import type { PowRateRepo } from '../core/platform/identity/ports.js';
import type { LeaderRepo } from '../core/platform/leader/ports.js';
import type { KeyPrintRepo } from '../core/platform/secrets/ports.js';
import type { GitPackRepo } from '../core/gitmirror/ports.js';

/** What /metrics shows of the store (src/core/platform/metrics). */
export interface StoreHealth {
  /** PostgreSQL: the pool's connections (open, idle, callers waiting for one) and how many waits passed shed.db_wait. */
  pool?: { max: number; total: number; idle: number; waiting: number; slowWaits: number };
  /** SQLite: bytes of each database file's write-ahead log, by file name. */
  wal?: Record<string, number>;
  /** The largest delay from an event's commit to its live fan-out in this process since the last call, ms. */
  busLagMs: number;
}

/** A read standby as this process sees it (src/store/pg/standby.ts). */
export interface StandbyHealth {
  /** ok: anonymous KB reads go to it; lagging: past db.standby_lag (or lag unknown); down: no answer. */
  state: 'ok' | 'lagging' | 'down';
  /** Replication lag at the last probe, ms (null: not known). */
  lagMs: number | null;
  /** Read statements of anonymous read-only calls since start, by the server that answered them. */
  reads: { standby: number; primary: number };
  /** Why reads are not on the standby ('' while they are). */
  why: string;
}

// The gathered store type: each port a member of the kernel's `Store` (declaration merging), so
// operations reach `ctx.core.store.<port>` while the kernel imports no port.
export type { Store } from '../core/kernel/types.js';

declare module '../core/kernel/types.js' {
  interface Store {
    identities: IdentityRepo;
    proofs: SpentProofRepo;
    drops: DropRepo;
    kb: KbRepo;
    a2a: A2aStore;
    agents: AgentRepo;
    ledger: LedgerRepo;
    tasks: TaskRepo;
    spaces: SpaceRepo;
    /** The private KB entries of closed spaces (the KB's port; the spaces adapter holds them). */
    spaceKb: SpaceKbRepo;
    saved: SavedCounter;
    notes: NoteRepo;
    checkpoints: CheckpointRepo;
    anchors: AnchorRepo;
    cache: CacheRepo;
    blobs: BlobRepo;
    mail: MailRepo;
    /** Event bus: domains publish facts (in their writes' transactions), streams and sinks follow them. */
    events: EventBus;
    /** Job queue: work that must survive a crash (deliveries, sinks, compute, exports). */
    jobs: JobQueue;
    /** Freezes, operator shed level, maintenance windows: shared by every process on the store. */
    control: ControlRepo;
    /**
     * Quota buckets. The adapter decides where they live: per process when one process owns the
     * store (SQLite), shared when replicas share it (src/core/platform/quota/ports.ts).
     */
    quotas: QuotaRepo;
    /** Published identity signing keys (PUT /v1/key, /a/{id}/did.json). */
    identityKeys: IdentityKeyRepo;
    /** Signed confirmations of KB entries (conf1): counted on the entry page. */
    signedConfirms: SignedConfirmRepo;
    /** Swarm subscriptions (cursors), the kv: sink and topic-line retention. */
    swarm: SwarmRepo;
    /** Inbound webhook endpoints (secrets sealed) and their delivery keys (replays, rate). */
    webhooks: WebhookRepo;
    /** Open-data exports: the public rows in pages, and removals as tombstones. */
    exports: ExportRepo<KbEntry, Task, Digest>;
    /** Where the daily exports are written and served from. */
    exportFiles: ExportFiles;
    /** Operator state: announcements, marks, ASN policy, content origin, inbox, demand, tombstones, purge. */
    admin: AdminRepo;
    /** Governance: proposals, support, roadmap, notices and their reports, /llms.txt revisions. */
    gov: GovRepo;
    /** Compute services: names, versions and their KAT gate, L2 ok reports, call records. */
    services: ServiceRepo;
    /** Replicated compute jobs: slots leased by donors, donors' standing, revoked receipts. */
    cjobs: CJobRepo;
    /** Injection-report map: reports (host, payload hash, flags, root, network), disputes. */
    inj: InjRepo;
    /** Registration counts behind the adaptive PoW difficulty, shared by every process on the store. */
    powRates: PowRateRepo;
    /** Named leadership: work that runs on one process at a time among replicas (sweeps). */
    leader: LeaderRepo;
    /** Fingerprints of the secrets every process on the store must share (checked at start). */
    keyPrints: KeyPrintRepo;
    /** The git mirror's history (commits and their packs): every replica rebuilds its repository from it. */
    gitPacks: GitPackRepo;
    /** Milliseconds the serving thread has spent in database calls since the store opened (load shedding reads its rate). */
    busyMs(): number;
    /** Liveness of the backing store (healthz). */
    ping(): Promise<boolean>;
    /** Figures for /metrics: connection pool, WAL files, event-bus lag (each read is cheap). */
    health(): StoreHealth;
    /**
     * PostgreSQL with CX_DATABASE_READ_URL: the repositories an anonymous read-only call reads
     * through (their reads on the standby while it keeps up, their writes on the primary);
     * src/core/platform/standby.ts gives them to such calls. Absent: every call uses the fields above.
     */
    standbyReads?: Pick<Store, 'kb'> & {
      /** The standby as this process sees it now (/metrics, /admin/stats). */
      health(): StandbyHealth;
    };
    close(): Promise<void>;
  }
}
