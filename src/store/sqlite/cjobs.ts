// SQLite implementation of the CJobRepo port (src/core/compute/ports.ts): replicated jobs, their
// slots and leases, donors' standing and reports, revoked receipts (migration 017).
import type { CJob, CJobRepo, CSlot, Donor, DonorReport, JobEnd } from '../../core/compute/ports.js';
import type { Db } from './db.js';

export function sqliteCJobs(db: Db): CJobRepo {
  const ins = db.prepare(
    "INSERT INTO cjobs (id, name, ver, wasm, caller, input, in_hash, k, n, price, state, created) VALUES (@id, @name, @ver, @wasm, @caller, @input, @in_hash, @k, @n, @price, 'open', @created)",
  );
  const insSlot = db.prepare("INSERT INTO cjob_slots (job, slot, state) VALUES (?, ?, 'open')");
  const get = db.prepare('SELECT * FROM cjobs WHERE id = ?');
  const slots = db.prepare('SELECT * FROM cjob_slots WHERE job = ? ORDER BY slot');
  // A free slot: open, or leased with its deadline passed. The donor holds no live or submitted slot of the job.
  const freeSlot = db.prepare(
    `SELECT s.job, s.slot FROM cjob_slots s JOIN cjobs j ON j.id = s.job
     WHERE j.state = 'open' AND (@job IS NULL OR j.id = @job)
       AND (s.state = 'open' OR (s.state = 'leased' AND s.deadline < @now))
       AND NOT EXISTS (SELECT 1 FROM cjob_slots o WHERE o.job = s.job AND o.donor = @donor AND (o.state = 'done' OR (o.state = 'leased' AND o.deadline >= @now)))
     ORDER BY j.created, s.job, s.slot LIMIT 1`,
  );
  const take = db.prepare(
    "UPDATE cjob_slots SET state = 'leased', lease = @lease, donor = @donor, pub = @pub, deadline = @deadline WHERE job = @job AND slot = @slot",
  );
  const bySlotLease = db.prepare('SELECT * FROM cjob_slots WHERE lease = ?');
  const done = db.prepare("UPDATE cjob_slots SET state = 'done', out_hash = @out_hash, output = @output, dsig = @dsig, at = @at WHERE lease = @lease");
  const end = db.prepare(
    "UPDATE cjobs SET state = @state, out_hash = @out_hash, output = @output, receipt = @receipt, ended = @ended WHERE id = @id AND state = 'open'",
  );
  const upDonor = db.prepare(
    'INSERT INTO donors (id, good, bad, updated) VALUES (@id, @good, @bad, @at) ON CONFLICT(id) DO UPDATE SET good = good + @good, bad = bad + @bad, updated = @at',
  );
  const insReport = db.prepare('INSERT OR IGNORE INTO donor_reports (job, donor, out_hash, quorum, at) VALUES (@job, @donor, @out_hash, @quorum, @at)');
  const reports = db.prepare('SELECT job, donor, out_hash, quorum, at FROM donor_reports WHERE job = ? ORDER BY at, donor');
  const donor = db.prepare('SELECT id, trusted, good, bad, updated FROM donors WHERE id = ?');
  const trust = db.prepare(
    'INSERT INTO donors (id, trusted, updated) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET trusted = excluded.trusted, updated = excluded.updated',
  );
  const withDonor = db.prepare(
    `SELECT DISTINCT j.id AS job, j.receipt FROM cjobs j JOIN cjob_slots s ON s.job = j.id
     WHERE j.state = 'done' AND j.ended >= ? AND s.donor = ? AND s.state = 'done' AND s.out_hash = j.out_hash ORDER BY j.ended`,
  );
  const insRevoked = db.prepare('INSERT OR IGNORE INTO att_revoked (job, line, reason, at) VALUES (?, ?, ?, ?)');
  const revoked = db.prepare('SELECT job, line, reason, at FROM att_revoked WHERE at >= ? ORDER BY at, job');

  const create = db.transaction((j: Omit<CJob, 'state' | 'out_hash' | 'output' | 'receipt' | 'ended'>) => {
    ins.run(j);
    for (let i = 0; i < j.n; i++) insSlot.run(j.id, i);
  });
  const lease = db.transaction((donorId: string, pub: string, leaseId: string, deadline: number, now: number, job: string | null) => {
    const s = freeSlot.get({ job, now, donor: donorId }) as { job: string; slot: number } | undefined;
    if (!s) return null;
    take.run({ lease: leaseId, donor: donorId, pub, deadline, job: s.job, slot: s.slot });
    const j = get.get(s.job) as CJob;
    return { job: j, slot: s.slot };
  });
  const submit = db.transaction((leaseId: string, donorId: string, r: { out_hash: string; output: Buffer; dsig: string }, now: number) => {
    const s = bySlotLease.get(leaseId) as CSlot | undefined;
    if (!s || s.donor !== donorId || s.state !== 'leased' || (s.deadline ?? 0) < now) return 'stale' as const;
    done.run({ ...r, at: now, lease: leaseId });
    return { job: s.job, slot: s.slot };
  });
  const finish = db.transaction((id: string, e: JobEnd, now: number) => {
    const j = get.get(id) as CJob | undefined;
    if (!j || end.run({ id, state: e.state, out_hash: e.out_hash, output: e.output, receipt: e.receipt, ended: now }).changes !== 1) return false;
    for (const d of e.agree) upDonor.run({ id: d, good: 1, bad: 0, at: now });
    for (const d of e.disagree) {
      upDonor.run({ id: d.donor, good: 0, bad: 1, at: now });
      insReport.run({ job: id, donor: d.donor, out_hash: d.out_hash, quorum: e.out_hash ?? '', at: now });
    }
    return true;
  });
  const report = db.transaction((r: DonorReport) => {
    if (insReport.run(r).changes !== 1) return false;
    upDonor.run({ id: r.donor, good: 0, bad: 1, at: r.at });
    return true;
  });

  return {
    async create(j) {
      create(j);
    },
    async get(id) {
      return (get.get(id) as CJob | undefined) ?? null;
    },
    async slots(id) {
      return slots.all(id) as CSlot[];
    },
    async lease(d, pub, l, deadline, now, job) {
      return lease(d, pub, l, deadline, now, job);
    },
    async slotByLease(l) {
      return (bySlotLease.get(l) as CSlot | undefined) ?? null;
    },
    async submit(l, d, r, now) {
      return submit(l, d, r, now);
    },
    async finish(id, e, now) {
      return finish(id, e, now);
    },
    async report(r) {
      return report(r);
    },
    async reports(job) {
      return reports.all(job) as DonorReport[];
    },
    async donor(id) {
      const r = donor.get(id) as (Omit<Donor, 'trusted'> & { trusted: number }) | undefined;
      return r ? { ...r, trusted: r.trusted === 1 } : null;
    },
    async setTrusted(id, on, now) {
      trust.run(id, on ? 1 : 0, now);
    },
    async receiptsWith(d, since) {
      return withDonor.all(since, d) as Array<{ job: string; receipt: string }>;
    },
    async revoke(job, line, reason, at) {
      return insRevoked.run(job, line, reason, at).changes === 1;
    },
    async revoked(since) {
      return revoked.all(since) as Array<{ job: string; line: string; reason: string; at: number }>;
    },
  };
}
