// Quota buckets shared by the replicas (port: src/core/platform/quota/ports.ts), in the UNLOGGED table
// quota_buckets (migration 011), spent through leases (issue 38). A replica does not write the
// bucket on every take: it takes a LEASE of up to `quota.lease` tokens (at most `quota.lease_share`
// of the bucket's capacity) in one upsert, which refills and takes under the row's lock, and spends
// it locally, synchronously, until it runs out or `quota.lease_ms` passes. So a steady caller costs
// one write per lease, not per request.
//
// The bound (docs/decisions.md, "Quota leases"): every token spent was granted by the shared bucket,
// so over any window a key gets at most what one bucket grants (burst + rate x window) plus what was
// already leased at its start: at most one lease per replica. Tokens leased and not spent expire
// (the bucket is stricter by them, never looser). A bucket too small for a lease of 2 (capacity <
// 2 / lease_share) is taken one request at a time, exactly as before.
//
// A refusal is remembered until the bucket can hold `cost` again (it only refills with time), so a
// refused caller hammering the service costs no write either. Leases of different buckets asked
// for while a statement is in flight go together in the next one (many new networks at once: one
// statement, not one per request). The arithmetic is the in-memory
// repository's (src/core/platform/quota/memory.ts), in double precision.
import type { QuotaRepo } from '../../core/platform/quota/ports.js';
import { limit } from '../../core/kernel/limits.js';
import type { Sql } from './sql.js';

// One statement takes the leases of many buckets (the takes of different buckets that arrived while
// the previous statement ran: natural batching, no wait when idle). Arrays: $1 ids (sorted, so two
// replicas lock rows in one order), $2 cost (the least a grant may be), $3 cap, $4 rate per ms,
// $5 now, $6 want (the lease). A conflicting row finds its own cost and want by its id's position;
// cap, rate and now come in the proposed row (excluded). REFILL: the bucket refilled to now, up to
// the cap. GRANT: the lease, or what is left when that is less but still covers the cost, or
// nothing; `granted` keeps it for RETURNING (which sees only the new row).
const AT = 'array_position($1::text[], b.id)';
const COST = `($2::float8[])[${AT}]`;
const WANT = `($6::float8[])[${AT}]`;
const REFILL = 'least(excluded.cap, b.tokens + greatest(0, excluded.t - b.t) * excluded.rate)';
const grant = (r: string, cost: string, want: string) => `CASE WHEN ${r} >= ${want} THEN ${want} WHEN ${r} >= ${cost} THEN ${r} ELSE 0 END`;
const TAKE = `
  INSERT INTO quota_buckets AS b (id, tokens, t, cap, rate, took, granted)
  SELECT x.id, x.cap - y.g, x.now, x.cap, x.rate, x.cap >= x.cost, y.g
  FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[], $5::int8[], $6::float8[]) AS x(id, cost, cap, rate, now, want),
    LATERAL (SELECT ${grant('x.cap', 'x.cost', 'x.want')} AS g) y
  ON CONFLICT (id) DO UPDATE SET
    tokens = ${REFILL} - ${grant(REFILL, COST, WANT)},
    took = ${REFILL} >= ${COST},
    granted = ${grant(REFILL, COST, WANT)},
    t = greatest(b.t, excluded.t), cap = excluded.cap, rate = excluded.rate
  RETURNING id, tokens, took, granted`;
/** Buckets per statement at most. */
const BATCH = 256;

/** Full buckets are dropped at most this often per process (rows of networks no longer active). */
const PRUNE_EVERY_MS = 60_000;
/** Leases held per process before the expired ones are dropped (then twice what survived). */
const MIN_SWEEP = 4096;

interface Lease {
  /** Tokens left to spend here. */
  tokens: number;
  /** Spent only before this time. */
  until: number;
  cap: number;
  rate: number;
  /** A refusal: until `refusedUntil` no take of `refusedCost` or more can succeed. */
  refusedUntil: number;
  refusedCost: number;
}

export interface PgQuotaOpts {
  /** Tokens per lease at most (default limit quota.lease; 1 turns leases off). */
  lease?: number;
  /** Share of the capacity one lease may take (default limit quota.lease_share). */
  share?: number;
  /** A lease is spent within this many ms or lost (default limit quota.lease_ms). */
  ttlMs?: number;
}

export function pgQuotas(sql: Sql, o: PgQuotaOpts = {}): QuotaRepo {
  const maxLease = o.lease ?? limit('quota.lease');
  const share = o.share ?? limit('quota.lease_share');
  const ttl = o.ttlMs ?? limit('quota.lease_ms');
  let pruned = -Infinity;
  const leases = new Map<string, Lease>();
  let sweepAt = MIN_SWEEP;
  /** Takes in flight per bucket: one lease is fetched at a time, the others wait for it. */
  const fetching = new Map<string, Promise<void>>();

  /** Spends locally: 0 when taken, a wait when a remembered refusal still holds, null when the database must be asked. */
  const local = (id: string, cost: number, cap: number, rate: number, now: number): number | null => {
    const l = leases.get(id);
    // A changed capacity or rate (the caller's trust level changed) is asked anew.
    if (!l || l.cap !== cap || l.rate !== rate) return null;
    if (now < l.until && l.tokens >= cost) {
      l.tokens -= cost;
      return 0;
    }
    // The bucket only refills with time: before `refusedUntil` it cannot hold `refusedCost`.
    if (now < l.refusedUntil && cost >= l.refusedCost) return l.refusedUntil - now;
    return null;
  };
  const remember = (id: string, l: Lease, now: number) => {
    if (!leases.has(id) && leases.size >= sweepAt) {
      for (const [k, v] of leases) if (v.until <= now && v.refusedUntil <= now) leases.delete(k);
      sweepAt = Math.max(MIN_SWEEP, 2 * leases.size);
    }
    leases.set(id, l);
  };

  // Takes waiting for the statement in flight; sent together when it returns.
  type Row = { id: string; tokens: number; took: boolean; granted: number };
  interface Ask {
    id: string;
    cost: number;
    cap: number;
    rate: number;
    now: number;
    want: number;
    done: (r: Row | Error) => void;
  }
  let queue: Ask[] = [];
  let sending = false;
  const send = async () => {
    sending = true;
    while (queue.length) {
      // One row per bucket in a statement (a second take of it waits for the next; `fetching` makes that rare).
      const batch = new Map<string, Ask>();
      const rest: Ask[] = [];
      for (const a of queue) batch.size < BATCH && !batch.has(a.id) ? batch.set(a.id, a) : rest.push(a);
      queue = rest;
      const asks = [...batch.values()].sort((x, y) => (x.id < y.id ? -1 : 1));
      try {
        const now = asks[0]!.now;
        if (now - pruned >= PRUNE_EVERY_MS) {
          pruned = now;
          await sql.query('DELETE FROM quota_buckets WHERE tokens + greatest(0, $1::int8 - t) * rate >= cap', [now]);
        }
        const col = <K extends keyof Ask>(k: K) => asks.map((a) => a[k]);
        const rows = (await sql.query<Row>(TAKE, [col('id'), col('cost'), col('cap'), col('rate'), col('now'), col('want')])).rows;
        const byId = new Map(rows.map((r) => [r.id, r]));
        for (const a of asks) a.done(byId.get(a.id) ?? new Error('quota: no row returned'));
      } catch (e) {
        for (const a of asks) a.done(e instanceof Error ? e : new Error(String(e)));
      }
    }
    sending = false;
  };

  const fetchLease = async (id: string, cost: number, cap: number, rate: number, now: number): Promise<number> => {
    // A lease of 2 or more only where the bucket is big enough for the share; otherwise exactly `cost`.
    const want = Math.max(cost, Math.min(maxLease, Math.floor(cap * share)));
    const r = await new Promise<Row>((resolve, reject) => {
      queue.push({ id, cost, cap, rate, now, want, done: (x) => (x instanceof Error ? reject(x) : resolve(x)) });
      if (!sending) void send();
    });
    if (r.took) {
      // What the old lease had left (less than the cost) is dropped: keeping it would stretch the bound.
      remember(id, { tokens: r.granted - cost, until: now + ttl, cap, rate, refusedUntil: 0, refusedCost: Infinity }, now);
      return 0;
    }
    // Refused: `tokens` is what the bucket holds now; the wait is until it holds `cost`.
    const wait = Math.max(1, Math.ceil((cost - r.tokens) / rate));
    remember(id, { tokens: 0, until: 0, cap, rate, refusedUntil: now + wait, refusedCost: cost }, now);
    return wait;
  };

  const slow = async (id: string, cost: number, cap: number, rate: number, now: number): Promise<number> => {
    // Another take of this bucket is fetching a lease: wait for it, then try what it leased.
    for (let p = fetching.get(id); p; p = fetching.get(id)) {
      await p;
      const w = local(id, cost, cap, rate, now);
      if (w !== null) return w;
    }
    const p = fetchLease(id, cost, cap, rate, now);
    const done = p.then(
      () => undefined,
      () => undefined,
    );
    fetching.set(id, done);
    try {
      return await p;
    } finally {
      if (fetching.get(id) === done) fetching.delete(id);
    }
  };

  return {
    take(id, cost, cap, rate, now) {
      const w = local(id, cost, cap, rate, now);
      return w !== null ? w : slow(id, cost, cap, rate, now);
    },
  };
}
