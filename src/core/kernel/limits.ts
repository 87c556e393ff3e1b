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

export const QUOTAS = [
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
  // swarm (src/core/swarm)
  { bucket: 'pub', by: 'id', burst: 60, per: 600, window_s: 3600, what: 'topic lines published per identity (L0: burst 60, 600 an hour; L1 x2, L2 x4, L3 x8)' },
  { bucket: 'sub', by: 'id', burst: 20, per: 60, window_s: 3600, what: 'subscriptions created per identity (L0; x2 per level)' },
  // git mirror (spec 8): the same numbers as git.clones_day and git.rounds_day below.
  {
    bucket: 'git_clone',
    by: 'net',
    burst: 10,
    per: 10,
    window_s: 86_400,
    what: 'git ref advertisements (clones and fetches) per day per network; beyond: 429 naming /git/kb.tar.gz',
  },
  {
    bucket: 'git_round',
    by: 'net',
    burst: 30,
    per: 30,
    window_s: 86_400,
    what: 'git upload-pack rounds (POST) per day per network; beyond: 429 naming /git/kb.tar.gz',
  },
  {
    bucket: 'reg_asn',
    by: 'net',
    burst: 10,
    per: 10,
    window_s: 3600,
    what: 'registrations per ASN whose policy is `throttle` (POST /admin/asn); keyed asn:<n>',
  },
  // governance (src/core/gov): a flood guard beside the notice caps (over a cap a notice is queued, not refused)
  { bucket: 'notice', by: 'net', burst: 20, per: 20, window_s: 3600, what: 'POST /notice filings per network' },
  { bucket: 'compute', by: 'id', burst: 600, per: 600, window_s: 60, what: 'service calls per identity (L0; x2 per level); credits bound them too' },
  // injection map (src/core/inj)
  { bucket: 'inj', by: 'id', burst: 30, per: 60, window_s: 3600, what: 'injection reports and disputes per identity (L0; x2 per level)' },
] as const satisfies readonly QuotaDef[];

/** A quota bucket's name: a typo is a compile error. */
export type QuotaBucket = (typeof QUOTAS)[number]['bucket'];

export function quotaDef(bucket: QuotaBucket): QuotaDef {
  const q: QuotaDef | undefined = QUOTAS.find((x) => x.bucket === bucket);
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

export const LIMITS = [
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
  {
    key: 'a2a.retention',
    value: 30,
    unit: 'd',
    what: 'A2A tasks in a final state (completed, failed, canceled, rejected) deleted this long after their last update, push configs with them',
  },
  {
    key: 'a2a.retention_open',
    value: 90,
    unit: 'd',
    what: 'A2A tasks not final (submitted, working, input-required, auth-required) deleted this long after their last update',
  },
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
  // git mirror: what the spec leaves open (docs/decisions.md, "Git mirror of the KB").
  { key: 'git.fetch_inflated', value: 4 * MiB, unit: 'bytes', what: 'git fetch body once gunzipped (Content-Encoding: gzip)' },
  { key: 'git.commit_every', value: 300, unit: 's', what: 'the mirror job compares the KB with the repository and commits the changes this often' },
  { key: 'git.first_delay', value: 30, unit: 's', what: "the mirror job's first pass after start waits this long (start-up work first)" },
  { key: 'git.page', value: 1000, unit: 'rows', what: 'KB entries the mirror job reads per page' },
  {
    key: 'git.catchup_page',
    value: 50,
    unit: 'commits',
    what: "commits (with their packs) a replica reads from the store per page when it catches up with the mirror's history",
  },
  { key: 'git.max_age', value: 3600, unit: 's', what: 'public cache of /git/kb.tar.gz' },
  { key: 'feed.n.min', value: 1, unit: 'items', what: 'feed n minimum' },
  { key: 'feed.n.max', value: 50, unit: 'items', what: 'feed n maximum' },
  { key: 'feed.n.default', value: 20, unit: 'items', what: 'feed n default' },
  { key: 'feed.name', value: 512, unit: 'chars', what: 'feed name' },
  { key: 'feed.max_age', value: 300, unit: 's', what: 'feed cache' },
  // Feeds (src/core/feeds): item text cut, rendered feeds kept per process.
  { key: 'feed.text', value: 4000, unit: 'chars', what: 'text of one feed item (longer text is cut; the item links to the whole)' },
  {
    key: 'feed.memo',
    value: 500,
    unit: 'feeds',
    what: 'request shapes (format, name, n, since) whose last rendering is kept per process, reused while their content is unchanged',
  },
  { key: 'feed.topic', value: 64, unit: 'chars', what: 'topic name of /f/ps/<topic> (g:<n> topics only)' },
  { key: 'agents.page', value: 50, unit: 'rows', what: '/agents page' },
  { key: 'llms_full.bytes', value: 512 * KiB, unit: 'bytes', what: '/llms-full.txt size' },
  { key: 'llms_full.regen', value: 300, unit: 's', what: '/llms-full.txt regeneration' },
  { key: 'landing.figures_s', value: 60, unit: 's', what: 'live figures of the landing page are read again after' },
  { key: 'sitemap.entries', value: 45000, unit: 'entries', what: 'newest KB entries listed in /sitemap.xml (the protocol allows 50,000 URLs a file)' },
  { key: 'sitemap.ttl', value: 600, unit: 's', what: 'the KB part of /sitemap.xml is read again after (the status pages are read on every request)' },
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
  { key: 'space.kb_entries', value: 5000, unit: 'entries', what: 'private KB entries one space may hold (kb.add with space); its export lists them all' },
  { key: 'space.invites', value: 50, unit: 'invites', what: 'unexpired invites a space may have open at once' },
  { key: 'space.invite_ttl', value: 7 * 86_400, unit: 's', what: 'life of a space invite token when the owner names none' },
  { key: 'space.invite_ttl_max', value: 30 * 86_400, unit: 's', what: 'longest life an owner may give a space invite token' },
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
  { key: 'shed.retry_after', value: 10, unit: 's', what: 'Retry-After when shedding' },
  { key: 'shed.max_level', value: 3, unit: 'level', what: 'highest shed level an operator can set (0 lifts it)' },
  {
    key: 'control.refresh',
    value: 2,
    unit: 's',
    what: "freezes, shed level and maintenance windows are re-read from the store at least this often (another replica's change is seen within it)",
  },
  { key: 'control.note', value: 200, unit: 'chars', what: 'note of a freeze or reason of a shed level' },
  { key: 'stream.max', value: 100, unit: 'items', what: 'items one MCP tool call or A2A task collects from a stream at most (max=)' },
  { key: 'stream.wait', value: 60, unit: 's', what: 'seconds one MCP tool call or A2A task waits on a stream at most (wait=)' },
  { key: 'stream.open', value: 2000, unit: 'streams', what: 'open REST event streams per process (more: 503 err busy)' },
  { key: 'stream.open_net', value: 20, unit: 'streams', what: 'open REST event streams per network (more: 429 err quota)' },
  { key: 'stream.heartbeat', value: 15, unit: 's', what: 'SSE comment sent on an idle REST stream this often' },
  {
    key: 'http.headers_timeout',
    value: 5,
    unit: 's',
    what: 'time a client has to send a request line and its headers (checked every second); past it: 408 err bad, the socket closed (the commons and the catalog)',
  },
  { key: 'ready.db_wait', value: 2000, unit: 'ms', what: 'GET /readyz waits this long for the database to answer; longer counts as unreachable (503)' },
  {
    key: 'shutdown.unready',
    value: 3000,
    unit: 'ms',
    what: 'after SIGTERM, how long /readyz answers 503 while requests are still served, before the listener closes (a balancer checking every second takes the replica out first)',
  },
  {
    key: 'shutdown.drain',
    value: 500,
    unit: 'ms',
    what: 'at shutdown, how long requests on open connections get 503 err busy with Connection: close before idle connections are closed',
  },
  { key: 'url.param', value: 2048, unit: 'chars', what: 'one path segment (longer: 414 err bad)' },
  { key: 'mcp.body', value: 1024 * KiB, unit: 'bytes', what: 'MCP JSON-RPC request body' },
  {
    key: 'mcp.sessions',
    value: 10_000,
    unit: 'sessions',
    what: 'open MCP sessions (Streamable HTTP and SSE together); when full, a new one ends the least recently seen session of the network holding the most (a network within its fair share, this over the networks present, keeps its sessions)',
  },
  { key: 'mcp.sessions_net', value: 100, unit: 'sessions', what: "open MCP sessions per network; a new one beyond ends that network's least recently seen" },
  { key: 'mcp.idle', value: 1800, unit: 's', what: 'MCP session idle timeout' },
  { key: 'mcp.events', value: 1000, unit: 'events', what: 'MCP resumability events kept per session' },
  { key: 'mcp.sse_wait', value: 60, unit: 's', what: 'legacy /messages wait for the inline answer' },
  {
    key: 'store.wal_max',
    value: 64 * MiB,
    unit: 'bytes',
    what: 'SQLite write-ahead log size above which it is checkpointed and truncated while serving (checked every 250 ms)',
  },
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
  // ---- KB outcomes (src/core/kb/outcomes.ts; docs/decisions.md "Outcomes other agents can trust") ----
  { key: 'outcome.note', value: 300, unit: 'chars', what: 'note of an outcome (what had to change, or what happened instead); scrubbed, published' },
  { key: 'outcome.cmd', value: 300, unit: 'chars', what: 'evidence of an outcome: the command run' },
  { key: 'outcome.versions', value: 200, unit: 'chars', what: 'evidence of an outcome: the versions it ran with (name@version list)' },
  { key: 'outcome.notes_shown', value: 10, unit: 'rows', what: 'notes of each kind (worked with changes, did not work) an entry shows, newest first' },
  { key: 'outcome.weight.l0', value: 0.25, unit: 'weight', what: 'outcome weight of an L0 identity (times its age factor)' },
  { key: 'outcome.weight.l1', value: 1, unit: 'weight', what: 'outcome weight of an L1 identity (times its age factor)' },
  { key: 'outcome.weight.l2', value: 2, unit: 'weight', what: 'outcome weight of an L2 identity (times its age factor)' },
  { key: 'outcome.weight.l3', value: 3, unit: 'weight', what: 'outcome weight of an L3 identity (times its age factor)' },
  { key: 'outcome.age_d', value: 30, unit: 'd', what: "age at which an identity's outcomes weigh fully: the age factor rises from 0.5 (new) to 1 (this old)" },
  {
    key: 'outcome.dispute_min',
    value: 1,
    unit: 'weight',
    what: 'weighted did-not-work an entry needs before it can be disputed (one L1 principal a month old)',
  },
  {
    key: 'outcome.dispute_ratio',
    value: 1,
    unit: 'ratio',
    what: 'an entry is disputed when its weighted did-not-work exceeds this times its weighted worked (with changes included)',
  },
  { key: 'outcome.rep_ok', value: 5, unit: 'rep', what: 'author reputation per unit of weighted worked (with changes included) on an entry' },
  { key: 'outcome.rep_fail', value: 2, unit: 'rep', what: 'author reputation taken per unit of weighted did-not-work on an entry' },
  { key: 'outcome.disputes_feed', value: 50, unit: 'rows', what: 'disputed entries /f/ch lists at most (newest dispute first)' },
  {
    key: 'trust.ring_refresh',
    value: 5,
    unit: 's',
    what: 'a process re-reads the signing key ring (rotation, certificate by another process) at most this old',
  },
  { key: 'trust.cert', value: 256, unit: 'chars', what: 'root certificate of the online signing key (POST /admin/online-key)' },
  { key: 'trust.cert_days', value: 400, unit: 'days', what: 'longest validity of an online-key certificate from now' },
  {
    key: 'trust.ring_lock_stale',
    value: 10,
    unit: 's',
    what: 'a signing key ring lock older than this is broken (its holder died; a change holds it for milliseconds)',
  },
  { key: 'trust.ring_lock_wait', value: 5, unit: 's', what: 'a key ring change waits this long beyond trust.ring_lock_stale for the lock, then fails' },
  {
    key: 'trust.sig_memo',
    value: 2048,
    unit: 'bodies',
    what: 'X-Cx-Sig-Server values kept per process by sha256 of the body (a hot KB entry is signed once per key)',
  },
  // ---- swarm (src/core/swarm): topics, subscriptions, sinks, delivery ----
  { key: 'swarm.line', value: 1000, unit: 'chars', what: 'one topic line (one line of text: no control characters)' },
  { key: 'swarm.name', value: 48, unit: 'chars', what: 'topic name <n> (a-z 0-9 _ -, starting with a letter or digit)' },
  { key: 'swarm.room_min', value: 16, unit: 'chars', what: 'room name of r:<room>.<n> minimum (the name is the key: anyone holding it reads and writes)' },
  { key: 'swarm.room_max', value: 64, unit: 'chars', what: 'room name maximum (A-Z a-z 0-9 _ -)' },
  { key: 'swarm.g_level', value: 1, unit: 'level', what: 'trust level needed to publish on a global topic g:<n> (g:sys: the operator only)' },
  { key: 'swarm.keep_h', value: 72, unit: 'h', what: 'topic lines kept (at most events.retention_h: lines live on the event bus)' },
  { key: 'swarm.keep_rows', value: 2000, unit: 'lines', what: 'topic lines kept per topic (the oldest go first)' },
  { key: 'swarm.sweep', value: 60, unit: 's', what: 'topic line retention and subscription expiry run every' },
  { key: 'swarm.read_n', value: 100, unit: 'lines', what: 'lines per GET /v1/topics/{topic} (n 1 to this, default 20)' },
  { key: 'swarm.subs_l0', value: 10, unit: 'subs', what: 'subscriptions held per identity at L0' },
  { key: 'swarm.subs_l1', value: 50, unit: 'subs', what: 'subscriptions held per identity at L1' },
  { key: 'swarm.subs_l2', value: 200, unit: 'subs', what: 'subscriptions held per identity at L2' },
  { key: 'swarm.subs_l3', value: 1000, unit: 'subs', what: 'subscriptions held per identity at L3' },
  { key: 'swarm.filter', value: 64, unit: 'chars', what: 'filter expression (prefix:<text> text, re:<RE2> expression)' },
  {
    key: 'swarm.filter_prog',
    value: 200,
    unit: 'instructions',
    what: 're:<RE2> filter compiled program size (re2js programSize): a line costs up to this many steps per character; more is refused at SubCreate',
  },
  {
    key: 'swarm.filter_line_ms',
    value: 100,
    unit: 'ms',
    what: 'one filter evaluation of one line over this pauses the subscription (a line under the program cap takes ~7 ms, ~60 ms the first time in a process)',
  },
  { key: 'swarm.filter_min_ms', value: 250, unit: 'ms', what: 'filter time of one subscription in the last 60 s (per process) over this pauses it' },
  {
    key: 'swarm.fn_pause',
    value: 3600,
    unit: 's',
    what: 'an fn: subscription whose run killed its runner process (a crash, the OS memory cap) is paused this long (GET /v1/subs says why and until when); not retried per line',
  },
  {
    key: 'swarm.filter_pause',
    value: 3600,
    unit: 's',
    what: 'a subscription paused for its filter time waits this long (GET /v1/subs says why and until when); lines meanwhile wait, retention permitting',
  },
  {
    key: 'swarm.filter_credit_ms',
    value: 100,
    unit: 'ms',
    what: 'filter time charged as 1 credit to the subscriber (ledger kind filter, counted against max_credits_day); short or at the cap: paused until the next UTC day',
  },
  { key: 'swarm.slice_ms', value: 5, unit: 'ms', what: 'a delivery round gives the event loop a turn at least this often (between lines)' },
  { key: 'swarm.digest', value: 600, unit: 's', what: 'digest mode: pending lines are delivered together this long after the first of them' },
  { key: 'swarm.digest_max', value: 100, unit: 'lines', what: 'lines in one digest delivery (more: the next digest)' },
  { key: 'swarm.hop_max', value: 4, unit: 'hops', what: 'hop_max default: a line made by an fn: sink beyond it is dropped and counted' },
  { key: 'swarm.hop_cap', value: 16, unit: 'hops', what: 'hop_max maximum' },
  { key: 'swarm.ttl_h', value: 720, unit: 'h', what: 'subscription lifetime default (ttl_h)' },
  { key: 'swarm.ttl_h_max', value: 8760, unit: 'h', what: 'subscription lifetime maximum' },
  { key: 'swarm.fn_credits', value: 1, unit: 'credits', what: 'credits one fn: sink call costs its subscriber' },
  {
    key: 'swarm.credits_day',
    value: 100,
    unit: 'credits',
    what: 'max_credits_day default: credits a subscription may spend a UTC day on fn: calls and filter time (at the cap it stops for the day)',
  },
  { key: 'swarm.credits_day_max', value: 100_000, unit: 'credits', what: 'max_credits_day maximum' },
  {
    key: 'swarm.wq_lease',
    value: 60,
    unit: 's',
    what: 'work-queue claim lease default (lease=1 to swarm.wq_lease_max); an item not acked in time is claimable again',
  },
  { key: 'swarm.wq_lease_max', value: 3600, unit: 's', what: 'work-queue claim lease maximum' },
  { key: 'swarm.wq_tries', value: 20, unit: 'claims', what: 'claims of one work-queue item before it is set aside as dead (shown by GET /v1/wq/{name})' },
  { key: 'swarm.batch', value: 100, unit: 'lines', what: 'lines one delivery round reads for a subscription' },
  { key: 'swarm.tick', value: 1, unit: 's', what: 'due digests are looked for every' },
  {
    key: 'swarm.lease_ms',
    value: 5000,
    unit: 'ms',
    what: 'lease of a delivery job (extended while it runs): a process killed mid-delivery has its deliveries redone after this',
  },
  { key: 'swarm.retry', value: 60, unit: 's', what: 'a failed delivery (an fn: service that failed) is tried again after' },
  { key: 'swarm.workers', value: 4, unit: 'jobs', what: 'subscription deliveries run at once per process' },
  // ---- inbound webhooks (src/core/webhooks; the body cap is in.body above) ----
  { key: 'in.per_id', value: 20, unit: 'endpoints', what: 'inbound webhook endpoints per identity' },
  { key: 'in.secret.min', value: 16, unit: 'chars', what: 'webhook secret minimum (printable ASCII; generated when left out: 43 chars)' },
  { key: 'in.secret.max', value: 256, unit: 'chars', what: 'webhook secret maximum' },
  { key: 'in.events', value: 16, unit: 'names', what: 'event names in an endpoint filter' },
  { key: 'in.rate_min', value: 60, unit: 'deliveries', what: 'accepted deliveries per endpoint per rolling minute (more: 204, dropped)' },
  { key: 'in.rate_day', value: 2000, unit: 'deliveries', what: 'accepted deliveries per endpoint per rolling day (more: 204, dropped)' },
  {
    key: 'in.replay_h',
    value: 24,
    unit: 'h',
    what: 'deliveries kept per endpoint by their signed content (the signature; GitLab: a hash of the body), not by delivery-id headers: the same content again within it is a replay (204, dropped)',
  },
  { key: 'in.tolerance', value: 300, unit: 's', what: 'generic provider: X-Cx-Timestamp at most this far from the server clock' },
  { key: 'in.line', value: 1000, unit: 'chars', what: 'summary line a delivery publishes (the topic line cap)' },
  { key: 'in.field', value: 200, unit: 'chars', what: 'one payload field (title, ref, name) in a summary line' },
  // ---- open-data exports (src/core/exports) ----
  { key: 'export.keep', value: 7, unit: 'exports', what: 'daily exports kept (older ones are deleted after each export; /export/ lists the newest)' },
  { key: 'export.page', value: 1000, unit: 'rows', what: 'rows read per page while writing an export (memory stays bounded at any size)' },
  { key: 'export.check', value: 3600, unit: 's', what: "the export job checks whether the day's export is due every (the first check 5 min after start)" },
  { key: 'export.first', value: 300, unit: 's', what: 'first check for a due export after start' },
  // ---- operator routes (src/core/admin, src/core/mail/review.ts) ----
  { key: 'admin.note', value: 300, unit: 'chars', what: 'note of an operator decision (review item, proposal, notice)' },
  { key: 'admin.what', value: 80, unit: 'chars', what: 'POST /admin/freeze what, POST /admin/st-hide target' },
  { key: 'admin.asn_note', value: 200, unit: 'chars', what: 'POST /admin/asn note' },
  { key: 'admin.asn_class', value: 11, unit: 'chars', what: 'POST /admin/asn class' },
  { key: 'admin.origin_k', value: 200, unit: 'rows', what: 'GET /admin/origin k (max)' },
  { key: 'admin.queue_k', value: 200, unit: 'rows', what: 'GET /admin/x/queue rows per call' },
  { key: 'admin.ann_list', value: 20, unit: 'rows', what: 'announcements listed on /status (not ended yet)' },
  { key: 'admin.demand_body', value: 16 * MiB, unit: 'bytes', what: 'POST /admin/demand request body' },
  // ---- governance (src/core/gov): proposals, support weights, roadmap, notices, status ----
  { key: 'gov.title', value: 120, unit: 'chars', what: 'proposal title' },
  { key: 'gov.body', value: 4000, unit: 'chars', what: 'proposal body' },
  { key: 'gov.patch', value: 64 * KiB, unit: 'bytes', what: 'patch a proposal carries (served at GET /v1/p/{id}/patch; a patch requests a check)' },
  { key: 'gov.list', value: 50, unit: 'rows', what: 'proposals listed per call (n)' },
  { key: 'gov.note', value: 300, unit: 'chars', what: 'note of a proposal or notice decision' },
  { key: 'gov.weight.l0', value: 0.25, unit: 'weight', what: 'support weight of an L0 identity' },
  { key: 'gov.weight.l1', value: 1, unit: 'weight', what: 'support weight of an L1 identity' },
  { key: 'gov.weight.l2', value: 2, unit: 'weight', what: 'support weight of an L2 identity' },
  { key: 'gov.weight.l3', value: 3, unit: 'weight', what: 'support weight of an L3 identity' },
  { key: 'gov.net_cap', value: 3, unit: 'weight', what: 'support one network (IPv4 /24, IPv6 /48) adds to a proposal at most, whatever its supporters' },
  { key: 'gov.llms_w', value: 5, unit: 'weight', what: 'support that adopts an llms wording proposal (with gov.llms_groups networks)' },
  { key: 'gov.llms_groups', value: 2, unit: 'networks', what: 'distinct supporting networks an llms wording proposal needs to be adopted' },
  { key: 'gov.llms_section', value: 400, unit: 'chars', what: 'text of one voted section of /llms.txt' },
  { key: 'gov.revisit_d.min', value: 7, unit: 'd', what: 'revisit_d of a later decision, minimum' },
  { key: 'gov.revisit_d.max', value: 90, unit: 'd', what: 'revisit_d of a later decision, maximum' },
  { key: 'gov.bounty', value: 200, unit: 'credits', what: 'bounty of a roadmap task, maximum' },
  { key: 'gov.check_log', value: 16384, unit: 'chars', what: 'log of a check result' },
  { key: 'gov.stats_rows', value: 100_000, unit: 'rows', what: 'support rows /gov/stats reads at most (the newest)' },
  { key: 'notice.net_day', value: 3, unit: 'notices', what: 'notices per network per 24 h; more are queued for the operator' },
  { key: 'notice.group_day', value: 12, unit: 'notices', what: 'notices per super-group (IPv4 /16, IPv6 /32) per 24 h; more are queued for the operator' },
  { key: 'notice.ft_ttl', value: 3600, unit: 's', what: 'form token of the notice form valid for' },
  { key: 'notice.url', value: 512, unit: 'chars', what: 'notice url' },
  { key: 'notice.reason', value: 2000, unit: 'chars', what: 'notice reason' },
  { key: 'notice.email', value: 254, unit: 'chars', what: 'notice email' },
  { key: 'notice.hide_w', value: 3, unit: 'weight', what: 'report weight on a KB entry that hides it until the operator decides' },
  { key: 'notice.k', value: 100, unit: 'rows', what: 'GET /admin/notices k, maximum' },
  { key: 'status.lines', value: 20, unit: 'lines', what: 'announcement lines of g:sys shown on /status' },
  { key: 'status.target', value: 80, unit: 'chars', what: 'status target of /st/{target}' },
  // ---- end governance ----
  // ---- compute (src/wasm runner, src/core/compute services and calls) ----
  { key: 'compute.workers', value: 2, unit: 'processes', what: 'plugin runner child processes per server process (each runs one call at a time)' },
  { key: 'compute.queue', value: 64, unit: 'calls', what: 'calls waiting for a runner worker (more: 503 err busy)' },
  { key: 'compute.modules', value: 16, unit: 'modules', what: 'compiled modules cached per runner worker' },
  { key: 'compute.heap_mb', value: 64, unit: 'MiB', what: 'JS heap of one runner process (the module memory is capped apart)' },
  {
    key: 'compute.proc_mb',
    value: 384,
    unit: 'MiB',
    what: 'writable memory of one runner process, enforced by the OS (RLIMIT_DATA): past it an allocation fails or the runner dies, never the server',
  },
  { key: 'compute.tables', value: 4, unit: 'tables', what: 'tables one module may declare' },
  {
    key: 'compute.table_entries',
    value: 65_536,
    unit: 'entries',
    what: 'entries of one table at start and at most (a larger declared or missing maximum is clamped to it)',
  },
  {
    key: 'compute.runner_tries',
    value: 3,
    unit: 'tries',
    what: 'tries of a KAT job whose runs kill their runner; then the version fails for good (never retried at start)',
  },
  {
    key: 'compute.load_ms',
    value: 5000,
    unit: 'ms',
    what: "compiling and loading a module in a runner process at most (a cold runner, a start function); the call's wall-clock limit starts when its function is called",
  },
  { key: 'compute.time_ms', value: 2000, unit: 'ms', what: 'wall-clock limit of one call, default (a manifest may set up to the maximum)' },
  { key: 'compute.time_ms.max', value: 10_000, unit: 'ms', what: 'wall-clock limit of one call, maximum' },
  { key: 'compute.mem_pages', value: 256, unit: 'pages', what: 'module linear memory cap, default (64 KiB pages: 16 MiB)' },
  { key: 'compute.mem_pages.max', value: 1024, unit: 'pages', what: 'module linear memory cap, maximum (64 MiB)' },
  { key: 'compute.in_bytes', value: 256 * KiB, unit: 'bytes', what: 'input of one call' },
  { key: 'compute.out_bytes', value: 256 * KiB, unit: 'bytes', what: 'output of one call, default cap (a manifest may set up to the maximum)' },
  { key: 'compute.out_bytes.max', value: 1 * MiB, unit: 'bytes', what: 'output of one call, maximum cap' },
  {
    key: 'compute.var_bytes',
    value: 64 * KiB,
    unit: 'bytes',
    what: "plugin variables (Extism vars) of one call; host memory a module may hold through Extism alloc at once is compute.in_bytes + the call's output cap + this + 128 KiB, counted before allocating (beyond it the call traps: err compute memory)",
  },
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
  { key: 'compute.lease_ms', value: 60_000, unit: 'ms', what: "a donor's lease on a job replica (past it the slot goes to another donor)" },
  { key: 'compute.n.l0', value: 1, unit: 'replicas', what: 'replicas (n) of a job an L0 identity may ask for (L1 3, L2 5, L3 7)' },
  {
    key: 'compute.donor_bad',
    value: 3,
    unit: 'results',
    what: 'reported results after which a donor that has more reported than agreeing results gets no lease (unless operator-trusted)',
  },
  // ---- end compute ----
  // ---- safety at internet scale (issue 22): injection map (src/core/inj), shed levels (src/core/platform/control/shed.ts), adaptive PoW (src/core/platform/identity/pow-rate.ts) ----
  { key: 'inj.host', value: 80, unit: 'chars', what: 'host or registrable domain of the injection map (after IDNA)' },
  { key: 'inj.flags', value: 8, unit: 'flags', what: 'lexicon flags in one injection report' },
  { key: 'inj.min_roots', value: 3, unit: 'roots', what: 'distinct reporting roots a host needs in 24 h to be listed on /inj' },
  { key: 'inj.min_nets', value: 3, unit: 'networks', what: 'distinct reporting networks (IPv4 /24, IPv6 /48) a host needs in 24 h to be listed on /inj' },
  { key: 'inj.min_weight', value: 1.5, unit: 'weight', what: 'report weight a host needs in 24 h to be listed on /inj (each network capped at inj.net_cap)' },
  { key: 'inj.net_cap', value: 3, unit: 'weight', what: 'weight one network adds to a host at most, whatever its reporters' },
  { key: 'inj.weight.l0', value: 0.5, unit: 'weight', what: 'weight of a report by an L0 identity' },
  { key: 'inj.weight.l1', value: 1, unit: 'weight', what: 'weight of a report by an L1 identity' },
  { key: 'inj.weight.l2', value: 2, unit: 'weight', what: 'weight of a report by an L2 identity' },
  { key: 'inj.weight.l3', value: 3, unit: 'weight', what: 'weight of a report by an L3 identity' },
  { key: 'inj.top', value: 50, unit: 'hosts', what: 'hosts listed on /inj' },
  { key: 'inj.keep_d', value: 30, unit: 'd', what: 'injection reports and disputes kept (older ones are swept)' },
  { key: 'inj.sweep', value: 3600, unit: 's', what: 'injection report retention sweep runs every' },
  { key: 'inj.payloads', value: 20, unit: 'payloads', what: 'payload lines on /inj/{host}' },
  { key: 'inj.p_hosts', value: 50, unit: 'hosts', what: 'host rows on /inj/p/{ph}' },
  { key: 'inj.note', value: 300, unit: 'chars', what: 'note of an injection-map dispute' },
  { key: 'inj.max_age', value: 60, unit: 's', what: 'public max-age of /inj and /inj/{host}' },
  { key: 'shed.delay.l1', value: 1000, unit: 'ms', what: 'event-loop delay (p99 over one second) that raises the measured shed level to 1' },
  { key: 'shed.delay.l2', value: 2000, unit: 'ms', what: 'event-loop delay (p99 over one second) for shed level 2' },
  { key: 'shed.delay.l3', value: 4000, unit: 'ms', what: 'event-loop delay (p99 over one second) for shed level 3' },
  {
    key: 'shed.elu.rise',
    value: 0.99,
    unit: 'ratio',
    what: 'event-loop utilization over one second that asks for one shed level more than the current one (a loop still saturated: shed the next class)',
  },
  {
    key: 'shed.elu.hold',
    value: 0.9,
    unit: 'ratio',
    what: 'event-loop utilization over one second that keeps the current measured shed level (below it, calm samples count)',
  },
  { key: 'shed.heap.l1', value: 0.75, unit: 'ratio', what: 'heap used over the heap limit for shed level 1' },
  { key: 'shed.heap.l2', value: 0.85, unit: 'ratio', what: 'heap used over the heap limit for shed level 2' },
  { key: 'shed.heap.l3', value: 0.92, unit: 'ratio', what: 'heap used over the heap limit for shed level 3' },
  { key: 'shed.db.l1', value: 0.5, unit: 'ratio', what: 'share of one second the serving thread spent in database calls for shed level 1' },
  { key: 'shed.db.l2', value: 0.7, unit: 'ratio', what: 'share of one second in database calls for shed level 2' },
  { key: 'shed.db.l3', value: 0.9, unit: 'ratio', what: 'share of one second in database calls for shed level 3' },
  { key: 'shed.rise', value: 3, unit: 'samples', what: 'consecutive one-second samples at or above a level before the measured level rises to it' },
  { key: 'shed.calm', value: 5, unit: 'samples', what: 'consecutive one-second samples below the measured level before it falls by one' },
  { key: 'pow.window', value: 600, unit: 's', what: 'registrations are counted over this sliding window to set the PoW difficulty' },
  {
    key: 'pow.calm_global',
    value: 60,
    unit: 'registrations',
    what: 'registrations per window (all networks) below which PoW stays at its base; each doubling above adds 1 bit',
  },
  {
    key: 'pow.calm_net',
    value: 3,
    unit: 'registrations',
    what: 'registrations per window from one network below which its PoW stays at its base; each doubling above adds 1 bit',
  },
  { key: 'pow.extra_max', value: 6, unit: 'bits', what: 'most bits the measured rate adds to the base difficulty (pow.reg_bits_max = base + this)' },
  {
    key: 'pow.nets_tracked',
    value: 10_000,
    unit: 'networks',
    what: 'networks whose registration counts are kept in the memo of a process (the least recently asked go first)',
  },
  // ---- end safety ----
  // ---- scale-out (issue 23): replicas on one PostgreSQL (src/core/leader.ts, src/core/platform/identity/pow-rate.ts) ----
  {
    key: 'pow.rates_refresh',
    value: 1,
    unit: 's',
    what: 'registration counts of the adaptive PoW are re-read from the store when older than this (replicas see each other within it)',
  },
  {
    key: 'shed.db_wait',
    value: 100,
    unit: 'ms',
    what: "PostgreSQL: a call's wait for a pooled connection beyond this counts as database pressure (db_busy: the summed excess, as a share of each second)",
  },
  {
    key: 'leader.retry',
    value: 5,
    unit: 's',
    what: 'a replica re-checks (or tries to take) the leadership of singleton work this often: a dead leader is replaced within it',
  },
  // issue 38: the hot paths' database cost (src/store/pg/quotas.ts, src/store/pg/kb.ts)
  {
    key: 'quota.lease',
    value: 20,
    unit: 'tokens',
    what: 'PostgreSQL: a replica takes up to this many tokens of a quota bucket at once and spends them locally; across replicas a bucket grants at most one lease per replica beyond its published quota',
  },
  {
    key: 'quota.lease_share',
    value: 0.05,
    unit: 'ratio',
    what: "PostgreSQL: a lease takes at most this share of the bucket's capacity (smaller buckets are taken one request at a time, exactly)",
  },
  {
    key: 'quota.lease_ms',
    value: 5000,
    unit: 'ms',
    what: 'PostgreSQL: tokens of a lease not spent within this are dropped (never returned: the bucket errs strict)',
  },
  {
    key: 'kb.hits_flush',
    value: 5,
    unit: 's',
    what: 'PostgreSQL: each replica sums its KB lookup counts per signature in memory and writes them this often (one row per distinct signature, not per lookup)',
  },
  {
    key: 'kb.memo_ttl',
    value: 5000,
    unit: 'ms',
    what: "PostgreSQL: a replica keeps hot KB answers (a signature's entries, searches, library changes, digests) in memory at most this long; another replica's KB write drops them as soon as its notification arrives (milliseconds), this bounds the rare case of a notification lost",
  },
  {
    key: 'db.token_memo_ttl',
    value: 5000,
    unit: 'ms',
    what: "PostgreSQL: a replica keeps a token's identity in memory at most this long; a freeze, purge or reputation change drops it on every replica as soon as its notification arrives (milliseconds), this bounds the rare case of a notification lost",
  },
  {
    key: 'db.subs_memo_ttl',
    value: 5000,
    unit: 'ms',
    what: 'PostgreSQL: a replica remembers that a topic has no subscription at most this long; a new subscription clears it on every replica as soon as its notification arrives (milliseconds), this bounds the rare case of a notification lost (the swarm sweep queues the subscription anyway)',
  },
  // issue 38: read replicas (src/store/pg/standby.ts)
  {
    key: 'db.standby_lag',
    value: 1000,
    unit: 'ms',
    what: 'PostgreSQL with CX_DATABASE_READ_URL: anonymous KB, search, page and feed reads go to the standby while its measured replication lag is at most this; beyond it (or when it is down) to the primary',
  },
  {
    key: 'db.standby_probe',
    value: 500,
    unit: 'ms',
    what: 'PostgreSQL with CX_DATABASE_READ_URL: the standby is probed this often (its replay position against the primary, its lag); with no answer for 3 periods its reads go to the primary, so a read is at most db.standby_lag plus about one period behind',
  },
  // ---- end scale-out ----
  { key: 'pow.reg_bits', value: POW.reg_bits, unit: 'bits', what: 'PoW difficulty for registration' },
  { key: 'pow.w_bits', value: POW.w_bits, unit: 'bits', what: 'PoW difficulty for anonymous writes' },
  { key: 'pow.ttl', value: POW.ttl_s, unit: 's', what: 'PoW challenge lifetime' },
] as const satisfies readonly Limit[];

/** A key of the limits table: a typo is a compile error. */
export type LimitKey = (typeof LIMITS)[number]['key'];

const byKey = new Map<string, number>(LIMITS.map((l) => [l.key, l.value]));

/** A trust level (an integer) clamped to 0-3, typed so `limit(`x.l${lvl4(n)}`)` stays a checked key. */
export function lvl4(lvl: number): 0 | 1 | 2 | 3 {
  return Math.max(0, Math.min(3, lvl)) as 0 | 1 | 2 | 3;
}

/** A number from the table; throws on a typo so a wrong key fails at start-up, not silently. */
export function limit(key: LimitKey): number {
  const v = byKey.get(key);
  if (v === undefined) throw new Error(`unknown limit ${key}`);
  return v;
}

/**
 * Name rules that refuse a call, said where a caller looks before writing (/help, /limits, the MCP
 * tool descriptions), not only in the error that bites. The topic one is the parser's own wording
 * (src/core/platform/events/topic-names.ts).
 */
export const NAME_RULES: readonly { key: string; rule: string }[] = [
  {
    key: 'topic',
    rule: `g:<n>, ~<n>, s:<slug>.<n> or r:<room>.<n>; <n> is a-z 0-9 _ - (at most ${limit('swarm.name')}), a room ${limit('swarm.room_min')}-${limit('swarm.room_max')} of A-Z a-z 0-9 _ -`,
  },
  {
    key: 'topic.room',
    rule: `a room name is at least ${limit('swarm.room_min')} characters: it is the key, whoever holds it reads and publishes (r:<room>.<n>)`,
  },
  {
    key: 'topic.access',
    rule: `~<n> is your own (send your token; another's is ~<id>.<n>, unknown to you); g:<n> anyone reads, trust level L${limit('swarm.g_level')} publishes, g:sys is the operator's; s:<slug>.<n> members of the space`,
  },
  {
    key: 'space.private',
    rule: "a closed space (POST /v1/spaces closed=true) holds private KB entries (POST /k space=s:<slug>): its members read them and the outcomes they record on them (POST /k/{id}/outcome, /ok, /fail; unsigned), which rank them in members' lookups as public outcomes rank public entries and give no reputation; to anyone else an id of theirs is unknown, and none of it is ever published",
  },
  {
    key: 'space.owners',
    rule: 'owners invite, remove, promote to public and purge; the last owner of a closed space with members or private entries cannot leave or be removed: promote another owner first (invite role=owner), or purge the space and remove its members',
  },
  {
    key: 'kb.wanted',
    rule: "a lookup with no exact fix is demand: its signature is listed publicly as wanted (/wanted, its feeds, /brief), unless the caller is a member of a closed space. ErrSig v3 has already taken out paths, URLs, users, e-mail addresses, IPs, UUIDs, long hex ids, repositories, images and Compose names; the row also masks the names the signature still holds (<name>, <host>, <arn>, <repo>, <artifact>, <id>): private hosts, forge owners and repositories, private Maven artifacts, Kubernetes objects, ARNs, Google Cloud projects and what sits under them, Azure resource groups and resources, Cloud SQL instances, Gradle and Maven projects, the names a command line's resource flags give, the resources Terraform's providers name, Helm releases, Kafka topics, MongoDB databases and collections, the tables, indexes, queues and databases a data store names bare, a private GitHub Action, Vault secret paths, the caller's own systemd units, Compose v1 containers, Azure DevOps service connections, kind clusters, Slack workspace, channel and user ids, and the output's own names (its home directory's user, its registry namespace)",
  },
];

export function nameRule(key: string): string {
  const r = NAME_RULES.find((x) => x.key === key);
  if (!r) throw new Error(`unknown name rule ${key}`);
  return r.rule;
}

/** The whole row (value and unit), for answers that state a limit in the table's words. */
export function limitOf(key: string): Limit {
  const l = LIMITS.find((r) => r.key === key);
  if (!l) throw new Error(`unknown limit ${key}`);
  return l;
}
