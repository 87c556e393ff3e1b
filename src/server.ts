// Composition root: config → store → core → faces → listen. Also used by tests (startServer).
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { buildCatalogApp } from './catalog/app.js';
import { type Config, loadConfig } from './config.js';
import { buildCore } from './compose/core.js';
import { startMirrorJob } from './core/gitmirror/job.js';
import { GitMirror } from './core/gitmirror/mirror.js';
import { OPS } from './compose/registry.js';
import { initModules, startModules } from './compose/lifecycle.js';
import type { Core } from './core/kernel/types.js';
import { buildApp } from './app.js';
import { checkKeyPrints } from './core/platform/secrets/prints.js';
import { logFormatFor, prettyStream } from './http/log-format.js';
import { gitMirrorRepo } from './store/git/repo.js';
import { openSqliteStore } from './store/sqlite/index.js';
import { openPgStore } from './store/pg/index.js';
import type { Store } from './compose/store.js';
import { join } from 'node:path';
import { limit } from './core/kernel/limits.js';
import { defaultRunner } from './wasm/index.js';
import { closeNow, listenMetrics, listenWhileStarting } from './http/side-listeners.js';
import { METRICS_CONTENT_TYPE, renderMetrics } from './core/platform/metrics/metrics.js';
import type { Server } from 'node:http';

export interface Running {
  core: Core;
  app: FastifyInstance;
  catalog: FastifyInstance;
  url: string;
  catalogUrl: string;
  /** The CX_METRICS_ADDR listener's /metrics, when configured. */
  metricsUrl: string | null;
  /** SIGTERM: /readyz answers 503 for `unreadyMs` while requests are still served, then close(). */
  drain(unreadyMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * `opts.now`: the core's clock (tests move it to pass windows such as pow.window); default Date.now.
 * `opts.store`: a store opened by the caller (closed with the server); default the config's engine.
 */
export async function startServer(config: Config, opts: { logger?: boolean; now?: () => number; store?: Store } = {}): Promise<Running> {
  const logger = opts.logger ?? true;
  // CX_LOG (src/http/log-format.ts): the core's messages take the same form as the request lines.
  const pretty = logFormatFor(config.logFormat) === 'pretty';
  const log = logger ? (pretty ? pino({ level: config.logLevel }, prettyStream()) : pino({ level: config.logLevel })) : pino({ enabled: false });
  // On a fixed port, the port answers "starting" (readiness 503) while the store opens and runs its
  // migrations (PostgreSQL: possibly waiting for another replica's) and the start-up work below.
  // On port 0 (tests) nothing could know the port yet, so there is none.
  const starting = config.port ? await listenWhileStarting(config.port, config.host) : null;
  let store: Store;
  try {
    store = opts.store ?? (await openStore(config));
  } catch (e) {
    if (starting) await closeNow(starting);
    throw e;
  }
  // Keys that differ from the ones recorded in the store stop the start here (one line), before any
  // request is answered with them.
  try {
    await checkKeyPrints(store.keyPrints, config, Date.now());
  } catch (err) {
    if (starting) await closeNow(starting);
    if (!opts.store) await store.close();
    throw err;
  }
  // The plugin runner (worker threads, started on demand) and the KAT job worker.
  const runner = defaultRunner();
  const core = buildCore(config, store, log, opts.now ? { now: opts.now, random: randomBytes } : undefined, runner);
  // Each module's start-up work in list order, then its subscriptions and background work (src/compose/lifecycle.ts).
  await initModules(core);
  const stopModules = startModules(core);
  // The git mirror of the KB (<data>/git): served once its first commit exists; without git (or
  // with CX_GIT_MIRROR=0) its routes answer 503 and the rest of the service runs.
  let stopMirror = async (): Promise<void> => undefined;
  if (config.gitMirror) {
    const mirror = new GitMirror(core, gitMirrorRepo(join(config.dataDir, 'git')));
    core.mirror = mirror;
    if (await mirror.init()) stopMirror = startMirrorJob(core, mirror);
    else log.warn('git did not run: the git mirror is off');
  }
  const app = await buildApp(core, OPS, { logger });
  const catalog = await buildCatalogApp({
    config: config.catalog,
    dataDir: config.dataDir,
    sync: config.sync,
    trustProxy: config.trustProxy,
    opsTokens: [config.operatorTokens.admin, config.operatorTokens.ops],
    logger: logger ? { level: config.logLevel, ...(pretty ? { stream: prettyStream() } : {}) } : false,
    prettyLog: pretty,
  });
  if (starting) await closeNow(starting);
  const addr = await app.listen({ port: config.port, host: config.host });
  const caddr = await catalog.listen({ port: config.catalogPort, host: config.host });
  let metrics: Server | null = null;
  if (config.metricsAddr) metrics = await listenMetrics(config.metricsAddr.port, config.metricsAddr.host, () => renderMetrics(core), METRICS_CONTENT_TYPE);
  const maddr = metrics?.address();
  core.ready.ready();
  let closed = false;
  const local = (a: string) => a.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
  const running: Running = {
    core,
    app,
    catalog,
    url: local(addr),
    catalogUrl: local(caddr),
    metricsUrl:
      maddr && typeof maddr === 'object' ? `http://${local(maddr.family === 'IPv6' ? `[${maddr.address}]` : maddr.address)}:${maddr.port}/metrics` : null,
    async drain(unreadyMs) {
      core.ready.drain();
      await new Promise((r) => setTimeout(r, unreadyMs));
      await running.close();
    },
    async close() {
      if (closed) return;
      closed = true;
      core.ready.drain();
      if (metrics) await closeNow(metrics);
      // fastify.close stops accepting and waits for in-flight requests; then the modules' work, newest first.
      await Promise.all([app.close(), catalog.close()]);
      await stopModules();
      await stopMirror();
      await runner.close();
      await store.close();
    },
  };
  return running;
}

/**
 * The engine: PostgreSQL when CX_DATABASE_URL is set (shared by every replica started with it),
 * otherwise SQLite under the data directory (one process). A server that cannot be reached, or a
 * store that cannot open, is one line (main prints it and exits 1).
 */
export async function openStore(config: Config): Promise<Store> {
  if (!config.databaseUrl) return openSqliteStore(config.dataDir, config.sync, config.workspaceKey);
  return openPgStore(config.databaseUrl, {
    max: config.databasePool,
    sessionUrl: config.databaseSessionUrl ?? undefined,
    readUrl: config.databaseReadUrl ?? undefined,
    prepare: config.databasePrepare,
    workspaceKey: config.workspaceKey,
    dataDir: config.dataDir,
  });
}

async function main(): Promise<void> {
  const config = loadConfig();
  const running = await startServer(config);
  const log = running.core.log;
  if (config.operatorTokenFile) log.info({ file: config.operatorTokenFile }, `operator tokens generated; kept (0600) in ${config.operatorTokenFile}`);
  log.info({ url: running.url, catalog: running.catalogUrl, data: config.dataDir, base: config.baseUrl }, 'agent commons listening');
  let stopping = false;
  const stop = (sig: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ sig }, 'shutting down');
    // Readiness goes false first, so a balancer moves traffic away before the listener closes.
    running.drain(sig === 'SIGTERM' ? limit('shutdown.unready') : 0).then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(`agent commons failed to start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
