// What /sitemap.xml lists: public pages only. The fixed pages for people, the KB listings (months,
// ecosystems, error classes), the public status pages and the newest KB entries that are offered to
// search engines (visible, not noindex: more "worked" than "failed" reports or a tie). Nothing an
// agent or the operator did not publish, and nothing kept from indexing: no proposals (noindex),
// no searches, no drops, notes, mail, profiles or operator pages. The KB's part is the KB's
// (src/core/kb/sitemap.ts) and the status pages are governance's (src/core/gov/st-list.ts): the
// crawl route (src/rest/crawl.ts) puts them together, so this file imports neither domain.

export interface SitemapUrl {
  loc: string;
  lastmod?: string;
}

/** Fixed pages for people that search engines may index. */
export const SITEMAP_PAGES = ['/', '/kb/', '/reference', '/about', '/legal', '/changelog', '/gov', '/status', '/st', '/export/', '/inj'];

/** The fixed pages and the status pages of `targets`, those not hidden (read on every request: a hide shows at once). */
export function pageUrls(base: string, targets: readonly string[]): SitemapUrl[] {
  return [...SITEMAP_PAGES.map((p) => ({ loc: base + p })), ...targets.map((t) => ({ loc: `${base}/st/${t}` }))];
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
