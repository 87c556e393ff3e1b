// /metrics in the Prometheus text format (prom-client). One registry per core (tests run several
// servers in one process). Per-request series come from RequestMetrics (requests.ts); the rest is
// read when scraped: the process (event-loop lag, heap: prom-client's default metrics), the control
// state (shed level, frozen kinds), the job queues, the event bus, the store (pool, WAL), the git
// mirror and the open-data export. Labels are operation names, faces, codes, queue kinds, freeze
// kinds: fixed sets, never a path or an id.
import client from 'prom-client';
import { FREEZE_KINDS } from '../../kernel/kinds.js';
import type { Core } from '../../kernel/types.js';
import { LATENCY_BOUNDS } from './requests.js';

export const METRICS_CONTENT_TYPE: string = client.Registry.PROMETHEUS_CONTENT_TYPE;

const built = new WeakMap<Core, () => Promise<string>>();

/**
 * The exposition text of a core's metrics; one failing source leaves its series out, not the
 * scrape. The registry is built at the first scrape (scripts and servers never scraped pay nothing).
 */
export function renderMetrics(core: Core): Promise<string> {
  let r = built.get(core);
  if (!r) built.set(core, (r = buildMetrics(core)));
  return r();
}

type Sample = { labels?: Record<string, string | number>; value: number; metricName?: string };

/** A metric prom-client's registry prints from our own figures (it reads name, help, type and get()). */
function custom(name: string, help: string, type: 'counter' | 'histogram', values: () => Sample[]): client.Metric {
  return { name, help, type, get: async () => ({ name, help, type, values: values(), aggregator: 'sum' }) } as unknown as client.Metric;
}

function buildMetrics(core: Core): () => Promise<string> {
  const register = new client.Registry();
  const requests = core.requests;
  // Event-loop lag (nodejs_eventloop_lag_*), heap (nodejs_heap_*), GC, handles, process CPU and memory.
  client.collectDefaultMetrics({ register, eventLoopMonitoringPrecision: 20 });
  const safe = async (what: () => Promise<void> | void): Promise<void> => {
    try {
      await what();
    } catch {
      /* a source that cannot be read now (database down) leaves its series out of this scrape */
    }
  };

  register.registerMetric(
    custom('cx_requests_total', 'Operation calls by operation, face and outcome code (ok or the err code).', 'counter', () => {
      const out: Sample[] = [];
      for (const s of requests.series()) for (const [code, n] of s.codes) out.push({ labels: { op: s.op, face: s.face, code }, value: n });
      return out;
    }),
  );
  register.registerMetric(
    custom(
      'cx_request_duration_seconds',
      'Operation latency (guards and run; streams until their first item is ready) by operation and face.',
      'histogram',
      () => {
        const out: Sample[] = [];
        for (const s of requests.series()) {
          const labels = { op: s.op, face: s.face };
          let acc = 0;
          for (let i = 0; i < LATENCY_BOUNDS.length; i++) {
            acc += s.buckets[i]!;
            out.push({ metricName: 'cx_request_duration_seconds_bucket', labels: { ...labels, le: LATENCY_BOUNDS[i]! }, value: acc });
          }
          out.push({ metricName: 'cx_request_duration_seconds_bucket', labels: { ...labels, le: '+Inf' }, value: s.count });
          out.push({ metricName: 'cx_request_duration_seconds_sum', labels, value: s.sum });
          out.push({ metricName: 'cx_request_duration_seconds_count', labels, value: s.count });
        }
        return out;
      },
    ),
  );

  const gauge = (name: string, help: string, labelNames: string[], collect: (g: client.Gauge) => Promise<void> | void) =>
    new client.Gauge({
      name,
      help,
      labelNames,
      registers: [register],
      async collect() {
        this.reset();
        await safe(() => collect(this));
      },
    });

  gauge('cx_ready', '1 when this process takes requests (GET /readyz): started, not draining, database answering.', [], async (g) => {
    g.set(core.ready.phase === 'ready' && (await core.store.ping().catch(() => false)) ? 1 : 0);
  });
  gauge('cx_shed_level', "Effective load-shedding level 0-3 (the larger of the operator's and the measured one).", [], async (g) => {
    g.set((await core.control.status()).shed);
  });
  gauge('cx_frozen', '1 for each frozen kind (all = every kind).', ['kind'], async (g) => {
    const frozen = new Set((await core.control.status()).frozen);
    for (const kind of ['all', ...Object.keys(FREEZE_KINDS)]) g.set({ kind }, frozen.has(kind) ? 1 : 0);
  });
  gauge('cx_maintenance', '1 while a maintenance window stops writes.', [], async (g) => {
    g.set((await core.control.status()).maintenanceUntil ? 1 : 0);
  });
  gauge(
    'cx_job_queue_depth',
    'Jobs by queue kind (the queue name up to its first colon) and state (ready, delayed, leased, dead).',
    ['kind', 'state'],
    async (g) => {
      for (const k of await overview()) for (const state of ['ready', 'delayed', 'leased', 'dead'] as const) g.set({ kind: k.kind, state }, k[state]);
    },
  );
  gauge('cx_job_queue_oldest_ready_seconds', 'How long the oldest ready job of each queue kind has been due (0: none waiting).', ['kind'], async (g) => {
    const now = core.now();
    for (const k of await overview()) g.set({ kind: k.kind }, k.oldestReadyAt === null ? 0 : Math.max(0, now - k.oldestReadyAt) / 1000);
  });
  gauge('cx_event_bus_lag_seconds', "Largest delay from an event's commit to its live delivery in this process since the previous scrape.", [], (g) => {
    g.set(lastHealth().busLagMs / 1000);
  });
  gauge('cx_db_pool_connections', 'PostgreSQL pool: connections by state (in_use, idle) and its size (max).', ['state'], (g) => {
    const p = lastHealth().pool;
    if (!p) return;
    g.set({ state: 'in_use' }, p.total - p.idle);
    g.set({ state: 'idle' }, p.idle);
    g.set({ state: 'max' }, p.max);
  });
  gauge('cx_db_pool_waiting', 'PostgreSQL pool: calls waiting for a connection now.', [], (g) => {
    const p = lastHealth().pool;
    if (p) g.set(p.waiting);
  });
  register.registerMetric(
    custom('cx_db_pool_slow_waits_total', 'PostgreSQL pool: calls that waited for a connection longer than shed.db_wait.', 'counter', () => {
      const p = lastHealth().pool;
      return p ? [{ value: p.slowWaits }] : [];
    }),
  );
  // A read standby (CX_DATABASE_READ_URL, src/store/pg/standby.ts): absent without one.
  gauge('cx_db_standby_lag_seconds', 'Read standby: its replication lag at the last probe (absent while unknown: down, or never probed).', [], (g) => {
    const lag = core.store.standbyReads?.health().lagMs;
    if (lag !== undefined && lag !== null) g.set(lag / 1000);
  });
  gauge(
    'cx_db_standby_up',
    'Read standby: 1 while anonymous KB reads go to it, 0 while they go to the primary (down, or lagging past db.standby_lag).',
    [],
    (g) => {
      const st = core.store.standbyReads?.health();
      if (st) g.set(st.state === 'ok' ? 1 : 0);
    },
  );
  register.registerMetric(
    custom(
      'cx_db_standby_reads_total',
      'Read statements of anonymous read-only calls (KB, search, pages, feeds), by the server that answered them.',
      'counter',
      () => {
        const st = core.store.standbyReads?.health();
        return st
          ? [
              { labels: { server: 'standby' }, value: st.reads.standby },
              { labels: { server: 'primary' }, value: st.reads.primary },
            ]
          : [];
      },
    ),
  );
  register.registerMetric(
    custom(
      'cx_db_busy_seconds_total',
      'Time the serving thread spent in database calls (SQLite) or waiting for a pooled connection beyond shed.db_wait (PostgreSQL).',
      'counter',
      () => [{ value: core.store.busyMs() / 1000 }],
    ),
  );
  gauge('cx_sqlite_wal_bytes', "SQLite: size of each database file's write-ahead log.", ['db'], (g) => {
    for (const [db, bytes] of Object.entries(lastHealth().wal ?? {})) g.set({ db }, bytes);
  });
  gauge('cx_git_mirror_age_seconds', "Age of the git mirror's head commit (absent while the mirror is off or empty).", [], (g) => {
    const t = core.mirror?.headTime() ?? null;
    if (t !== null) g.set(Math.max(0, core.now() - t) / 1000);
  });
  gauge('cx_export_age_seconds', 'Age of the newest open-data export (absent while there is none).', [], async (g) => {
    const at = await core.newestExportAt();
    if (at !== null) g.set(Math.max(0, core.now() - at) / 1000);
  });

  // The store's figures are read once per scrape (the bus lag is a maximum since the last read).
  let health: ReturnType<Core['store']['health']> | null = null;
  const lastHealth = () => (health ??= core.store.health());
  let queues: ReturnType<Core['store']['jobs']['overview']> | null = null;
  const overview = () => (queues ??= core.store.jobs.overview());
  return () => {
    health = null;
    queues = null;
    return register.metrics();
  };
}
