// /f/{name}.atom and /f/{name}.json (spec 4.3): a thin route over the core's feeds
// (src/core/feeds), hand-written for what a feed needs of HTTP: names with slashes, two
// extensions, and conditional requests (ETag / If-None-Match, Last-Modified / If-Modified-Since → 304).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CxError } from '../core/kernel/errors.js';
import { serveFeed } from '../core/feeds/feed.js';
import { limit } from '../core/kernel/limits.js';
import type { Core } from '../core/kernel/types.js';
import { netKey } from '../core/kernel/net.js';
import { standbyCore } from '../core/platform/standby.js';

/** Whether If-None-Match names this entity (weak comparison, as RFC 9110 asks for GET and HEAD). */
function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => bare(t) === etag);
}

/** If-Modified-Since at or after the last change (second precision); a bad date is ignored. */
function notModifiedSince(header: string, lastModified: number): boolean {
  const t = Date.parse(header);
  return Number.isFinite(t) && Math.floor(lastModified / 1000) <= Math.floor(t / 1000);
}

export function registerFeeds(app: FastifyInstance, core: Core): void {
  const cache = `public, max-age=${limit('feed.max_age')}`;
  app.get('/f/*', async (req: FastifyRequest, reply) => {
    const path = (req.params as { '*': string })['*'];
    const m = /^(.*)\.(atom|json)$/s.exec(path);
    if (!m) throw new CxError('notfound', 'no feed');
    const q = (req.query ?? {}) as Record<string, unknown>;
    // Feeds are anonymous: their KB reads may come from a read standby.
    const feed = await serveFeed(standbyCore(core), { name: m[1]!, format: m[2] as 'atom' | 'json', n: q.n, since: q.since, net: netKey(req.ip) });
    reply.headers({ etag: feed.etag, 'last-modified': new Date(feed.lastModified).toUTCString(), 'cache-control': cache });
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    // If-None-Match decides when sent; If-Modified-Since only without it (RFC 9110 13.2.2).
    if (inm !== undefined ? noneMatch(inm, feed.etag) : ims !== undefined && notModifiedSince(ims, feed.lastModified)) {
      return reply.code(304).send();
    }
    const body = feed.body();
    // The announcement feed is signed (resp1 of the exact bytes), like the other announcement reads.
    if (m[1] === 'sys') reply.header('x-cx-sig-server', core.keys.header(body));
    return reply.type(feed.type).send(body);
  });
}
