// The connection layer of the PostgreSQL adapter: one small query interface over a `pg` Pool (a
// server, shared by replicas) or a PGlite instance (in-process PostgreSQL, for the contract tests),
// so the repositories are written once against `Q` and run on either.
//
// Rows come back with int8 (bigint: epoch-ms times, counts) as JS numbers: every such value the
// ports carry is below 2^53. numeric is never used by the schema (it would come back as a string).
import type { PGlite, Transaction } from '@electric-sql/pglite';
import pg from 'pg';

/** What a repository needs: a parameterized statement, its rows and how many it touched. */
export interface Q {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: R[]; count: number }>;
  /** Several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
}

export interface Sql extends Q {
  /** Runs `fn` in one transaction on one connection (READ COMMITTED); rolls back when it throws. */
  tx<T>(fn: (q: Q) => Promise<T>): Promise<T>;
  /**
   * For load shedding (db_busy in src/http/pressure.ts, read as a share of each second). A server:
   * calls do not block the serving thread (their client-side cost shows in the event loop), so what
   * counts is the pool's queue: each call's wait for a connection beyond `waitFloorMs`, summed. A
   * healthy server under many concurrent requests adds nothing; a pool queueing for a slow or
   * overloaded server adds its lateness. PGlite (one session): the wall time of calls.
   */
  busyMs(): number;
  /** Statements sent so far (and how many of them as named prepared statements): what a request costs the server. */
  counts(): { statements: number; prepared: number };
  /** The pool's connections for /metrics (PGlite: one session, never waited for). */
  poolStats(): { max: number; total: number; idle: number; waiting: number; slowWaits: number };
  /**
   * LISTENs on `channel` (suffixed with the schema, so stores on different schemas do not hear each
   * other) on the store's session connection (one per store, outside the pool, shared with
   * `dedicated`). `onLost` is called after the connection was lost and came back: notifications
   * sent meanwhile are gone, the caller re-reads what it follows.
   */
  listen(channel: string, fn: (payload: string) => void, onLost: () => void): Promise<() => Promise<void>>;
  /** Sends a notification (its own tiny transaction: call it after the write committed). */
  notify(channel: string, payload: string): Promise<void>;
  /**
   * The store's session connection (outside the pool, shared with `listen`), for session state
   * (advisory locks). `onLost` is called once if it drops (the server ends the session, and with
   * it what the session held); `close` lets go of every advisory lock the session holds.
   */
  dedicated(onLost: () => void): Promise<Dedicated>;
  close(): Promise<void>;
}

export interface Dedicated {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: R[] }>;
  close(): Promise<void>;
}

const INT8 = 20;
const BYTEA = 17;
const toNumber = (v: string) => Number(v);
/** bytea in text form (`\\x0a1b...`) as a Buffer, which `pg` gives too (PGlite would give a Uint8Array). */
const toBuffer = (v: string) => Buffer.from(v.slice(2), 'hex');

/** `schema`: a schema of its own (created when absent), set as the search path of every connection. */
export interface SqlOpts {
  schema?: string;
  /** Pool size for a server (replicas x max must stay under max_connections, or use a pooler). */
  max?: number;
  /** busyMs counts each call's wait for a pooled connection beyond this (default 100 ms). */
  waitFloorMs?: number;
  /**
   * Where the session connections go (LISTEN, advisory locks: they need a session of their own);
   * default `url`. Lets `url` point at a transaction-pooling PgBouncer and this at the server.
   */
  sessionUrl?: string;
  /**
   * Named prepared statements (default true): each distinct statement text is parsed and planned
   * once per connection, then only bound and executed. Off for a pooler that cannot carry them
   * (PgBouncer before 1.21, or without max_prepared_statements, in transaction mode).
   */
  prepare?: boolean;
  /**
   * A hot standby (CX_DATABASE_READ_URL): read-only, so no schema is created (the primary's is
   * replicated), and it may be down at open (reads then go to the primary: standby.ts); a
   * connection attempt gives up after 2 s.
   */
  standby?: boolean;
}

/**
 * Statement texts given a name per process; beyond it, texts are sent unnamed. Every text of the
 * adapter is a constant (a few hundred), so this only guards against a text built from data, whose
 * every variant would otherwise stay prepared on every connection.
 */
const PREPARED_MAX = 2000;

const checkSchema = (s: string): string => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(s)) throw new Error(`postgres adapter: bad schema name ${JSON.stringify(s)}`);
  return s;
};

function timed(busy: { ms: number }) {
  return async <T>(f: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await f();
    } finally {
      busy.ms += performance.now() - t;
    }
  };
}

/** `host:port/database` of a URL, without its credentials (for messages). */
export function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname.length > 1 ? u.pathname : ''}`;
  } catch {
    return 'the database';
  }
}

/** A connection error in a few words (Node gives an AggregateError with an empty message when every address refused). */
function why(e: unknown): string {
  const err = e as { code?: string; message?: string; errors?: Array<{ code?: string; message?: string }> };
  const inner = err.errors?.[0];
  const msg = err.message || inner?.message || '';
  const code = err.code ?? inner?.code;
  return (code && !msg.includes(code) ? `${code} ${msg}` : msg || code || String(e)).trim().split('\n')[0]!;
}

/** A `pg` Pool on `url`. */
export async function poolSql(url: string, opts: SqlOpts = {}): Promise<Sql> {
  const sessionUrl = opts.sessionUrl ?? url;
  const schema = opts.schema === undefined ? undefined : checkSchema(opts.schema);
  const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === INT8 ? toNumber : pg.types.getTypeParser(oid, format as 'text')) };
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    types: types as pg.CustomTypesConfig,
    ...(opts.standby ? { connectionTimeoutMillis: 2000 } : {}),
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const prepare = opts.prepare ?? true;
  const names = new Map<string, string>();
  const counts = { statements: 0, prepared: 0 };
  /** The query config of a statement: named (prepared once per connection by `pg`) or not. */
  const config = (text: string, params: readonly unknown[]): pg.QueryConfig => {
    counts.statements++;
    let name = prepare ? names.get(text) : undefined;
    if (prepare && name === undefined && names.size < PREPARED_MAX) names.set(text, (name = `cx${names.size}`));
    if (name !== undefined) counts.prepared++;
    return { name, text, values: params as unknown[] };
  };
  // Every call takes a pooled connection here (as pool.query would), so its wait is known.
  const busy = { ms: 0, slow: 0 };
  const floor = opts.waitFloorMs ?? 100;
  // pg-pool listens for errors of idle clients only: a backend that goes away while its client is
  // checked out (server restart, pg_terminate_backend) would emit an unhandled 'error' and end the
  // process. The call in flight fails on its own (and drops the client: `broken`); this keeps the rest.
  const guarded = new WeakSet<pg.PoolClient>();
  const acquire = async (): Promise<pg.PoolClient> => {
    const t = performance.now();
    const c = await pool.connect();
    if (!guarded.has(c)) {
      guarded.add(c);
      c.on('error', () => undefined);
    }
    const waited = performance.now() - t;
    if (waited > floor) {
      busy.ms += waited - floor;
      busy.slow++;
    }
    return c;
  };
  /**
   * A prepared statement whose result columns changed under it (a migration by a newer replica
   * altered a table): the server refuses it once per connection ("cached plan must not change
   * result type"). Outside a transaction the statement is re-run on a fresh connection.
   */
  const stale = (e: unknown) => prepare && (e as { code?: string }).code === '0A000' && /cached plan/.test(String((e as Error).message));
  /** A connection that failed (no SQLSTATE: not an error the server answered) is dropped from the pool. */
  const broken = (e: unknown) => (e instanceof Error && !/^[0-9A-Z]{5}$/.test(String((e as { code?: unknown }).code)) ? e : undefined);
  const pooled = async <T>(f: (c: pg.PoolClient) => Promise<T>): Promise<T> => {
    const c = await acquire();
    try {
      const out = await f(c);
      c.release();
      return out;
    } catch (e) {
      c.release(broken(e) ?? (stale(e) ? (e as Error) : undefined));
      throw e;
    }
  };
  const on = (c: pg.PoolClient | null): Q => ({
    async query<R>(text: string, params: readonly unknown[] = []) {
      let r: pg.QueryResult;
      if (c) r = await c.query(config(text, params));
      else
        try {
          r = await pooled((p) => p.query(config(text, params)));
        } catch (e) {
          if (!stale(e)) throw e;
          r = await pooled((p) => p.query(config(text, params)));
        }
      return { rows: r.rows as R[], count: r.rowCount ?? 0 };
    },
    async exec(text) {
      counts.statements++;
      if (c) await c.query(text);
      else await pooled((p) => p.query(text));
    },
  });
  // The first connection says at once, in one line, when the server cannot be reached or refuses us.
  // (A probe of its own: a pool's connect would wait for ever on a host that drops packets.)
  // (Not for a standby: one that cannot be reached is measured as down, standby.ts.)
  if (!opts.standby) {
    const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.end();
    } catch (e) {
      await probe.end().catch(() => undefined);
      await pool.end().catch(() => undefined);
      throw new Error(`postgres adapter: cannot connect to ${where(url)}: ${why(e)}`);
    }
  }
  // CREATE SCHEMA IF NOT EXISTS is not safe against itself: two replicas starting at once can both
  // pass the check and one fails on the catalog's unique key. A database-wide advisory lock orders them.
  if (schema && !opts.standby) {
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      await c.query("SELECT pg_advisory_xact_lock(hashtext('cx.schema'))");
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      c.release();
      await pool.end();
      throw e;
    }
    c.release();
  }
  const chan = (c: string) => (schema ? `${c}_${schema}` : c);

  // One session connection per store (issue 38; three before): every LISTEN channel and the
  // session state of `dedicated` holders (the leadership's advisory locks) share it. Lost, it is
  // re-made with backoff while anyone listens: channels are listened to again and told (`onLost`),
  // holders are told at once (their session state is gone) and open it again when they next need it.
  const listeners = new Map<string, { fn: (payload: string) => void; onLost: () => void }>();
  const holders = new Set<() => void>();
  let current: pg.Client | null = null;
  let opening: Promise<pg.Client> | null = null;
  let closed = false;
  let wait = 100;
  const session = (): Promise<pg.Client> => {
    if (current) return Promise.resolve(current);
    opening ??= (async () => {
      if (closed) throw new Error('postgres adapter: store closed');
      // keepAlive: a peer that vanished is noticed by TCP, not only by the next query.
      const c = new pg.Client({
        connectionString: sessionUrl,
        keepAlive: true,
        connectionTimeoutMillis: 10_000,
        application_name: `cx session ${schema ?? ''}`.trim(),
      });
      c.on('notification', (m) => listeners.get(m.channel)?.fn(m.payload ?? ''));
      c.on('error', () => undefined);
      c.on('end', () => lost(c));
      try {
        await c.connect();
        for (const ch of listeners.keys()) await c.query(`LISTEN "${ch}"`);
      } catch (e) {
        await c.end().catch(() => undefined);
        throw e;
      }
      if (closed) {
        await c.end().catch(() => undefined);
        throw new Error('postgres adapter: store closed');
      }
      current = c;
      return c;
    })().finally(() => {
      opening = null;
    });
    return opening;
  };
  const lost = (c: pg.Client) => {
    if (current !== c) return;
    current = null;
    for (const lose of [...holders]) lose();
    holders.clear();
    if (!closed && listeners.size) setTimeout(again, wait).unref();
  };
  const again = () => {
    if (closed || !listeners.size) return;
    session().then(
      () => {
        wait = 100;
        // Notifications sent while it was down are gone: each listener re-reads what it follows.
        for (const l of [...listeners.values()]) l.onLost();
      },
      () => {
        wait = Math.min(wait * 2, 5000);
        setTimeout(again, wait).unref();
      },
    );
  };
  /** Nobody needs the session any more: it ends. */
  const idle = () => {
    if (listeners.size || holders.size || !current) return;
    const c = current;
    current = null;
    void c.end().catch(() => undefined);
  };
  return {
    ...on(null),
    async notify(channel, payload) {
      await pooled((p) => p.query(config('SELECT pg_notify($1, $2)', [chan(channel), payload])));
    },
    async listen(channel, fn, onLost) {
      const ch = chan(channel);
      listeners.set(ch, { fn, onLost });
      try {
        // LISTEN twice is harmless: a connection opened meanwhile already listens to it.
        await (await session()).query(`LISTEN "${ch}"`);
      } catch {
        listeners.delete(ch);
        idle();
        throw new Error(`postgres adapter: cannot LISTEN on ${ch}`);
      }
      return async () => {
        if (!listeners.delete(ch)) return;
        await current?.query(`UNLISTEN "${ch}"`).catch(() => undefined);
        idle();
      };
    },
    async dedicated(onLost) {
      const c = await session();
      let done = false;
      const lose = () => {
        if (done) return;
        done = true;
        onLost();
      };
      holders.add(lose);
      return {
        async query<R>(text: string, params: readonly unknown[] = []) {
          if (done) throw new Error('postgres adapter: session lost');
          return { rows: (await c.query(text, params as unknown[])).rows as R[] };
        },
        async close() {
          if (done) return;
          done = true;
          holders.delete(lose);
          // What this holder took on the session goes with it (the session itself may stay, for LISTEN).
          if (current === c) await c.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
          idle();
        },
      };
    },
    async tx(fn) {
      const c = await acquire();
      try {
        counts.statements += 2;
        await c.query('BEGIN');
        const out = await fn(on(c));
        await c.query('COMMIT');
        c.release();
        return out;
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        c.release(broken(e) ?? (stale(e) ? (e as Error) : undefined));
        throw e;
      }
    },
    busyMs: () => busy.ms,
    counts: () => ({ ...counts }),
    poolStats: () => ({ max: opts.max ?? 10, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, slowWaits: busy.slow }),
    async close() {
      if (closed) return;
      closed = true;
      const c = current;
      current = null;
      await c?.end().catch(() => undefined);
      await pool.end();
    },
  };
}

/** A PGlite instance (one session: its queries and transactions run one at a time). Not closed by `close`: the caller owns it. */
export async function pgliteSql(db: PGlite, opts: SqlOpts = {}): Promise<Sql> {
  const busy = { ms: 0 };
  // In process: no wire protocol, nothing prepared; counted for the same tests.
  const counts = { statements: 0, prepared: 0 };
  const time = timed(busy);
  const options = { parsers: { [INT8]: toNumber, [BYTEA]: toBuffer } };
  const on = (c: PGlite | Transaction): Q => ({
    async query<R>(text: string, params: readonly unknown[] = []) {
      counts.statements++;
      const r = await time(() => c.query<R>(text, params as unknown[], options));
      return { rows: r.rows, count: r.affectedRows ?? 0 };
    },
    async exec(text) {
      await time(() => c.exec(text, options));
    },
  });
  if (opts.schema) {
    const s = checkSchema(opts.schema);
    await db.exec(`CREATE SCHEMA IF NOT EXISTS ${s}; SET search_path TO ${s}`);
  }
  let closed = false;
  const live = <T>(f: () => Promise<T>): Promise<T> => (closed ? Promise.reject(new Error('postgres adapter: store closed')) : f());
  const base = on(db);
  const chan = (c: string) => (opts.schema ? `${c}_${opts.schema}` : c);
  return {
    notify: (channel, payload) => live(() => base.query('SELECT pg_notify($1, $2)', [chan(channel), payload]).then(() => undefined)),
    async listen(channel, fn) {
      // One instance in this process: no connection to lose.
      const off = await db.listen(chan(channel), fn);
      return () => off();
    },
    // One session in this process: the store's own (an advisory lock taken here is re-entrant).
    async dedicated() {
      return { query: (text, params) => live(() => base.query(text, params)), close: async () => undefined };
    },
    query: (text, params) => live(() => base.query(text, params)),
    exec: (text) => live(() => base.exec(text)),
    tx: (fn) => live(() => db.transaction((t) => fn(on(t)))),
    busyMs: () => busy.ms,
    counts: () => ({ ...counts }),
    poolStats: () => ({ max: 1, total: 1, idle: 1, waiting: 0, slowWaits: 0 }),
    async close() {
      closed = true;
    },
  };
}
