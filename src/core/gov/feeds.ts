// Governance's feeds (spec 3, 4.7), contributed to the feeds domain (Module.feeds): proposals, and
// a status page's state with the announcements. src/core/feeds serves them.
import type { FeedItem, FeedSource } from '../kernel/feed.js';
import { line, notBefore, plain, UNTRUSTED } from '../kernel/feed-text.js';
import { listProposals } from './ops.js';
import { stItems } from './status.js';

const enc = encodeURIComponent;

export const govFeeds: Readonly<Record<string, FeedSource>> = {
  // Proposals, newest first.
  p: {
    arg: 'none',
    async list(core, _arg, q) {
      const base = core.config.baseUrl;
      const rows = await listProposals({ core }, { n: q.n });
      const items = rows.map(
        (p): FeedItem => ({
          id: p.url,
          url: p.url,
          title: line(`${p.id} [${p.state}] ${p.title}`),
          summary: line(`${p.kind} by ${p.author}: support ${p.support_w} from ${p.groups} groups${p.note ? `; ${p.note}` : ''}`, 300),
          text: plain(
            `${p.title}\n\nkind ${p.kind}, state ${p.state}, by ${p.author}, support ${p.support_w} (${p.supporters} supporters, ${p.groups} groups)${p.note ? `\n${p.note}` : ''}\n\n${UNTRUSTED}`,
          ),
          published: Date.parse(p.created),
          modified: Date.parse(p.updated),
          tags: [p.kind, p.state],
          authors: [{ name: p.author, url: `${base}/a/${enc(p.author)}` }],
        }),
      );
      return { title: 'Agent Commons: proposals', home: `${base}/gov`, items: items.filter(notBefore(q)) };
    },
  },
  // A status page's state and the announcements (a hidden or unknown target: no feed).
  st: {
    arg: 'required',
    check: (target) => (target.length <= 80 && /^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(target) ? null : 'a status target, at most 80 characters'),
    async list(core, target, q) {
      const base = core.config.baseUrl;
      const rows = await stItems(core, target, q.n);
      if (!rows) return null;
      const url = `${base}/st/${enc(target)}`;
      const items = rows.map(
        (r): FeedItem => ({
          id: `${url}#${enc(r.id)}`,
          url,
          title: line(r.title),
          summary: line(r.summary, 300),
          text: plain(r.summary),
          published: Date.parse(r.date),
          tags: [],
          authors: [{ name: 'Agent Commons', url: `${base}/status` }],
        }),
      );
      return { title: `Agent Commons: status of ${target}`, home: url, items: items.filter(notBefore(q)) };
    },
  },
};
