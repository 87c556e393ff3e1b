-- Replicated compute jobs (PostgreSQL twin of src/store/sqlite/migrations/017_donors.sql): k of n
-- replicas run by donors that lease a slot, sign their result and are paid when they agree with the
-- quorum; att1 receipts; revocations. A slot is leased by one conditional UPDATE of a row picked
-- FOR UPDATE SKIP LOCKED (src/store/pg/cjobs.ts), so concurrent donors on any replica get distinct slots.
CREATE TABLE cjobs (
  id TEXT COLLATE "C" PRIMARY KEY,
  name TEXT NOT NULL,
  ver INTEGER NOT NULL,
  wasm TEXT NOT NULL,
  caller TEXT NOT NULL,
  input BYTEA NOT NULL,
  in_hash TEXT NOT NULL,
  k INTEGER NOT NULL,
  n INTEGER NOT NULL,
  price BIGINT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'done', 'failed')),
  out_hash TEXT,
  output BYTEA,
  receipt TEXT,
  created BIGINT NOT NULL,
  ended BIGINT
);
CREATE INDEX cjobs_open ON cjobs(state, created);
CREATE INDEX cjobs_caller ON cjobs(caller);
CREATE INDEX cjobs_ended ON cjobs(ended) WHERE state = 'done';

CREATE TABLE cjob_slots (
  job TEXT COLLATE "C" NOT NULL REFERENCES cjobs(id) ON DELETE CASCADE,
  slot INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'leased', 'done')),
  lease TEXT UNIQUE,
  donor TEXT,
  pub TEXT,
  deadline BIGINT,
  out_hash TEXT,
  output BYTEA,
  dsig TEXT,
  at BIGINT,
  PRIMARY KEY (job, slot)
);
CREATE INDEX cjob_slots_donor ON cjob_slots(donor, job);

CREATE TABLE donors (
  id TEXT PRIMARY KEY,
  trusted BOOLEAN NOT NULL DEFAULT FALSE,
  good INTEGER NOT NULL DEFAULT 0,
  bad INTEGER NOT NULL DEFAULT 0,
  updated BIGINT NOT NULL
);

CREATE TABLE donor_reports (
  job TEXT NOT NULL,
  donor TEXT COLLATE "C" NOT NULL,
  out_hash TEXT NOT NULL,
  quorum TEXT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (job, donor)
);
CREATE INDEX donor_reports_donor ON donor_reports(donor);

CREATE TABLE att_revoked (
  job TEXT COLLATE "C" PRIMARY KEY,
  line TEXT NOT NULL,
  reason TEXT NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX att_revoked_at ON att_revoked(at);
