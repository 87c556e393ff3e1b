// /sitemap.xml and /robots.txt: what crawlers may read. The sitemap lists public pages only, put
// together here from the fixed pages (src/core/docs/sitemap.ts), the status pages (gov/st-list.ts)
// and the KB's listings and entries (kb/sitemap.ts); its KB part is kept sitemap.ttl seconds while
// the number of visible entries stays the same, the status pages are read on every request so that
// POST /admin/st-hide takes a target out at once.
import { limit } from '../core/kernel/limits.js';
import { standbyCore } from '../core/platform/standby.js';
import { pageUrls, robotsTxt, sitemapXml, type SitemapUrl } from '../core/docs/sitemap.js';
import { publicTargets } from '../core/gov/st-list.js';
import { kbUrls } from '../core/kb/sitemap.js';
import { rawGroup } from '../http/raw.js';
import type { RestEnv } from './env.js';

export const crawlRoutes = rawGroup(
  'rest',
  'src/rest/crawl.ts',
  {
    sitemap: { method: 'GET', path: '/sitemap.xml', purpose: 'the sitemap of public pages', shed: 'core' },
    robots: { method: 'GET', path: '/robots.txt', purpose: 'robots.txt', shed: 'core' },
  },
  ({ core }: RestEnv) => {
    // Kept while the count of visible entries is the same: an entry hidden or removed (a notice)
    // leaves the sitemap at the next request, not sitemap.ttl later.
    let kb: { at: number; count: number; urls: SitemapUrl[] } | null = null;
    const robots = robotsTxt(core.config.baseUrl);
    return {
      sitemap: {
        async handle(_req, reply) {
          // Anonymous: the KB part may be read from a read standby.
          const reads = standbyCore(core);
          const count = await reads.store.kb.count();
          if (!kb || kb.count !== count || core.now() - kb.at > limit('sitemap.ttl') * 1000) kb = { at: core.now(), count, urls: await kbUrls(reads) };
          const body = sitemapXml([...pageUrls(core.config.baseUrl, await publicTargets(core)), ...kb.urls]);
          return reply.header('cache-control', 'no-cache').type('application/xml; charset=utf-8').send(body);
        },
      },
      robots: {
        handle: async (_req, reply) => reply.header('cache-control', 'public, max-age=3600').type('text/plain; charset=utf-8').send(robots),
      },
    };
  },
);
