// Reads from a PostgreSQL streaming standby (CX_DATABASE_READ_URL, issue 38). The adapter keeps a
// second pool on the standby and hands the KB repository a `Sql` that sends each read statement
// there while the standby is usable, else to the primary. Only the KB's read methods take it, and
// only anonymous read-only operations reach that repository (src/core/platform/standby.ts): writes, and
// every call of a token (which may read its own rows just written through any replica), stay on
// the primary.
//
// Usable: the last probe (every db.standby_probe) answered within 3 periods, the server is in
// recovery, and its lag is at most db.standby_lag. The lag: 0 when the standby had replayed the
// primary's WAL position read just before (pg_current_wal_lsn, taken first); otherwise the age of
// the last transaction it replayed (now - pg_last_xact_replay_timestamp, on the standby's clock),
// an upper bound of how old its view is. A read the standby fails (down, a recovery conflict)
// is run again on the primary at once; a broken connection marks it down until a probe answers.
import { limit } from '../../core/kernel/limits.js';
import type { StandbyHealth } from '../../compose/store.js';
import type { Sql } from './sql.js';

export interface Standby {
  /** Reads on the standby while it is usable, else on the primary; everything else on the primary. */
  sql: Sql;
  health(): StandbyHealth;
  /** Probes now (tests; the timer probes every db.standby_probe). */
  probe(): Promise<void>;
  close(): Promise<void>;
}

/** An error without an SQLSTATE: the connection, not the statement, failed. */
const connectionError = (e: unknown) => !/^[0-9A-Z]{5}$/.test(String((e as { code?: unknown }).code));

export function standbyReads(primary: Sql, standby: Sql, now: () => number = Date.now): Standby {
  const period = limit('db.standby_probe');
  const bound = limit('db.standby_lag');
  let lagMs: number | null = null;
  let inRecovery = false;
  let answeredAt = -Infinity;
  let down = true;
  let why = 'not probed yet';
  const served = { standby: 0, primary: 0 };

  const usable = () => !down && inRecovery && lagMs !== null && lagMs <= bound && now() - answeredAt <= 3 * period;

  async function probe(): Promise<void> {
    let lsn: string;
    try {
      lsn = (await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn;
    } catch {
      return; // the primary did not answer: nothing to compare against (the reads' age check ages out)
    }
    try {
      const r = (
        await standby.query<{ rec: boolean; caught: boolean | null; behind: number | null }>(
          `SELECT pg_is_in_recovery() AS rec, pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught,
             (extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 AS behind`,
          [lsn],
        )
      ).rows[0]!;
      answeredAt = now();
      down = false;
      inRecovery = r.rec;
      // Caught up with the primary's position: nothing committed before the probe is missing.
      lagMs = r.caught ? 0 : r.behind === null ? null : Math.max(0, Math.round(r.behind));
      why = !r.rec ? 'not in recovery (promoted?)' : lagMs === null ? 'lag unknown' : '';
    } catch (e) {
      down = true;
      lagMs = null;
      why = String((e as Error).message ?? e)
        .split('\n')[0]!
        .slice(0, 120);
    }
  }
  let probing: Promise<void> | null = null;
  const tick = () => {
    probing ??= probe().finally(() => {
      probing = null;
    });
    return probing;
  };
  const timer = setInterval(() => void tick(), period);
  timer.unref();
  void tick();

  const sql: Sql = {
    ...primary,
    async query<R>(text: string, params?: readonly unknown[]) {
      if (usable()) {
        try {
          const r = await standby.query<R>(text, params);
          served.standby++;
          return r;
        } catch (e) {
          if (connectionError(e)) {
            down = true;
            why = String((e as Error).message ?? e)
              .split('\n')[0]!
              .slice(0, 120);
          }
        }
      }
      served.primary++;
      return primary.query<R>(text, params);
    },
  };

  return {
    sql,
    probe: tick,
    health: () => ({
      state: usable() ? 'ok' : down ? 'down' : 'lagging',
      lagMs,
      reads: { ...served },
      why: usable() ? '' : why || (lagMs !== null && lagMs > bound ? `lag ${lagMs} ms > ${bound} ms` : 'no recent probe'),
    }),
    async close() {
      clearInterval(timer);
      await probing?.catch(() => undefined);
      await standby.close();
    },
  };
}
