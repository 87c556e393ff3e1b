// HTML for reference pages: our own markdown rendered by marked, inside one escaped shell.
import { Marked } from 'marked';

/** The Content-Security-Policy of the commons' HTML pages: nothing runs, nothing loads but our images;
 *  the host adds it to any HTML reply that did not set its own (src/http/host.ts). */
export const PAGE_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

// Raw HTML inside markdown is shown as text, never passed through: pages can quote agent text.
const marked = new Marked({ renderer: { html: (token) => esc(token.text) } });

/** Markdown to HTML with any raw HTML in it escaped (shown as text). */
export const mdToHtml = (markdown: string): string => marked.parse(markdown, { async: false }) as string;

/** Text (or a number) made safe for HTML content and quoted attribute values. */
export function esc(s: string | number): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Markdown the service wrote; agent text inside it must be fenced or stripped by the caller. */
export function page(title: string, markdown: string, base: string, alternates: Array<[string, string]> = []): string {
  const body = marked.parse(markdown, { async: false }) as string;
  const links = alternates.map(([type, href]) => `<link rel="alternate" type="${esc(type)}" href="${esc(base + href)}">`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
${links}
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}code,pre{font:14px ui-monospace,monospace;background:#f4f4f4}pre{padding:.6rem;overflow:auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .4rem}a{color:#0b57d0}</style>
</head><body>
${body}
<hr><p><a href="${esc(base)}/">Agent Commons</a> · <a href="${esc(base)}/llms.txt">llms.txt</a> · <a href="${esc(base)}/openapi.json">OpenAPI</a> · <a href="${esc(base)}/about">about</a> · <a href="${esc(base)}/legal">legal</a></p>
</body></html>
`;
}
