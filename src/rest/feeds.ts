// /f/{name}.atom and /f/{name}.json (spec 4.3): a thin route over the core's feeds
// (src/core/feeds), hand-written for what a feed needs of HTTP: names with slashes, two
// extensions, and conditional requests (ETag / If-None-Match, Last-Modified / If-Modified-Since → 304).
import type { FastifyRequest } from 'fastify';
import { CxError } from '../core/kernel/errors.js';
import { checkFeed, type CheckedFeed, serveFeed } from '../core/feeds/feed.js';
import { limit } from '../core/kernel/limits.js';
import { standbyCore } from '../core/platform/standby.js';
import { rawGroup } from '../http/raw.js';
import type { RestEnv } from './env.js';

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

export const feedRoutes = rawGroup(
  'rest',
  'src/rest/feeds.ts',
  {
    // Feeds are among the first work shed (any level); a request that passes the checks costs a read.
    feed: { method: 'GET', path: '/f/*', purpose: 'Atom and JSON feeds /f/{name}.atom|json, conditional GETs', shed: 'bulk', quota: ['read'] },
  },
  ({ core }: RestEnv) => {
    const cache = `public, max-age=${limit('feed.max_age')}`;
    return {
      feed: {
        parse(req: FastifyRequest): CheckedFeed {
          const path = (req.params as { '*': string })['*'];
          const m = /^(.*)\.(atom|json)$/s.exec(path);
          if (!m) throw new CxError('notfound', 'no feed');
          const q = (req.query ?? {}) as Record<string, unknown>;
          return checkFeed(core, { name: m[1]!, format: m[2] as 'atom' | 'json', n: q.n, since: q.since });
        },
        async handle(req, reply, checked: CheckedFeed) {
          // Feeds are anonymous: their KB reads may come from a read standby.
          const feed = await serveFeed(standbyCore(core), checked);
          reply.headers({ etag: feed.etag, 'last-modified': new Date(feed.lastModified).toUTCString(), 'cache-control': cache });
          const inm = req.headers['if-none-match'];
          const ims = req.headers['if-modified-since'];
          // If-None-Match decides when sent; If-Modified-Since only without it (RFC 9110 13.2.2).
          if (inm !== undefined ? noneMatch(inm, feed.etag) : ims !== undefined && notModifiedSince(ims, feed.lastModified)) {
            return reply.code(304).send();
          }
          const body = feed.body();
          // The announcement feed is signed (resp1 of the exact bytes), like the other announcement reads.
          if (checked.name === 'sys') reply.header('x-cx-sig-server', core.keys.header(body));
          return reply.type(feed.type).send(body);
        },
      },
    };
  },
);
