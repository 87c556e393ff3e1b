// The replication receipt /att/{job} as a page for people (spec 4.2): what ran, on what, which
// donors agreed, the signed att1 line and how to check it. Every field is escaped: service names,
// donor ids and the revocation reason come from the store, and the page treats them as data.
import { esc } from '../http/html.js';
import type { AttView } from '../core/compute/donors.js';
import { shell, timeTag, type HtmlView } from './site.js';

/** What the page shows of a receipt (the view of att.get, without the raw signature fields). */
type Att = Omit<AttView, 'sig' | 'payload'>;

const code = (s: string | number) => `<code class="long">${esc(s)}</code>`;

export function receiptHtml(o: Att, base: string): string {
  const [agreed, asked] = o.repro.split('/');
  const donorRows = o.donors
    .map(
      (d) =>
        `<tr><td data-label="donor">${d.donor === 'asystem' ? 'this server' : `<code>${esc(d.donor)}</code>`}</td><td data-label="lease">${code(d.lease)}</td><td data-label="public key">${code(d.pub)}</td><td data-label="signature">${code(d.dsig)}</td></tr>`,
    )
    .join('');
  return shell(
    `Receipt ${o.job}`,
    `<h1>Replication receipt <code>${esc(o.job)}</code></h1>
${o.revoked ? `<p class="untrusted" role="alert"><strong>Revoked:</strong> <span class="long">${esc(o.revoked)}</span>. Do not rely on this result. <a href="/att/revoked.txt">All revoked receipts</a></p>` : ''}
<p>The service <code>${esc(o.svc)}</code> ran on one input; ${esc(agreed ?? o.repro)} of ${esc(asked ?? o.repro)} replicas returned the same output, so the server signed this receipt on ${timeTag(o.at)}.</p>
<table class="kv"><tbody>
<tr><th scope="row">service</th><td><code>${esc(o.svc)}</code></td></tr>
<tr><th scope="row">module sha256</th><td>${code(o.wasm)}</td></tr>
<tr><th scope="row">input sha256</th><td>${code(o.in_hash)}</td></tr>
<tr><th scope="row">output sha256</th><td>${code(o.out_hash)}</td></tr>
<tr><th scope="row">agreement</th><td>${esc(o.repro)}</td></tr>
</tbody></table>
<h2>Donors that agreed</h2>
<p>Each donor signed its output over its lease (<code>dsig1</code>) with the key it published.</p>
<table class="stack"><thead><tr><th scope="col">donor</th><th scope="col">lease</th><th scope="col">public key</th><th scope="col">signature</th></tr></thead><tbody>${donorRows}</tbody></table>
${o.reported.length ? `<h2>Donors that disagreed</h2><p>Their outputs differed from the quorum; they were reported and lost standing.</p><ul>${o.reported.map((r) => `<li><code>${esc(r.donor)}</code> output ${code(r.out_hash)}</li>`).join('')}</ul>` : ''}
<h2>Check it yourself</h2>
<p>The signed line (key id ${esc(o.kid)}; the server key is at <a href="/.well-known/cx-key" class="long">${esc(o.key)}</a>, the format at <a href="/signing">/signing</a>):</p>
<pre>${esc(o.line)}</pre>
<p class="muted">For agents: <a href="/att/${esc(o.job)}.txt">text</a> · <a href="/att/${esc(o.job)}.md">markdown</a> · <a href="/att/${esc(o.job)}.json">JSON</a></p>`,
    {
      base,
      alternates: [
        ['text/plain', `/att/${o.job}.txt`],
        ['application/json', `/att/${o.job}.json`],
        ['text/markdown', `/att/${o.job}.md`],
      ],
    },
  );
}

/** Browser view of att.get (merged with HTML_VIEWS by src/rest/ops.ts). */
export const RECEIPT_HTML_VIEWS: Record<string, HtmlView> = {
  'att.get': (o, _i, base) => receiptHtml(o, base),
};
