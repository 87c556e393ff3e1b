// Quota buckets as a port: the invoke quota guard (src/core/platform/guards.ts) and the few domain
// charges go through Quotas (buckets.ts), which talks to this. The port knows nothing of limits:
// it keeps token buckets by id and refills them by the rate each call gives.
//
// Per process or shared is the adapter's choice (Store.quotas): the SQLite adapter keeps the buckets
// in memory (memory.ts), which is correct because one process owns the database file, so it sees
// every request; they reset on restart (docs/decisions.md). A store shared by several replicas
// (PostgreSQL) must share the buckets too, or each replica would grant the full quota.

export interface QuotaRepo {
  /**
   * Refills bucket `id` to `now` at `ratePerMs` up to `cap` (a bucket never seen starts full), then
   * takes `cost` tokens when it holds that many. Returns 0 when taken, otherwise the ms until `cost`
   * tokens will be there (and takes nothing). `cap` and `ratePerMs` may differ between calls for one
   * id (the caller's trust level changed): the latest apply. An adapter whose buckets are in memory
   * answers synchronously (no promise per request).
   */
  take(id: string, cost: number, cap: number, ratePerMs: number, now: number): number | Promise<number>;
}
