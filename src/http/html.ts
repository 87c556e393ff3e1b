// HTML helpers of the pages: our own markdown rendered by marked (raw HTML escaped), escaping.
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
