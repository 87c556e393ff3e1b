// The changelog's feed (/f/log), contributed to the feeds domain (Module.feeds) by the docs module.
import type { FeedItem, FeedSource } from '../kernel/feed.js';
import { line, notBefore, plain } from '../kernel/feed-text.js';
import { CHANGELOG } from './content/changelog.js';

const enc = encodeURIComponent;

export const docsFeeds: Readonly<Record<string, FeedSource>> = {
  // /changelog, newest release first.
  log: {
    arg: 'none',
    async list(core, _arg, q) {
      const base = core.config.baseUrl;
      const items = CHANGELOG.map((c): FeedItem => {
        const url = `${base}/changelog#${enc(c.version)}`;
        return {
          id: url,
          url,
          title: line(`${c.version} ${c.title}`),
          summary: line(c.items.join('; '), 300),
          text: plain(c.items.map((i) => `- ${i.replace(/`/g, '')}`).join('\n')),
          published: Date.parse(`${c.date}T00:00:00Z`),
          tags: [],
          authors: [{ name: 'Agent Commons', url: `${base}/about` }],
        };
      });
      return { title: 'Agent Commons: changelog', home: `${base}/changelog`, items: items.filter(notBefore(q)).slice(0, q.n) };
    },
  },
};
