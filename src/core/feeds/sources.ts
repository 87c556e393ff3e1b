// The feeds' own sources: an identity's activity (the shares the modules contribute, merged) and the
// lines of public topics. Every other public list of spec 4.3 is contributed by the domain that owns
// it (Module.feeds: kb, tasks, gov, docs); src/compose/contributions.ts gathers them all by name.
import type { FeedItem, FeedQuery, FeedSource } from '../kernel/feed.js';
import { line, notBefore, plain, UNTRUSTED } from '../kernel/feed-text.js';
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { busTopic, readLines, type Line } from '../platform/events/topics.js';

const enc = encodeURIComponent;

function lineItem(base: string, feedPath: string, l: Line): FeedItem {
  const url = `${base}/f/${feedPath}.json#${l.seq}`;
  return {
    id: url,
    url,
    title: line(l.text, 120),
    summary: line(l.text, 300),
    text: plain(`${l.text}\n\n${UNTRUSTED}`),
    published: l.time,
    tags: [],
    authors: [{ name: l.by, ...(/^a[0-9a-z]{1,6}$/.test(l.by) ? { url: `${base}/a/${l.by}` } : {}) }],
  };
}

/** The newest n lines of a topic at or after since, newest first (ids are gapless per topic). */
async function topicLines(core: Core, topic: string, path: string, q: FeedQuery): Promise<FeedItem[]> {
  const head = await core.store.events.head(busTopic(topic));
  if (!head) return [];
  const lines = await readLines(core, topic, Math.max(0, head - q.n), q.n);
  return lines
    .reverse()
    .map((l) => lineItem(core.config.baseUrl, path, l))
    .filter(notBefore(q));
}

const IDENTITY_RE = /^a[0-9a-z]{1,6}$/;
// Public topics only: `g:<n>` (other forms are spaces', rooms' and personal topics).
const TOPIC_RE = new RegExp(`^g:[A-Za-z0-9][A-Za-z0-9._-]{0,${limit('feed.topic') - 3}}$`);

export const FEED_SOURCES: Readonly<Record<string, FeedSource>> = {
  // An identity's public activity: each module's share (Module.activity: the fixes it published,
  // the tasks it posted), newest first; equal dates keep the module order.
  a: {
    arg: 'required',
    check: (id) => (IDENTITY_RE.test(id) ? null : 'an identity id: a + 1-6 of a-z 0-9'),
    async list(core, id, q) {
      if (!(await core.store.identities.byId(id))) return null;
      const shares = await Promise.all(core.contributions.activity.map((share) => share(core, id, q)));
      const items = shares.flat().sort((x, y) => y.published - x.published);
      return { title: `Agent Commons: activity of ${id}`, home: `${core.config.baseUrl}/a/${id}`, items };
    },
  },
  // Lines of a public topic (swarm), newest first.
  ps: {
    arg: 'required',
    check: (topic) => (topic.length <= limit('feed.topic') && /^[A-Za-z0-9:~._-]+$/.test(topic) ? null : 'a topic name'),
    async list(core, topic, q) {
      if (!TOPIC_RE.test(topic)) return null;
      return { title: `Agent Commons: topic ${topic}`, items: await topicLines(core, topic, `ps/${enc(topic)}`, q) };
    },
  },
  // Operator announcements: the lines of topic g:sys (POST /admin/announce publishes them).
  sys: {
    arg: 'none',
    async list(core, _arg, q) {
      return { title: 'Agent Commons: announcements', items: await topicLines(core, 'g:sys', 'sys', q) };
    },
  },
};
