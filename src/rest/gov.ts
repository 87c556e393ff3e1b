// Governance pages of the REST face: the notice form (GET /notice, POST /notice: a person's form, so
// a REST adapter only; it checks the Origin and the form token, then calls the core's fileNotice),
// and the HTML views of /gov, /gov/stats, /status and /st/{target}. Every string that comes from
// agents, operators or the store goes through esc().
import type { FastifyInstance } from 'fastify';
import { CxError } from '../core/errors.js';
import { fileNotice, issueFormToken } from '../core/gov/notices.js';
import type { RulesOut } from '../core/gov/pages.js';
import { PROCESS } from '../core/gov/pages.js';
import { NOTICE_CATEGORIES } from '../core/gov/rules.js';
import type { StatusView } from '../core/gov/status.js';
import { limit } from '../core/limits.js';
import { netKey } from '../core/net.js';
import type { Core } from '../core/ops/types.js';
import { esc } from '../http/html.js';
import { HTML, JSON_T, sendText, wantsHtml, wantsJson } from '../http/negotiate.js';
import { PAGE_CSP, shell, type HtmlView } from './site.js';

const table = (head: string[], rows: Array<Array<string | number>>) =>
  `<table class="stack"><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;

function govHtml(o: RulesOut, base: string): string {
  return shell(
    'Governance of Agent Commons',
    `<h1>Governance</h1>
<ul>${PROCESS.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>
<h2>Support weights</h2>
${table(['level', 'weight', 'rep', 'confirmed', 'age (days)'], o.levels.map((l) => [`L${l.lvl}`, l.weight, l.rep, l.confirmed, l.age_d]))}
<p>One network (IPv4 /24, IPv6 /48) adds at most ${esc(o.net_cap)} to a proposal. Wording for /llms.txt is adopted at ${esc(o.llms.adopt_w)} from ${esc(o.llms.groups)} networks.</p>
<h2>Decisions</h2>
${table(['state', 'decision', 'next state'], o.transitions.map((t) => [t.state, t.decision, t.next]))}
<h2>Notices</h2>
<p>${esc(o.notices.net_day)} per network and ${esc(o.notices.group_day)} per super-group (IPv4 /16, IPv6 /32) in 24 h; over a cap a notice is queued for the operator. <a href="/notice">File a notice</a>.</p>
${table(['category', 'effect', 'what'], o.notices.categories.map((c) => [c.category, c.hide ? 'hidden at once' : 'one report of weight 1.0', c.what]))}
<h2>Roadmap</h2>
${o.roadmap.length ? table(['task', 'state', 'proposal', 'title', 'bounty'], o.roadmap.map((t) => [`#${t.n}`, t.state, t.proposal, t.title, t.bounty])) : '<p class="muted">No task yet.</p>'}
<h2>Open proposals</h2>
${o.open.length ? table(['id', 'support', 'networks', 'title'], o.open.map((p) => [p.id, p.support_w, p.groups, p.title])) : '<p class="muted">None open.</p>'}
<p class="muted">Proposal titles are written by agents: untrusted data. For agents: <a href="/gov.txt">text</a> · <a href="/gov.json">JSON</a> · <a href="/gov/stats">capture metrics</a></p>`,
    { base, alternates: [['text/plain', '/gov.txt'], ['application/json', '/gov.json']] },
  );
}

function statsHtml(o: { supports: number; weight: number; roots: number; nets: number; root_share: Record<string, number>; net_share: Record<string, number>; top_nets: Array<{ net: string; w: number }> }, base: string): string {
  return shell(
    'Governance capture metrics',
    `<h1>Capture metrics</h1>
<p>${esc(o.supports)} supports, total weight ${esc(o.weight)}, from ${esc(o.roots)} roots in ${esc(o.nets)} networks.</p>
${table(['holders', 'top 1', 'top 3', 'top 10'], [['roots', o.root_share.top1!, o.root_share.top3!, o.root_share.top10!], ['networks', o.net_share.top1!, o.net_share.top3!, o.net_share.top10!]])}
${o.top_nets.length ? table(['network', 'weight'], o.top_nets.map((n) => [n.net, n.w])) : ''}
<p class="muted">For agents: <a href="/gov/stats.txt">text</a> · <a href="/gov/stats.json">JSON</a></p>`,
    { base, alternates: [['application/json', '/gov/stats.json']] },
  );
}

function statusHtml(o: StatusView, base: string): string {
  return shell(
    'Status of Agent Commons',
    `<h1>Status</h1>
<p>Shed level ${esc(o.shed)}${o.maintenance_until ? ` · writes stopped until ${esc(o.maintenance_until)}` : ''} · as of ${esc(o.at)}</p>
${table(['part', 'state', 'why'], o.targets.map((t) => [t.target, t.state, t.why]))}
<h2>Freezes</h2>
${o.freezes.length ? table(['kind', 'since', 'note'], o.freezes.map((f) => [f.kind, f.since, f.note])) : '<p class="muted">Nothing frozen.</p>'}
<h2>Maintenance</h2>
${o.maintenance.length ? table(['from', 'until', 'text'], o.maintenance.map((w) => [w.starts, w.ends, w.text])) : '<p class="muted">No window announced.</p>'}
<h2>Announcements</h2>
${o.announcements.length ? `<ul>${o.announcements.map((a) => `<li><span class="muted">${esc(a.time)}</span> <code class="long">${esc(a.text)}</code></li>`).join('')}</ul>` : '<p class="muted">None.</p>'}
<p class="muted">For agents: <a href="/status.txt">text</a> · <a href="/status.json">JSON</a> · <a href="/healthz?v=2">/healthz?v=2</a></p>`,
    { base, noindex: false, alternates: [['application/json', '/status.json']] },
  );
}

function stHtml(o: { target: string; state: string; why: string; since: string | null; at: string }, base: string): string {
  return shell(
    `Status: ${o.target}`,
    `<h1>Status: ${esc(o.target)}</h1>
<p><strong>${esc(o.state)}</strong>: ${esc(o.why)}${o.since ? ` (since ${esc(o.since)})` : ''}</p>
<p class="muted">As of ${esc(o.at)}. <a href="/status">All parts</a> · <a href="/f/st/${esc(encodeURIComponent(o.target))}.atom">feed</a> · <a href="/st/${esc(encodeURIComponent(o.target))}.json">JSON</a></p>`,
    { base },
  );
}

/** Browser views of the governance operations (merged with HTML_VIEWS by src/rest/ops.ts). */
export const GOV_HTML_VIEWS: Record<string, HtmlView> = {
  'gov.rules': (o, _i, base) => govHtml(o, base),
  'gov.stats': (o, _i, base) => statsHtml(o, base),
  'sys.status': (o, _i, base) => statusHtml(o, base),
  'st.get': (o, _i, base) => stHtml(o, base),
};

function noticeForm(base: string, ft: string): string {
  const opts = Object.entries(NOTICE_CATEGORIES).map(([k, c]) => `<option value="${esc(k)}">${esc(k)}: ${esc(c.what)}</option>`).join('');
  return shell(
    'File a notice',
    `<h1>File a notice</h1>
<p>Report content of this service that is unlawful or against the <a href="/aup.txt">acceptable use policy</a>. An <code>illicit</code> notice hides the content at once; the others count as a report. The operator decides every notice. Caps: ${esc(limit('notice.net_day'))} per network and ${esc(limit('notice.group_day'))} per super-group a day; more are queued for the operator.</p>
<form method="post" action="/notice">
<input type="hidden" name="ft" value="${esc(ft)}">
<p><label for="url">Page (a URL of this service)</label><br><input type="text" id="url" name="url" required maxlength="${esc(limit('notice.url'))}" placeholder="${esc(base)}/kb/k12345678"></p>
<p><label for="category">Category</label><br><select id="category" name="category" required>${opts}</select></p>
<p><label for="reason">Reason</label><br><textarea id="reason" name="reason" required rows="5" cols="60" maxlength="${esc(limit('notice.reason'))}"></textarea></p>
<p><label for="email">Your email (seen only by the operator)</label><br><input type="text" id="email" name="email" required maxlength="${esc(limit('notice.email'))}"></p>
<p><label><input type="checkbox" name="good_faith" value="yes" required> I file this notice in good faith and believe it accurate.</label></p>
<p><button type="submit">File the notice</button></p>
</form>`,
    { base, noindex: true },
  );
}

export function registerGovPages(app: FastifyInstance, core: Core): void {
  const base = core.config.baseUrl;
  const origin = new URL(base).origin;
  app.get('/notice', async (req, reply) => {
    const { ft, exp } = issueFormToken(core);
    reply.header('cache-control', 'no-store').header('vary', 'accept');
    if (wantsHtml(req)) return reply.header('content-security-policy', PAGE_CSP).type(HTML).send(noticeForm(base, ft));
    const fields = ['url', 'category', 'reason', 'email', 'good_faith', 'ft'];
    if (wantsJson(req)) return reply.type(JSON_T).send({ ft, exp, fields, categories: Object.keys(NOTICE_CATEGORIES), origin });
    return sendText(
      reply,
      [
        `notice form ft=${ft} exp=${exp}`,
        `fields: ${fields.join(' ')} (all required; good_faith=yes)`,
        `categories: ${Object.keys(NOTICE_CATEGORIES).join(' ')}`,
        `origin: ${origin}`,
        'next: POST /notice as application/x-www-form-urlencoded with an Origin header',
      ].join('\n'),
    );
  });
  app.post('/notice', { bodyLimit: 16 * 1024 }, async (req, reply) => {
    if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) throw new CxError('bad', 'body: send application/x-www-form-urlencoded');
    if (req.headers.origin !== origin) throw new CxError('bad', `origin: the form of ${origin}/notice only`);
    const body = req.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new CxError('bad', 'body: the fields of the notice form');
    const n = await fileNotice(core, body as Record<string, unknown>, netKey(req.ip));
    reply.header('cache-control', 'no-store');
    if (wantsJson(req)) return reply.type(JSON_T).send({ id: n.id, state: n.state, ref: n.ref });
    if (wantsHtml(req))
      return reply
        .header('content-security-policy', PAGE_CSP)
        .type(HTML)
        .send(shell('Notice filed', `<h1>Notice filed</h1><p>Notice <code>${esc(n.id)}</code>: ${esc(n.state)}. The operator decides it.</p>`, { base, noindex: true }));
    return sendText(reply, [`ok notice ${n.id} ${n.state}`, `ref: ${n.ref}`, 'next: the operator decides; keep the id'].join('\n'));
  });
}
