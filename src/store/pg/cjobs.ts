// Replicated compute jobs on PostgreSQL (port CJobRepo, src/core/compute/ports.ts; migration 017),
// as the SQLite adapter (src/store/sqlite/cjobs.ts) keeps them, for donors polling any replica.
// A lease is one UPDATE of a slot picked FOR UPDATE SKIP LOCKED (concurrent donors get distinct
// slots without waiting on each other), under an advisory lock of the donor, so one donor's
// concurrent leases cannot both pass the "one slot of a job per donor" check. A submit and a job's
// end are conditional writes: only a live lease of its holder submits, only an open job ends (once).
import type { CJob, CJobRepo, CSlot, Donor, DonorReport } from '../../core/compute/ports.js';
import type { Q, Sql } from './sql.js';

const JOB_COLS = 'id, name, ver, wasm, caller, input, in_hash, k, n, price, state, out_hash, output, receipt, created, ended';
const SLOT_COLS = 'job, slot, state, lease, donor, pub, deadline, out_hash, output, dsig, at';

/** Standing moves; donors in one order, so two jobs ending at once lock their rows in one order. */
async function standing(q: Q, moves: Array<{ id: string; good: number; bad: number }>, at: number): Promise<void> {
  for (const m of [...moves].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
    await q.query(
      `INSERT INTO donors AS d (id, good, bad, updated) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET good = d.good + excluded.good, bad = d.bad + excluded.bad, updated = excluded.updated`,
      [m.id, m.good, m.bad, at],
    );
}

const addReport = async (q: Q, r: DonorReport) =>
  (
    await q.query('INSERT INTO donor_reports (job, donor, out_hash, quorum, at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
      r.job,
      r.donor,
      r.out_hash,
      r.quorum,
      r.at,
    ])
  ).count === 1;

export function pgCJobs(sql: Sql): CJobRepo {
  const get = async (q: Pick<Q, 'query'>, id: string) => (await q.query<CJob>(`SELECT ${JOB_COLS} FROM cjobs WHERE id = $1`, [id])).rows[0] ?? null;
  return {
    async create(j) {
      await sql.tx(async (q) => {
        await q.query(
          `INSERT INTO cjobs (id, name, ver, wasm, caller, input, in_hash, k, n, price, state, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'open', $11)`,
          [j.id, j.name, j.ver, j.wasm, j.caller, j.input, j.in_hash, j.k, j.n, j.price, j.created],
        );
        await q.query("INSERT INTO cjob_slots (job, slot, state) SELECT $1, s, 'open' FROM generate_series(0, $2::int - 1) AS s", [j.id, j.n]);
      });
    },
    get: (id) => get(sql, id),
    async slots(id) {
      return (await sql.query<CSlot>(`SELECT ${SLOT_COLS} FROM cjob_slots WHERE job = $1 ORDER BY slot`, [id])).rows;
    },
    async lease(donor, pub, lease, deadline, now, job) {
      return sql.tx(async (q) => {
        // One lease at a time per donor (any replica): the check below then sees its committed slots.
        await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.cjobs.donor.' || $1))", [donor]);
        const got = (
          await q.query<{ job: string; slot: number }>(
            `WITH pick AS (
               SELECT s.job, s.slot FROM cjob_slots s JOIN cjobs j ON j.id = s.job
               WHERE j.state = 'open' AND ($1::text IS NULL OR j.id = $1)
                 AND (s.state = 'open' OR (s.state = 'leased' AND s.deadline < $2))
                 AND NOT EXISTS (SELECT 1 FROM cjob_slots o WHERE o.job = s.job AND o.donor = $3 AND (o.state = 'done' OR (o.state = 'leased' AND o.deadline >= $2)))
               ORDER BY j.created, s.job, s.slot LIMIT 1
               FOR UPDATE OF s SKIP LOCKED)
             UPDATE cjob_slots s SET state = 'leased', lease = $4, donor = $3, pub = $5, deadline = $6
             FROM pick WHERE s.job = pick.job AND s.slot = pick.slot
             RETURNING s.job, s.slot`,
            [job, now, donor, lease, pub, deadline],
          )
        ).rows[0];
        if (!got) return null;
        return { job: (await get(q, got.job))!, slot: got.slot };
      });
    },
    async slotByLease(lease) {
      return (await sql.query<CSlot>(`SELECT ${SLOT_COLS} FROM cjob_slots WHERE lease = $1`, [lease])).rows[0] ?? null;
    },
    async submit(lease, donor, r, now) {
      const s = (
        await sql.query<{ job: string; slot: number }>(
          `UPDATE cjob_slots SET state = 'done', out_hash = $3, output = $4, dsig = $5, at = $6
           WHERE lease = $1 AND donor = $2 AND state = 'leased' AND deadline >= $6 RETURNING job, slot`,
          [lease, donor, r.out_hash, r.output, r.dsig, now],
        )
      ).rows[0];
      return s ?? 'stale';
    },
    async finish(id, e, now) {
      return sql.tx(async (q) => {
        const ended = await q.query("UPDATE cjobs SET state = $2, out_hash = $3, output = $4, receipt = $5, ended = $6 WHERE id = $1 AND state = 'open'", [
          id,
          e.state,
          e.out_hash,
          e.output,
          e.receipt,
          now,
        ]);
        if (ended.count !== 1) return false;
        await standing(q, [...e.agree.map((d) => ({ id: d, good: 1, bad: 0 })), ...e.disagree.map((d) => ({ id: d.donor, good: 0, bad: 1 }))], now);
        for (const d of e.disagree) await addReport(q, { job: id, donor: d.donor, out_hash: d.out_hash, quorum: e.out_hash ?? '', at: now });
        return true;
      });
    },
    async report(r) {
      return sql.tx(async (q) => {
        if (!(await addReport(q, r))) return false;
        await standing(q, [{ id: r.donor, good: 0, bad: 1 }], r.at);
        return true;
      });
    },
    async reports(job) {
      return (await sql.query<DonorReport>('SELECT job, donor, out_hash, quorum, at FROM donor_reports WHERE job = $1 ORDER BY at, donor', [job])).rows;
    },
    async donor(id) {
      return (await sql.query<Donor>('SELECT id, trusted, good, bad, updated FROM donors WHERE id = $1', [id])).rows[0] ?? null;
    },
    async setTrusted(id, on, now) {
      await sql.query(
        'INSERT INTO donors (id, trusted, updated) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET trusted = excluded.trusted, updated = excluded.updated',
        [id, on, now],
      );
    },
    async receiptsWith(donor, since) {
      return (
        await sql.query<{ job: string; receipt: string }>(
          `SELECT j.id AS job, j.receipt FROM cjobs j
           WHERE j.state = 'done' AND j.ended >= $1
             AND EXISTS (SELECT 1 FROM cjob_slots s WHERE s.job = j.id AND s.donor = $2 AND s.state = 'done' AND s.out_hash = j.out_hash)
           ORDER BY j.ended, j.id`,
          [since, donor],
        )
      ).rows;
    },
    async revoke(job, line, reason, at) {
      return (
        (await sql.query('INSERT INTO att_revoked (job, line, reason, at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [job, line, reason, at])).count === 1
      );
    },
    async revoked(since) {
      return (
        await sql.query<{ job: string; line: string; reason: string; at: number }>(
          'SELECT job, line, reason, at FROM att_revoked WHERE at >= $1 ORDER BY at, job',
          [since],
        )
      ).rows;
    },
  };
}
