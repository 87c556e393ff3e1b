// The platform counters of /admin/stats (AdminRepo.counts), the same on both engines: a name, its
// table and the rows it counts, in SQL both SQLite and PostgreSQL read (0/1 flags are INTEGER on
// SQLite, BOOLEAN or INTEGER on PostgreSQL: compared through CAST ... AS integer).
export const PLATFORM_COUNTERS: ReadonlyArray<readonly [name: string, table: string, where?: string]> = [
  ['identities', 'identities'],
  ['identities_frozen', 'identities', 'WHERE CAST(frozen AS integer) = 1'],
  ['tokens', 'tokens', 'WHERE CAST(revoked AS integer) = 0'],
  ['kb_entries', 'kb_entries', 'WHERE CAST(hidden AS integer) = 0'],
  ['kb_hidden', 'kb_entries', 'WHERE CAST(hidden AS integer) = 1'],
  ['kb_wanted', 'kb_wanted'],
  ['tasks_open', 'tasks', "WHERE state = 'open'"],
  ['tasks_claimed', 'tasks', "WHERE state IN ('claimed', 'done')"],
  ['tasks_closed', 'tasks', "WHERE state IN ('accepted', 'cancelled')"],
  ['spaces', 'spaces'],
  ['notes', 'notes'],
  ['mail', 'mail', 'WHERE CAST(deleted AS integer) = 0'],
  ['mail_reports_open', 'mail_reports', "WHERE status = 'open'"],
  ['drops', 'drops'],
  ['checkpoints', 'checkpoints'],
  ['anchors', 'anchors'],
  ['cache', 'cache'],
  ['blobs', 'blobs'],
  ['agents', 'agent_cards'],
  ['events', 'events'],
  ['jobs_queued', 'jobs', "WHERE state = 'q'"],
  ['jobs_dead', 'jobs', "WHERE state = 'dead'"],
  ['announcements', 'announcements'],
  ['inbox_open', 'inbox_items', "WHERE status = 'open'"],
  ['demand_rows', 'demand_queries'],
  ['tombstones', 'export_tombstones'],
  ['seed_roots', 'operator_marks', "WHERE mark = 'seed'"],
  ['st_hidden', 'operator_marks', "WHERE mark = 'st_hide'"],
  ['asn_policies', 'asn_policy'],
  // Every domain (issue 37): topics, subscriptions, webhooks, services, jobs, proposals, notices,
  // injection reports, digests, the operator's module blobs.
  ['topics', 'event_heads'],
  ['subscriptions', 'swarm_subs'],
  ['subscriptions_digest', 'swarm_subs', "WHERE mode = 'digest'"],
  ['kv_keys', 'swarm_kv'],
  ['webhooks', 'webhooks'],
  ['webhook_deliveries', 'webhook_deliveries'],
  ['services', 'svc_names'],
  ['service_versions', 'svc_versions'],
  ['service_versions_ok', 'svc_versions', "WHERE state = 'ok'"],
  ['service_calls', 'svc_calls'],
  ['compute_jobs', 'cjobs'],
  ['compute_jobs_open', 'cjobs', "WHERE state = 'open'"],
  ['jobs_leased', 'jobs', "WHERE state = 'q' AND lease IS NOT NULL"],
  ['proposals', 'gov_proposals'],
  ['proposals_open', 'gov_proposals', "WHERE state = 'open'"],
  ['notices', 'gov_notices'],
  ['notices_queued', 'gov_notices', "WHERE state = 'queued'"],
  ['inj_reports', 'inj_reports'],
  ['inj_disputes', 'inj_disputes'],
  ['digests', 'kb_digests'],
  ['op_blobs', 'op_blobs'],
  ['a2a_tasks', 'a2a_tasks'],
];

/** One table's share of a storage class: its rows (unless `rows` is false) and payload bytes, in each engine's SQL. */
export interface ClassPart {
  table: string;
  where?: string;
  rows?: boolean;
  /** Bytes of one row: SQLite and PostgreSQL expressions (length of BLOB/TEXT; octet_length of bytea/jsonb::text). */
  bytes?: { sqlite: string; pg: string };
}

const text = (col: string) => ({ sqlite: `length(${col})`, pg: `octet_length(${col})` });

/** Storage classes of every domain beside the first six (sealed, public, private, blob, ledger, events). */
export const DOMAIN_CLASSES: ReadonlyArray<readonly [cls: string, parts: readonly ClassPart[]]> = [
  [
    'subscriptions',
    [
      { table: 'swarm_subs', bytes: text("coalesce(filter, '')") },
      { table: 'swarm_kv', bytes: text('value') },
    ],
  ],
  ['webhooks', [{ table: 'webhooks', bytes: text('ct') }, { table: 'webhook_deliveries' }]],
  [
    'services',
    [
      { table: 'svc_names' },
      { table: 'svc_versions', bytes: { sqlite: 'length(manifest)', pg: 'octet_length(manifest::text)' } },
      { table: 'svc_calls', bytes: text("coalesce(output, '')") },
      { table: 'cjobs', bytes: { sqlite: 'length(input) + coalesce(length(output), 0)', pg: 'octet_length(input) + coalesce(octet_length(output), 0)' } },
    ],
  ],
  ['jobs', [{ table: 'jobs', bytes: { sqlite: 'length(payload)', pg: 'octet_length(payload::text)' } }]],
  [
    'governance',
    [
      { table: 'gov_proposals', bytes: text("title || body || coalesce(patch, '')") },
      { table: 'gov_notices', bytes: text('reason || note') },
      { table: 'gov_reports' },
    ],
  ],
  [
    'injection',
    [
      { table: 'inj_reports', bytes: text('flags') },
      { table: 'inj_disputes', bytes: text('note') },
    ],
  ],
  ['digests', [{ table: 'kb_digests', bytes: text('lines') }]],
  // The operator's module blobs (plugin code): rows of op_blobs, bytes of their data.
  ['modules', [{ table: 'op_blobs' }, { table: 'op_blob_data', rows: false, bytes: text('bytes') }]],
];
