// The SQLite adapter: one database file under the data directory (commons.db), and the KB lookup
// counts in a second one (kb-hits.db, attached; see attachHits).
import { join } from 'node:path';
import { statSync } from 'node:fs';
import { workspaceKeyOf } from '../../config.js';
import { limit } from '../../core/kernel/limits.js';
import type { Store } from '../../compose/store.js';
import { boundWal, startBackground } from './background.js';
import { attachHits, openDb, timeStatements } from './db.js';
import { sqliteDrops } from './drops.js';
import { sqliteEvents } from './events.js';
import { sqliteJobs } from './jobs.js';
import { sqliteIdentities, sqliteSpentProofs } from './identities.js';
import { sqliteKb } from './kb.js';
import { sqliteA2a, sqliteAgents } from './a2a.js';
import { sqliteLedger } from './ledger.js';
import { sqliteTasks } from './tasks.js';
import { sqliteSpaces } from './spaces.js';
import { sqliteSaved } from './saved.js';
import { sqliteWorkspace } from './workspace.js';
import { sqliteControl } from './control.js';
import { sqliteIdentityKeys, sqliteSignedConfirms } from './identity-keys.js';
import { sqliteSwarm } from './swarm.js';
import { sqliteWebhooks } from './webhooks.js';
import { sqliteGov } from './gov.js';
import { sqliteServices } from './services.js';
import { sqliteCJobs } from './cjobs.js';
import { MemoryQuotaRepo } from '../../core/platform/quota/memory.js';
import { sqliteExports } from './exports.js';
import { fileExports } from '../files/exports.js';
import { sqliteAdmin } from './admin.js';
import { sqliteInj } from './inj.js';
import { sqlitePowRates } from './pow-rates.js';
import { sqliteKeyPrints } from './key-prints.js';
import { sqliteGitPacks } from './git-packs.js';
import { sqliteLeader } from './leader.js';

/**
 * `workspaceKey` seals A2A push configs at rest; without it (tools, tests) the data directory's
 * workspace.key is read, or made, exactly as the config does, so the server reads the same rows.
 */
/** `opts.now`: the clock of time-based ports (event retention, job leases); tests move it by hand. */
/** Size of a database's write-ahead log (0 when there is none, e.g. after a clean close). */
function walBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

export function openSqliteStore(
  dataDir: string,
  sync: 'normal' | 'full' = 'normal',
  workspaceKey?: Buffer,
  opts: { now?: () => number } = {},
): Store & { file: string } {
  const now = opts.now ?? Date.now;
  const master = workspaceKey ?? workspaceKeyOf(dataDir);
  const file = join(dataDir, 'commons.db');
  const db = openDb(file, sync);
  const hitsFile = join(dataDir, 'kb-hits.db');
  attachHits(db, hitsFile);
  // Time in database calls on this thread (load shedding: src/core/platform/control/pressure.ts).
  const busy = timeStatements(db);
  // Checkpoints run in a worker; the serving connection keeps only a far backstop (400 MB of WAL)
  // and truncates the WAL when it passes store.wal_max (boundWal in background.ts).
  db.pragma('wal_autocheckpoint = 100000');
  const background = startBackground(file, hitsFile, 1000, limit('store.wal_max'));
  const stopWalBound = boundWal(db, file, limit('store.wal_max'));
  const ping = db.prepare('SELECT 1 AS ok');
  const kb = sqliteKb(db, background);
  const events = sqliteEvents(db, now);
  const jobs = sqliteJobs(db, now);
  // One adapter holds spaces and their private KB entries (two ports: spaces', and the KB's).
  const spaces = sqliteSpaces(db);
  return {
    file,
    identities: sqliteIdentities(db),
    proofs: sqliteSpentProofs(db),
    drops: sqliteDrops(db),
    kb,
    a2a: sqliteA2a(db, master),
    agents: sqliteAgents(db),
    ledger: sqliteLedger(db),
    tasks: sqliteTasks(db, events),
    spaces,
    spaceKb: spaces,
    saved: sqliteSaved(db),
    ...sqliteWorkspace(db),
    events,
    jobs,
    control: sqliteControl(db),
    identityKeys: sqliteIdentityKeys(db),
    signedConfirms: sqliteSignedConfirms(db),
    swarm: sqliteSwarm(db),
    webhooks: sqliteWebhooks(db),
    exports: sqliteExports(db),
    exportFiles: fileExports(join(dataDir, 'export')),
    admin: sqliteAdmin(db, events, dataDir, now, () => kb.changed()),
    gov: sqliteGov(db),
    services: sqliteServices(db),
    cjobs: sqliteCJobs(db),
    inj: sqliteInj(db),
    powRates: sqlitePowRates(db),
    leader: sqliteLeader(),
    keyPrints: sqliteKeyPrints(db),
    gitPacks: sqliteGitPacks(db),
    busyMs: () => busy.ms,
    health: () => ({ wal: { 'commons.db': walBytes(file), 'kb-hits.db': walBytes(hitsFile) }, busLagMs: events.takeLag() }),
    // One process owns the database file and sees every request: its buckets can stay in memory.
    quotas: new MemoryQuotaRepo(),
    async ping() {
      return (ping.get() as { ok: number }).ok === 1;
    },
    async close() {
      events.close();
      jobs.close();
      kb.flush();
      stopWalBound();
      await background.stop();
      if (db.open) {
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
      }
    },
  };
}
