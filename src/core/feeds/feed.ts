// Serving a feed: name and parameters checked (checkFeed, before the route's declared read quota
// and after its bulk shedding, src/rest/feeds.ts), the list read fresh from its source (so
// a feed is never staler than its page), the ETag the hash of what the body is made of (strong),
// Last-Modified the newest item date. The body is rendered only when it is sent, and the last
// rendering of each request shape is reused while its content is unchanged (per process, bounded).
// The REST face answers conditional requests from these (src/rest/feeds.ts).
import { createHash } from 'node:crypto';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { renderFeed, FEED_TYPES, type FeedFormat } from './render.js';
import type { FeedList, FeedQuery, FeedSource } from '../kernel/feed.js';

export interface FeedRequest {
  /** The name as in /f/{name}.{format}, decoded. */
  name: string;
  format: FeedFormat;
  /** The raw query values (absent: defaults). */
  n?: unknown;
  since?: unknown;
}

/** A feed request whose name and parameters passed checkFeed. */
export interface CheckedFeed {
  name: string;
  format: FeedFormat;
  q: FeedQuery;
  src: ReturnType<typeof sourceOf>['src'];
  arg: string;
}

export interface FeedReply {
  type: string;
  /** Strong validator, quoted: the hash of what the body is made of (items, URLs, dates, renderer version). */
  etag: string;
  /** Epoch ms. */
  lastModified: number;
  /** The body; rendered only when asked (a 304 needs none), or reused from the last rendering. */
  body(): string;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** An RFC 3339 date-time as epoch ms, or null when it is not one. */
export function parseRfc3339(s: string): number | null {
  const m = RFC3339.exec(s);
  if (!m) return null;
  const [, y, mo, d, h, mi, se, , , oh, om] = m;
  const days = new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate();
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > days || Number(h) > 23 || Number(mi) > 59 || Number(se) > 60) return null;
  if (oh !== undefined && (Number(oh) > 23 || Number(om) > 59)) return null;
  const t = Date.parse(s.replace(' ', 'T').replace(/:60(?=[.Zz+-])/, ':59'));
  return Number.isFinite(t) ? t : null;
}

function parseQuery(n: unknown, since: unknown): FeedQuery {
  let count = limit('feed.n.default');
  if (n !== undefined) {
    if (typeof n !== 'string' || !/^\d{1,3}$/.test(n) || Number(n) < limit('feed.n.min') || Number(n) > limit('feed.n.max')) {
      throw new CxError('bad', `n: an integer ${limit('feed.n.min')}-${limit('feed.n.max')}`);
    }
    count = Number(n);
  }
  let from = 0;
  if (since !== undefined) {
    const t = typeof since === 'string' ? parseRfc3339(since) : null;
    if (t === null) throw new CxError('bad', 'since: an RFC 3339 date-time, e.g. 2026-11-24T12:00:00Z');
    from = t;
  }
  return { n: count, since: from };
}

/**
 * The source and its argument for a name; 400 when malformed, 404 when no such feed. `sources`: the
 * feeds the modules contribute and the feeds domain's own (core.contributions.feeds).
 */
function sourceOf(sources: Readonly<Record<string, FeedSource>>, name: string) {
  if (!name || name.length > limit('feed.name')) throw new CxError('bad', `feed name: 1-${limit('feed.name')} characters`);
  const slash = name.indexOf('/');
  const prefix = slash < 0 ? name : name.slice(0, slash);
  const arg = slash < 0 ? '' : name.slice(slash + 1);
  const src = Object.hasOwn(sources, prefix) ? sources[prefix]! : undefined;
  if (!src) throw new CxError('notfound', 'no feed');
  if (slash < 0 ? src.arg === 'required' : src.arg === 'none') throw new CxError('notfound', 'no feed');
  if (slash >= 0) {
    const why = src.check?.(arg) ?? null;
    if (why !== null) throw new CxError('bad', `feed name: ${prefix}/ takes ${why}`);
  }
  return { src, arg, prefix };
}

// The last rendering of each request shape (format, name, n, since) with the content it was made
// of, per core (servers sharing a process stay apart): reused while the content hash is unchanged.
const memos = new WeakMap<object, Map<string, { etag: string; body: string }>>();

function memoOf(core: Core): Map<string, { etag: string; body: string }> {
  let m = memos.get(core);
  if (!m) memos.set(core, (m = new Map()));
  return m;
}

const hash = (s: string) => createHash('sha256').update(s, 'utf8').digest('base64url');

/** The newest date of the list's items, else the process start (an empty list). */
function lastModifiedOf(core: Core, list: FeedList): number {
  let t = 0;
  for (const i of list.items) t = Math.max(t, i.modified ?? i.published, i.published);
  return t || core.started;
}

/** The checks of a request: 400 for bad parameters or a malformed name, 404 when no such feed. */
export function checkFeed(core: Core, req: FeedRequest): CheckedFeed {
  const q = parseQuery(req.n, req.since);
  const { src, arg } = sourceOf(core.contributions.feeds, req.name);
  return { name: req.name, format: req.format, q, src, arg };
}

export async function serveFeed(core: Core, req: CheckedFeed): Promise<FeedReply> {
  const { q, src, arg } = req;
  const list = await src.list(core, arg, q);
  if (!list) throw new CxError('notfound', 'no feed');
  if (list.items.length > q.n) list.items = list.items.slice(0, q.n);
  const lastModified = lastModifiedOf(core, list);
  const self = `${core.config.baseUrl}/f/${req.name.split('/').map(encodeURIComponent).join('/')}`;
  // The body is a function of these alone, so their hash is a strong validator of it.
  const etag = `"${hash(JSON.stringify([core.version, req.format, self, lastModified, list])).slice(0, 32)}"`;
  const key = `${req.format}\0${req.name}\0${q.n}\0${q.since}`;
  const body = () => {
    const memo = memoOf(core);
    const last = memo.get(key);
    if (last?.etag === etag) return last.body;
    const made = renderFeed(req.format, list, core.config.baseUrl, self, lastModified);
    memo.delete(key);
    if (memo.size >= limit('feed.memo')) memo.delete(memo.keys().next().value!);
    memo.set(key, { etag, body: made });
    return made;
  };
  return { type: FEED_TYPES[req.format], etag, lastModified, body };
}
