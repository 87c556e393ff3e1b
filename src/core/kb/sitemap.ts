// The KB's part of /sitemap.xml: the listings (ecosystems, months, error classes) and the newest
// entries offered to search engines (visible, not noindex: more "worked" than "failed" reports or a
// tie). The crawl route (src/rest/crawl.ts) puts it after the fixed and status pages.
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { CLASS_RE } from './classify.js';
import { readKbIndex } from './index-page.js';

/** One URL of the sitemap (the shape of src/core/docs/sitemap.ts). */
export interface SitemapUrl {
  loc: string;
  lastmod?: string;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The KB listings and the newest indexable entries (hidden ones never come back from the store). */
export async function kbUrls(core: Core): Promise<SitemapUrl[]> {
  const base = core.config.baseUrl;
  const urls: SitemapUrl[] = (await readKbIndex(core)).ecos.map((e) => ({ loc: `${base}/eco/${e.eco}` }));
  const entries = await core.store.kb.recent({}, 0, limit('sitemap.entries'));
  const months = new Map<string, number>();
  const classes = new Set<string>();
  const pages: SitemapUrl[] = [];
  for (const e of entries) {
    const ym = day(e.created).slice(0, 7);
    months.set(ym, Math.max(months.get(ym) ?? 0, e.updated));
    const c = e.cls.toLowerCase();
    if (CLASS_RE.test(c)) classes.add(c);
    // The entry page says noindex when more agents report it failing than working (src/rest/site.ts).
    if (e.fails > e.confirms) continue;
    pages.push({ loc: `${base}/kb/${e.id}`, lastmod: day(e.updated) });
  }
  for (const [m, at] of [...months].sort((a, b) => (a[0] < b[0] ? 1 : -1))) urls.push({ loc: `${base}/kb/${m}/`, lastmod: day(at) });
  for (const c of [...classes].sort()) urls.push({ loc: `${base}/err/${c}` });
  return [...urls, ...pages];
}
