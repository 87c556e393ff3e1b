// The PostgreSQL adapter (issue 23): the same ports as src/store/sqlite, on a server shared by
// replicas (`pg` Pool) or on PGlite (in-process, for the contract tests). It is being built port
// by port: PG_PORTS lists what is implemented, and openPgStore refuses to open a store that lacks
// any port (one line naming them) unless `allowPartial` is set, which only the contract tests do:
// a half-working store never reaches the service.
import type { PGlite } from '@electric-sql/pglite';
import type { Store } from '../../compose/store.js';
import { limit } from '../../core/kernel/limits.js';
import { pgA2a, pgAgents } from './a2a.js';
import { pgAdmin } from './admin.js';
import { pgAnchors } from './anchors.js';
import { pgBlobs } from './blobs.js';
import { pgCache } from './cache.js';
import { pgCheckpoints } from './checkpoints.js';
import { pgCJobs } from './cjobs.js';
import { pgControl } from './control.js';
import { pgDrops } from './drops.js';
import { pgEvents } from './events.js';
import { pgExportFiles } from './export-files.js';
import { pgExports } from './exports.js';
import { pgGov } from './gov.js';
import { pgIdentities, pgSpentProofs } from './identities.js';
import { tokenMemo } from './token-memo.js';
import { pgIdentityKeys, pgSignedConfirms } from './identity-keys.js';
import { pgInj } from './inj.js';
import { pgJobs } from './jobs.js';
import { kbShared, pgKb } from './kb.js';
import { pgLedger } from './ledger.js';
import { pgMail } from './mail.js';
import { migratePg } from './migrate.js';
import { pgNotes } from './notes.js';
import { pgQuotas } from './quotas.js';
import { pgSaved } from './saved.js';
import { pgServices } from './services.js';
import { pgSpaces } from './spaces.js';
import { pgliteSql, poolSql, type Sql } from './sql.js';
import { standbyReads, type Standby } from './standby.js';
import { pgSwarm } from './swarm.js';
import { pgTasks } from './tasks.js';
import { pgPowRates } from './pow-rates.js';
import { pgLeader } from './leader.js';
import { pgKeyPrints } from './key-prints.js';
import { pgGitPacks } from './git-packs.js';
import { pgWebhooks } from './webhooks.js';

/** Every port of the Store (the fields that are repositories), in the order of src/compose/store.ts. */
export const STORE_PORTS = [
  'identities',
  'proofs',
  'drops',
  'kb',
  'a2a',
  'agents',
  'ledger',
  'tasks',
  'spaces',
  'spaceKb',
  'saved',
  'notes',
  'checkpoints',
  'anchors',
  'cache',
  'blobs',
  'mail',
  'events',
  'jobs',
  'control',
  'quotas',
  'identityKeys',
  'signedConfirms',
  'swarm',
  'webhooks',
  'exports',
  'exportFiles',
  'admin',
  'gov',
  'services',
  'cjobs',
  'inj',
  'powRates',
  'leader',
  'keyPrints',
  'gitPacks',
] as const satisfies readonly (keyof Store)[];
export type StorePort = (typeof STORE_PORTS)[number];

/** The ports this adapter implements so far. */
export const PG_PORTS: readonly StorePort[] = [
  'identities',
  'proofs',
  'quotas',
  'control',
  'events',
  'jobs',
  'ledger',
  'tasks',
  'drops',
  'notes',
  'kb',
  'spaces',
  'spaceKb',
  'identityKeys',
  'signedConfirms',
  'anchors',
  'a2a',
  'agents',
  'saved',
  'checkpoints',
  'cache',
  'swarm',
  'webhooks',
  'exports',
  'exportFiles',
  'gov',
  'services',
  'cjobs',
  'inj',
  'admin',
  'blobs',
  'mail',
  'powRates',
  'leader',
  'keyPrints',
  'gitPacks',
];

/** The ports still missing (issue 23 in progress). */
export const pgMissing = (): StorePort[] => STORE_PORTS.filter((p) => !PG_PORTS.includes(p));

export interface PgStoreOpts {
  /** The clock of time-based ports (event times, job leases); tests move it by hand. */
  now?: () => number;
  /** A schema of its own (created when absent); default the connection's search path (public). */
  schema?: string;
  /** Contract tests only: open with the ports that exist; the others throw when touched. */
  allowPartial?: boolean;
  /** Pool size against a server. */
  max?: number;
  /** Session connections (LISTEN, leadership) to this URL instead of the pool's (behind a transaction pooler). */
  sessionUrl?: string;
  /** Named prepared statements on the pool's connections (default true; false behind a pooler that cannot carry them). */
  prepare?: boolean;
  /** The replica's data directory: operator files each replica reads for itself (asn.csv). */
  dataDir?: string;
  /** Seals A2A push configs at rest (config.workspaceKey, the key file every replica reads); without it they cannot be saved or read. */
  workspaceKey?: Buffer;
  /** A streaming standby of the same database (CX_DATABASE_READ_URL): anonymous KB reads go there while it keeps up (standby.ts). */
  readUrl?: string;
}

export type PgTarget = string | { pglite: PGlite };

/** Opens (and migrates) the store on a PostgreSQL URL or a PGlite instance (which the caller keeps and closes). */
export async function openPgStore(target: PgTarget, opts: PgStoreOpts = {}): Promise<Store> {
  const missing = pgMissing();
  if (missing.length && !opts.allowPartial) throw new Error(`postgres adapter: not yet implemented: ${missing.join(', ')}`);
  const now = opts.now ?? Date.now;
  const sqlOpts = { schema: opts.schema, max: opts.max, waitFloorMs: limit('shed.db_wait'), sessionUrl: opts.sessionUrl, prepare: opts.prepare };
  const sql: Sql = typeof target === 'string' ? await poolSql(target, sqlOpts) : await pgliteSql(target.pglite, sqlOpts);
  try {
    await migratePg(sql);
  } catch (e) {
    await sql.close();
    throw e;
  }
  const events = pgEvents(sql, now);
  const jobs = pgJobs(sql, now);
  const tokens = tokenMemo(sql, now);
  const kb = pgKb(sql, sql, kbShared(sql, tokens.changed));
  const swarm = pgSwarm(sql, now);
  try {
    await events.start();
    await jobs.start();
    await kb.start();
    await tokens.start();
    await swarm.start();
  } catch (e) {
    await events.close().catch(() => undefined);
    await jobs.close().catch(() => undefined);
    await kb.close().catch(() => undefined);
    await tokens.close().catch(() => undefined);
    await swarm.close().catch(() => undefined);
    await sql.close();
    throw e;
  }
  // PGlite has no standby: a read URL applies to a server only.
  let standby: Standby | null = null;
  if (opts.readUrl && typeof target === 'string')
    standby = standbyReads(sql, await poolSql(opts.readUrl, { ...sqlOpts, sessionUrl: undefined, standby: true }));
  const leader = pgLeader(sql, opts.schema ?? '');
  // One adapter holds spaces and their private KB entries (two ports: spaces', and the KB's).
  const spaces = pgSpaces(sql);
  const ports: Partial<Store> = {
    identities: pgIdentities(sql, tokens),
    proofs: pgSpentProofs(sql),
    quotas: pgQuotas(sql),
    control: pgControl(sql),
    events,
    jobs,
    ledger: pgLedger(sql),
    tasks: pgTasks(sql, events),
    drops: pgDrops(sql),
    notes: pgNotes(sql),
    kb,
    spaces,
    spaceKb: spaces,
    identityKeys: pgIdentityKeys(sql),
    signedConfirms: pgSignedConfirms(sql),
    anchors: pgAnchors(sql),
    powRates: pgPowRates(sql),
    leader,
    keyPrints: pgKeyPrints(sql),
    gitPacks: pgGitPacks(sql),
    a2a: pgA2a(sql, opts.workspaceKey ?? null),
    agents: pgAgents(sql),
    saved: pgSaved(sql),
    checkpoints: pgCheckpoints(sql),
    cache: pgCache(sql),
    swarm,
    webhooks: pgWebhooks(sql),
    exports: pgExports(sql),
    exportFiles: pgExportFiles(sql, now),
    gov: pgGov(sql),
    services: pgServices(sql),
    cjobs: pgCJobs(sql),
    inj: pgInj(sql),
    admin: pgAdmin(sql, events, opts.dataDir, now, () => kb.changed(), tokens.changed),
    blobs: pgBlobs(sql),
    mail: pgMail(sql),
  };
  const store = {
    ...ports,
    busyMs: () => sql.busyMs(),
    health: () => ({ pool: sql.poolStats(), busLagMs: events.takeLag() }),
    ...(standby ? { standbyReads: { kb: kb.reading(standby.sql), health: standby.health } } : {}),
    async ping() {
      return (await sql.query<{ ok: number }>('SELECT 1 AS ok')).rows[0]?.ok === 1;
    },
    async close() {
      await leader.close();
      await events.close();
      await jobs.close();
      await kb.close();
      await tokens.close();
      await swarm.close();
      // Lookup counts still in memory are written before the connection goes.
      await kb.flush();
      await standby?.close();
      await sql.close();
    },
  } as Store;
  // Partial (tests only): a missing port is a getter that says so, not a field that looks present.
  for (const p of missing)
    Object.defineProperty(store, p, {
      enumerable: false,
      get() {
        throw new Error(`postgres adapter: not yet implemented: ${p}`);
      },
    });
  return store;
}
