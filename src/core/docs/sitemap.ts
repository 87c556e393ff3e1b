// What /sitemap.xml lists: public pages only. The fixed pages for people, the KB listings (months,
// ecosystems, error classes), the public status pages and the newest KB entries that are offered to
// search engines (visible, not noindex: more "worked" than "failed" reports or a tie). Nothing an
// agent or the operator did not publish, and nothing kept from indexing: no proposals (noindex),
// no searches, no drops, notes, mail, profiles or operator pages.
import { readKbIndex } from '../kb/index-page.js';
import { CLASS_RE } from '../kb/classify.js';
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { publicTargets } from '../gov/st-list.js';

export interface SitemapUrl {
  loc: string;
  lastmod?: string;
}

/** Fixed pages for people that search engines may index. */
export const SITEMAP_PAGES = ['/', '/kb/', '/reference', '/about', '/legal', '/changelog', '/gov', '/status', '/st', '/export/', '/inj'];

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The fixed pages and the status pages not hidden (read on every request: a hide shows at once). */
export async function pageUrls(core: Core): Promise<SitemapUrl[]> {
  const base = core.config.baseUrl;
  return [...SITEMAP_PAGES.map((p) => ({ loc: base + p })), ...(await publicTargets(core)).map((t) => ({ loc: `${base}/st/${t}` }))];
}

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

const xmlEsc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

export function sitemapXml(urls: readonly SitemapUrl[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.map((u) => `<url><loc>${xmlEsc(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`).join('\n')}
</urlset>
`;
}

/**
 * robots.txt: crawlers keep out of what is private by nature or made of a caller's words (drops,
 * tokens in paths, operator routes, searches, error lookups, the agent APIs), and find the sitemap.
 */
export function robotsTxt(base: string): string {
  return [
    'User-agent: *',
    ...['/admin/', '/d/', '/mcp', '/sse', '/messages', '/a2a', '/v1/', '/search', '/h/', '/c/', '/brief', '/f/q/'].map((p) => `Disallow: ${p}`),
    '',
    `Sitemap: ${base}/sitemap.xml`,
    '',
  ].join('\n');
}
