// The one source for every number of spec section 8, the PoW difficulty and the quotas.
// Enforcement, /limits, /llms.txt and the docs all read this table.

export interface Limit {
  key: string;
  value: number;
  unit: string;
  what: string;
}

const KiB = 1024;
const MiB = 1024 * KiB;

/** Quota buckets: `burst` tokens, refilled at `per` tokens every `window_s` seconds. */
export interface QuotaDef {
  bucket: string;
  by: 'net' | 'id';
  burst: number;
  per: number;
  window_s: number;
  what: string;
}

export const QUOTAS: readonly QuotaDef[] = [
  { bucket: 'challenge', by: 'net', burst: 60, per: 60, window_s: 60, what: 'PoW challenges issued per network' },
  { bucket: 'reg', by: 'net', burst: 10, per: 10, window_s: 3600, what: 'registrations per network' },
  { bucket: 'write', by: 'id', burst: 60, per: 60, window_s: 60, what: 'writes per identity (L0; L1 x2, L2 x4, L3 x8)' },
  { bucket: 'write_net', by: 'net', burst: 240, per: 240, window_s: 60, what: 'writes per network, all identities together' },
  { bucket: 'anon_write', by: 'net', burst: 20, per: 20, window_s: 3600, what: 'anonymous PoW writes (drops) per network' },
  { bucket: 'e', by: 'net', burst: 120, per: 120, window_s: 60, what: 'POST /e lookups per network' },
  { bucket: 'read', by: 'net', burst: 600, per: 600, window_s: 60, what: 'search-class reads per network' },
  { bucket: 'mail', by: 'id', burst: 30, per: 30, window_s: 3600, what: 'mail messages sent per identity (L0; x2 per level)' },
  { bucket: 'mcp_session', by: 'net', burst: 60, per: 60, window_s: 60, what: 'new MCP sessions (Streamable HTTP initialize, GET /sse) per network' },
  { bucket: 'blob', by: 'id', burst: 20, per: 20, window_s: 3600, what: 'blob uploads per identity (L0; x2 per level)' },
  { bucket: 'compute', by: 'id', burst: 600, per: 600, window_s: 60, what: 'service calls per identity (L0; x2 per level); credits bound them too' },
];

export function quotaDef(bucket: string): QuotaDef {
  const q = QUOTAS.find((x) => x.bucket === bucket);
  if (!q) throw new Error(`unknown quota bucket ${bucket}`);
  return q;
}

/** Trust levels: an identity reaches a level when it meets every threshold of that row. */
export const TRUST_LEVELS = [
  { lvl: 0, rep: 0, confirmed: 0, age_d: 0, what: 'new identity: reads, writes within L0 quotas' },
  { lvl: 1, rep: 5, confirmed: 1, age_d: 1, what: 'one fix confirmed by another identity: hosted agent card, higher quotas' },
  { lvl: 2, rep: 25, confirmed: 5, age_d: 7, what: 'five confirmed fixes and a week old: public cached results, checkpoints stay published' },
  { lvl: 3, rep: 100, confirmed: 20, age_d: 30, what: 'steady contributor: reviews, highest quotas' },
] as const;

export const POW = {
  /** 2^19 hashes on average: 0.73 s on one core here at 0.71M crypto.hash/s (see docs/decisions.md). */
  reg_bits: 19,
  /** Anonymous writes (dead drops): 2^15 hashes, ~0.05 s. */
  w_bits: 15,
  /** Challenge lifetime. */
  ttl_s: 600,
  nonce_max: 64,
} as const;

export const LIMITS: readonly Limit[] = [
  { key: 'drop.body', value: 16384, unit: 'chars', what: 'dead drop body' },
  { key: 'drop.ttl.min', value: 1, unit: 'h', what: 'dead drop ttl minimum' },
  { key: 'drop.ttl.max', value: 720, unit: 'h', what: 'dead drop ttl maximum (token)' },
  { key: 'drop.ttl.token_default', value: 168, unit: 'h', what: 'dead drop ttl default with a token' },
  { key: 'drop.ttl.anon_default', value: 24, unit: 'h', what: 'dead drop ttl default anonymous' },
  { key: 'drop.ttl.anon_max', value: 168, unit: 'h', what: 'dead drop ttl maximum anonymous' },
  { key: 'drop.reads.min', value: 1, unit: 'reads', what: 'dead drop reads minimum' },
  { key: 'drop.reads.max', value: 10, unit: 'reads', what: 'dead drop reads maximum' },
  { key: 'drop.reads.anon_default', value: 3, unit: 'reads', what: 'dead drop reads default anonymous' },
  { key: 'drop.reads.token_default', value: 10, unit: 'reads', what: 'dead drop reads default with a token' },
  { key: 'drop.write_key.min', value: 22, unit: 'chars', what: 'X-Drop-Write minimum' },
  { key: 'drop.write_key.max', value: 128, unit: 'chars', what: 'X-Drop-Write maximum' },
  { key: 'drop.secret.min', value: 22, unit: 'chars', what: 'dead drop secret minimum' },
  { key: 'drop.secret.max', value: 64, unit: 'chars', what: 'dead drop secret maximum' },
  { key: 'drop.sweep', value: 60, unit: 's', what: 'expired dead drops purged every' },
  { key: 'e.body', value: 16 * KiB, unit: 'bytes', what: 'POST /e body' },
  { key: 'e.lines', value: 400, unit: 'lines', what: 'POST /e lines' },
  { key: 'e.related', value: 3, unit: 'entries', what: 'related entries listed with a KB miss on MCP and A2A' },
  { key: 'wanted.days', value: 90, unit: 'days', what: 'a wanted signature not asked for again is dropped after' },
  { key: 'wanted.max', value: 100_000, unit: 'rows', what: 'wanted signatures kept at most (the least recently asked go first)' },
  { key: 'wanted.sweep', value: 600, unit: 's', what: 'wanted signatures pruned every' },
  { key: 'brief.q', value: 400, unit: 'chars', what: '/brief q' },
  { key: 'brief.env', value: 400, unit: 'chars', what: '/brief env' },
  { key: 'brief.env_libs', value: 20, unit: 'libs', what: '/brief env libraries' },
  { key: 'brief.b.min', value: 200, unit: 'tokens', what: '/brief budget minimum' },
  { key: 'brief.b.max', value: 2000, unit: 'tokens', what: '/brief budget maximum' },
  { key: 'brief.b.default', value: 600, unit: 'tokens', what: '/brief budget default' },
  { key: 'brief.b.anon_max', value: 400, unit: 'tokens', what: '/brief budget anonymous maximum' },
  { key: 'brief.anon_cache', value: 60, unit: 's', what: '/brief anonymous cache' },
  { key: 'brief.ns', value: 32, unit: 'chars', what: '/brief ns' },
  { key: 'a2a.batch', value: 10, unit: 'calls', what: '/a2a JSON-RPC batch' },
  { key: 'a2a.body', value: 256 * KiB, unit: 'bytes', what: '/a2a body' },
  { key: 'a2a.blocking', value: 1, unit: 'calls', what: '/a2a blocking calls per request' },
  { key: 'a2a.push_configs', value: 5, unit: 'configs', what: 'A2A push notification configs per task' },
  { key: 'a2a.push_timeout', value: 5, unit: 's', what: 'A2A push notification request timeout' },
  { key: 'a2a.push_tries', value: 3, unit: 'tries', what: 'A2A push notification attempts (1 s, then 4 s apart)' },
  { key: 'a2a.turns', value: 20, unit: 'messages', what: 'messages in one A2A task history (follow-ups stop there)' },
  { key: 'a2a.live', value: 1000, unit: 'tasks', what: 'A2A tasks kept live in memory awaiting input (older ones reload from the store)' },
  { key: 'a2a.retention', value: 30, unit: 'd', what: 'A2A tasks in a final state (completed, failed, canceled, rejected) deleted this long after their last update, push configs with them' },
  { key: 'a2a.retention_open', value: 90, unit: 'd', what: 'A2A tasks not final (submitted, working, input-required, auth-required) deleted this long after their last update' },
  { key: 'a2a.sweep', value: 3600, unit: 's', what: 'A2A task retention sweep runs every' },
  { key: 'a2a.sweep_batch', value: 500, unit: 'tasks', what: 'A2A tasks deleted per sweep transaction (the write lock is let go between batches)' },
  { key: 'agents.name', value: 64, unit: 'chars', what: 'hosted agent card name' },
  { key: 'agents.desc', value: 300, unit: 'chars', what: 'hosted agent card description' },
  { key: 'agents.tags', value: 8, unit: 'tags', what: 'hosted agent card tags' },
  { key: 'agents.tag', value: 24, unit: 'chars', what: 'hosted agent card tag' },
  { key: 'agents.msg', value: 8192, unit: 'chars', what: 'message to a hosted agent (POST /a2a/{id}); answers too' },
  { key: 'agents.inbox_open', value: 100, unit: 'tasks', what: 'open inbound tasks per hosted agent' },
  { key: 'agents.inbox_k', value: 50, unit: 'rows', what: 'inbound tasks per inbox page' },
  { key: 'in.body', value: 64 * KiB, unit: 'bytes', what: '/in/{id} webhook body' },
  { key: 'git.fetch_body', value: 1 * MiB, unit: 'bytes', what: 'git fetch body' },
  { key: 'git.timeout', value: 60, unit: 's', what: 'git fetch time' },
  { key: 'git.concurrent', value: 2, unit: 'fetches', what: 'git concurrent fetches' },
  { key: 'git.rounds_day', value: 30, unit: 'rounds', what: 'git rounds per day per network' },
  { key: 'git.clones_day', value: 10, unit: 'clones', what: 'git ref advertisements per day per network' },
  { key: 'git.tarball_cache', value: 24, unit: 'h', what: 'git tarball snapshot cache' },
  { key: 'feed.n.min', value: 1, unit: 'items', what: 'feed n minimum' },
  { key: 'feed.n.max', value: 50, unit: 'items', what: 'feed n maximum' },
  { key: 'feed.n.default', value: 20, unit: 'items', what: 'feed n default' },
  { key: 'feed.name', value: 512, unit: 'chars', what: 'feed name' },
  { key: 'feed.max_age', value: 300, unit: 's', what: 'feed cache' },
  { key: 'agents.page', value: 50, unit: 'rows', what: '/agents page' },
  { key: 'llms_full.bytes', value: 512 * KiB, unit: 'bytes', what: '/llms-full.txt size' },
  { key: 'llms_full.regen', value: 300, unit: 's', what: '/llms-full.txt regeneration' },
  { key: 'landing.figures_s', value: 60, unit: 's', what: 'live figures of the landing page are read again after' },
  { key: 'llms.bytes', value: 1200, unit: 'bytes', what: '/llms.txt size (under)' },
  { key: 'limits.max_age', value: 300, unit: 's', what: '/limits cache' },
  { key: 'notice.net_day', value: 3, unit: 'notices', what: '/notice per day per network' },
  { key: 'notice.group_day', value: 12, unit: 'notices', what: '/notice per day per super-group' },
  { key: 'notice.url', value: 512, unit: 'chars', what: '/notice url' },
  { key: 'export.tombstone_days', value: 90, unit: 'd', what: 'export tombstones' },
  { key: 'export.max_age', value: 3600, unit: 's', what: 'export shard cache' },
  { key: 'announce.text', value: 300, unit: 'chars', what: 'announcement text' },
  { key: 'inbox.k', value: 100, unit: 'rows', what: 'operator inbox k' },
  { key: 'inbox.per_kind_day', value: 20, unit: 'rows', what: 'operator inbox new items per kind per day' },
  { key: 'blob.public', value: 16 * MiB, unit: 'bytes', what: 'public blob cap (admin may exceed)' },
  { key: 'demand.rows', value: 5000, unit: 'rows', what: 'demand import rows' },
  { key: 'demand.q', value: 200, unit: 'chars', what: 'demand import q' },
  { key: 'demand.page', value: 2048, unit: 'chars', what: 'demand import page' },
  { key: 'credits.n', value: 10_000_000, unit: 'credits', what: 'credits faucet n' },
  { key: 'credits.start', value: 100, unit: 'credits', what: 'credits granted at registration' },
  { key: 'credits.recent', value: 50, unit: 'rows', what: 'postings shown by GET /v1/credits (max n)' },
  { key: 'task.title', value: 120, unit: 'chars', what: 'task title' },
  { key: 'task.title_min', value: 3, unit: 'chars', what: 'task title minimum' },
  { key: 'task.body', value: 8 * KiB, unit: 'bytes', what: 'task body' },
  { key: 'task.tags', value: 5, unit: 'tags', what: 'tags per task' },
  { key: 'task.tag', value: 32, unit: 'chars', what: 'task tag' },
  { key: 'task.result', value: 4 * KiB, unit: 'bytes', what: 'task submission (done) text' },
  { key: 'task.note', value: 300, unit: 'chars', what: 'task rejection note' },
  { key: 'task.bounty.max', value: 1_000_000, unit: 'credits', what: 'bounty on one task' },
  { key: 'task.claim_ttl', value: 72, unit: 'h', what: 'a claim lapses after (then others may claim, the creator may release)' },
  { key: 'task.q', value: 200, unit: 'chars', what: 'task search text' },
  { key: 'task.page', value: 50, unit: 'rows', what: 'tasks per list page (max n)' },
  { key: 'space.slug', value: 32, unit: 'chars', what: 'space slug (a-z 0-9 -, at least 2)' },
  { key: 'space.title', value: 80, unit: 'chars', what: 'space title' },
  { key: 'space.created', value: 10, unit: 'spaces', what: 'spaces one identity may create' },
  { key: 'space.joined', value: 100, unit: 'spaces', what: 'spaces one identity may be a member of' },
  { key: 'space.members_shown', value: 20, unit: 'rows', what: 'members listed by GET /v1/spaces/{slug}' },
  { key: 'badge.max_age', value: 300, unit: 's', what: 'badge cache (public max-age)' },
  { key: 'att.revoked_keep', value: 365, unit: 'd', what: 'attestation revocation list kept' },
  { key: 'cache.anon_nets', value: 3, unit: 'networks', what: 'reader networks before a token is needed / checkpoint unpublished below L2' },
  { key: 'decision.note', value: 300, unit: 'chars', what: 'operator decision note' },
  { key: 'anchor.key', value: 256, unit: 'chars', what: 'anchor key' },
  { key: 'anchor.note', value: 200, unit: 'chars', what: 'anchor claim note' },
  { key: 'anchor.claimants', value: 100, unit: 'claims', what: 'claimants of one anchor key' },
  { key: 'anchor.per_id', value: 100, unit: 'claims', what: 'anchor claims per identity' },
  { key: 'anchor.ttl_d.default', value: 30, unit: 'd', what: 'anchor claim lifetime default (a re-claim renews it)' },
  { key: 'anchor.ttl_d.max', value: 365, unit: 'd', what: 'anchor claim lifetime maximum' },
  { key: 'note.title', value: 120, unit: 'chars', what: 'note title' },
  { key: 'note.body', value: 16 * KiB, unit: 'bytes', what: 'note body (UTF-8)' },
  { key: 'note.max', value: 1000, unit: 'notes', what: 'notes per identity (search decrypts at most this many)' },
  { key: 'note.q', value: 200, unit: 'chars', what: 'note search query' },
  { key: 'ws.page', value: 50, unit: 'rows', what: 'rows per page of notes, checkpoints, anchors, mail (n maximum)' },
  { key: 'cp.name', value: 64, unit: 'chars', what: 'checkpoint name' },
  { key: 'cp.body', value: 64 * KiB, unit: 'bytes', what: 'checkpoint body (UTF-8)' },
  { key: 'cp.max', value: 200, unit: 'checkpoints', what: 'live checkpoints per identity' },
  { key: 'cp.versions', value: 10, unit: 'saves', what: 'saves kept per checkpoint name (older ones are deleted)' },
  { key: 'cp.ttl_d.default', value: 90, unit: 'd', what: 'checkpoint lifetime default' },
  { key: 'cp.ttl_d.max', value: 365, unit: 'd', what: 'checkpoint lifetime maximum' },
  { key: 'cache.inline', value: 64 * KiB, unit: 'bytes', what: 'cached result inline text (UTF-8); larger results go to a blob' },
  { key: 'cache.ns', value: 32, unit: 'chars', what: 'cached result namespace' },
  { key: 'cache.per_id', value: 1000, unit: 'rows', what: 'live cached results per producer' },
  { key: 'cache.ttl_h.default', value: 168, unit: 'h', what: 'cached result lifetime default' },
  { key: 'cache.ttl_h.max', value: 720, unit: 'h', what: 'cached result lifetime maximum' },
  { key: 'cache.max_age', value: 300, unit: 's', what: 'edge cache of a public cached result (inline rows of L2+ producers)' },
  { key: 'blob.per_id', value: 64 * MiB, unit: 'bytes', what: 'blob bytes stored per identity' },
  { key: 'mail.body', value: 16 * KiB, unit: 'bytes', what: 'mail body (UTF-8)' },
  { key: 'mail.subject', value: 120, unit: 'chars', what: 'mail subject' },
  { key: 'mail.inbox', value: 1000, unit: 'messages', what: 'messages kept in one inbox (a full inbox refuses new mail)' },
  { key: 'mail.reason', value: 300, unit: 'chars', what: 'mail report reason' },
  { key: 'name.max', value: 32, unit: 'chars', what: 'identity name' },
  { key: 'shed.loop_delay', value: 1000, unit: 'ms', what: 'event-loop delay above which requests are shed (503 err busy)' },
  { key: 'shed.retry_after', value: 10, unit: 's', what: 'Retry-After when shedding' },
  { key: 'shed.max_level', value: 3, unit: 'level', what: 'highest shed level an operator can set (0 lifts it)' },
  { key: 'control.refresh', value: 2, unit: 's', what: 'freezes, shed level and maintenance windows are re-read from the store at least this often (another replica\'s change is seen within it)' },
  { key: 'control.note', value: 200, unit: 'chars', what: 'note of a freeze or reason of a shed level' },
  { key: 'stream.max', value: 100, unit: 'items', what: 'items one MCP tool call or A2A task collects from a stream at most (max=)' },
  { key: 'stream.wait', value: 60, unit: 's', what: 'seconds one MCP tool call or A2A task waits on a stream at most (wait=)' },
  { key: 'stream.open', value: 2000, unit: 'streams', what: 'open REST event streams per process (more: 503 err busy)' },
  { key: 'stream.open_net', value: 20, unit: 'streams', what: 'open REST event streams per network (more: 429 err quota)' },
  { key: 'stream.heartbeat', value: 15, unit: 's', what: 'SSE comment sent on an idle REST stream this often' },
  { key: 'shutdown.drain', value: 500, unit: 'ms', what: 'at shutdown, how long requests on open connections get 503 err busy with Connection: close before idle connections are closed' },
  { key: 'url.param', value: 2048, unit: 'chars', what: 'one path segment (longer: 414 err bad)' },
  { key: 'mcp.body', value: 1024 * KiB, unit: 'bytes', what: 'MCP JSON-RPC request body' },
  { key: 'mcp.sessions', value: 10_000, unit: 'sessions', what: 'open MCP sessions (Streamable HTTP and SSE together); when full, a new one ends the least recently seen' },
  { key: 'mcp.sessions_net', value: 100, unit: 'sessions', what: 'open MCP sessions per network; a new one beyond ends that network\'s least recently seen' },
  { key: 'mcp.idle', value: 1800, unit: 's', what: 'MCP session idle timeout' },
  { key: 'mcp.events', value: 1000, unit: 'events', what: 'MCP resumability events kept per session' },
  { key: 'mcp.sse_wait', value: 60, unit: 's', what: 'legacy /messages wait for the inline answer' },
  { key: 'store.wal_max', value: 64 * MiB, unit: 'bytes', what: 'SQLite write-ahead log size above which it is checkpointed and truncated while serving (checked every 250 ms)' },
  { key: 'body.default', value: 64 * KiB, unit: 'bytes', what: 'request body default cap' },
  { key: 'events.retention_h', value: 72, unit: 'h', what: 'bus events kept for resuming subscribers (older ones are pruned)' },
  { key: 'events.retention_max', value: 10_000, unit: 'events', what: 'bus events kept per topic at most (the oldest go first)' },
  { key: 'events.sweep', value: 600, unit: 's', what: 'bus event retention sweep runs every' },
  { key: 'events.buffer', value: 1000, unit: 'events', what: 'live events buffered per subscriber (a slower one catches up from the stored events)' },
  { key: 'jobs.backoff_base_ms', value: 2000, unit: 'ms', what: 'first retry delay of a failed job (doubled per try)' },
  { key: 'jobs.backoff_max_ms', value: 3_600_000, unit: 'ms', what: 'longest retry delay of a failed job' },
  { key: 'jobs.max_tries', value: 10, unit: 'tries', what: 'deliveries of a job before it is dead-lettered (default)' },
  { key: 'jobs.lease_ms', value: 30_000, unit: 'ms', what: 'job lease a worker takes (extended while the job runs)' },
  { key: 'jobs.poll_ms', value: 1000, unit: 'ms', what: 'idle worker looks for delayed or other-process jobs every' },
  { key: 'kb.signed_rows', value: 200, unit: 'rows', what: 'signed confirmations listed on /k/{id}/confirms (oldest first; the counts cover all)' },
  { key: 'trust.ring_refresh', value: 5, unit: 's', what: 'a process re-reads the signing key ring (rotation, certificate by another process) at most this old' },
  { key: 'trust.cert', value: 256, unit: 'chars', what: 'root certificate of the online signing key (POST /admin/online-key)' },
  { key: 'trust.cert_days', value: 400, unit: 'days', what: 'longest validity of an online-key certificate from now' },
  // ---- compute (src/wasm runner, src/core/compute services and calls) ----
  { key: 'compute.workers', value: 2, unit: 'workers', what: 'plugin runner worker threads per process' },
  { key: 'compute.queue', value: 64, unit: 'calls', what: 'calls waiting for a runner worker (more: 503 err busy)' },
  { key: 'compute.modules', value: 16, unit: 'modules', what: 'compiled modules cached per runner worker' },
  { key: 'compute.heap_mb', value: 64, unit: 'MiB', what: 'JS heap of one runner worker (the module memory is capped apart)' },
  { key: 'compute.time_ms', value: 2000, unit: 'ms', what: 'wall-clock limit of one call, default (a manifest may set up to the maximum)' },
  { key: 'compute.time_ms.max', value: 10_000, unit: 'ms', what: 'wall-clock limit of one call, maximum' },
  { key: 'compute.mem_pages', value: 256, unit: 'pages', what: 'module linear memory cap, default (64 KiB pages: 16 MiB)' },
  { key: 'compute.mem_pages.max', value: 1024, unit: 'pages', what: 'module linear memory cap, maximum (64 MiB)' },
  { key: 'compute.in_bytes', value: 256 * KiB, unit: 'bytes', what: 'input of one call' },
  { key: 'compute.out_bytes', value: 256 * KiB, unit: 'bytes', what: 'output of one call, default cap (a manifest may set up to the maximum)' },
  { key: 'compute.out_bytes.max', value: 1 * MiB, unit: 'bytes', what: 'output of one call, maximum cap' },
  { key: 'compute.var_bytes', value: 64 * KiB, unit: 'bytes', what: 'plugin variables (Extism vars) of one call' },
  { key: 'compute.price', value: 1, unit: 'credits', what: 'credits one call costs (paid to the donor that ran it; the server by default)' },
  { key: 'compute.keep_d', value: 30, unit: 'd', what: 'call results kept readable (GET /v1/run/{id})' },
  { key: 'svc.name', value: 32, unit: 'chars', what: 'service name (a-z 0-9 -, starts with a letter)' },
  { key: 'svc.kats', value: 32, unit: 'tests', what: 'known-answer tests in one manifest' },
  { key: 'svc.kat_bytes', value: 16 * KiB, unit: 'bytes', what: 'input or expected output of one known-answer test' },
  { key: 'svc.versions', value: 100, unit: 'versions', what: 'versions listed per service (newest first)' },
  { key: 'svc.page', value: 50, unit: 'rows', what: 'services per page of GET /v1/svc' },
  { key: 'svc.desc', value: 300, unit: 'chars', what: 'service description (the MCP tool description)' },
  { key: 'svc.ok_note', value: 200, unit: 'chars', what: 'note of an L2 ok report' },
  { key: 'blob.admin', value: 64 * MiB, unit: 'bytes', what: 'operator blob cap (PUT /admin/blob, above the public cap)' },
  { key: 'compute.lease_ms', value: 60_000, unit: 'ms', what: 'a donor\'s lease on a job replica (past it the slot goes to another donor)' },
  { key: 'compute.n.l0', value: 1, unit: 'replicas', what: 'replicas (n) of a job an L0 identity may ask for (L1 3, L2 5, L3 7)' },
  { key: 'compute.donor_bad', value: 3, unit: 'results', what: 'reported results after which a donor that has more reported than agreeing results gets no lease (unless operator-trusted)' },
  // ---- end compute ----
  { key: 'pow.reg_bits', value: POW.reg_bits, unit: 'bits', what: 'PoW difficulty for registration' },
  { key: 'pow.w_bits', value: POW.w_bits, unit: 'bits', what: 'PoW difficulty for anonymous writes' },
  { key: 'pow.ttl', value: POW.ttl_s, unit: 's', what: 'PoW challenge lifetime' },
];

const byKey = new Map(LIMITS.map((l) => [l.key, l.value]));

/** A number from the table; throws on a typo so a wrong key fails at start-up, not silently. */
export function limit(key: string): number {
  const v = byKey.get(key);
  if (v === undefined) throw new Error(`unknown limit ${key}`);
  return v;
}
