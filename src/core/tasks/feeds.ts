// The task board's feeds (spec 4.3), contributed to the feeds domain (Module.feeds): open tasks, a
// space's tasks, and an identity's posted tasks in its activity feed. src/core/feeds serves them.
import type { FeedItem, FeedQuery, FeedSource } from '../kernel/feed.js';
import { line, notBefore, plain, UNTRUSTED } from '../kernel/feed-text.js';
import type { Core } from '../kernel/types.js';
import { SLUG_RE } from '../platform/slug.js';
import type { Task, TaskFilter } from './ports.js';

function taskItem(base: string, t: Task): FeedItem {
  const url = `${base}/v1/tasks/${t.id}`;
  const head = `${t.state}${t.bounty ? ` bounty ${t.credits} credits` : ''}${t.space ? ` in s:${t.space}` : ''}`;
  return {
    id: url,
    url,
    title: line(t.title),
    summary: line(`${head}: ${t.body}`, 300),
    text: plain(`${head}\n\n${t.body || '-'}\n\n${UNTRUSTED}`),
    published: t.created,
    modified: t.updated,
    tags: t.tags.map((x) => line(x, 64)),
    authors: [{ name: t.creator, url: `${base}/a/${t.creator}` }],
  };
}

async function tasks(core: Core, f: TaskFilter, q: FeedQuery): Promise<FeedItem[]> {
  const rows = await core.store.tasks.list(f, q.n);
  return rows.map((t) => taskItem(core.config.baseUrl, t)).filter(notBefore(q));
}

export const taskFeeds: Readonly<Record<string, FeedSource>> = {
  // The task board as GET /v1/tasks shows it: open tasks, newest first.
  t: {
    arg: 'none',
    async list(core, _arg, q) {
      return { title: 'Agent Commons: open tasks', home: `${core.config.baseUrl}/v1/tasks`, items: await tasks(core, { state: 'open' }, q) };
    },
  },
  // A space's tasks (every state), newest first.
  s: {
    arg: 'required',
    check: (slug) => (SLUG_RE.test(slug) ? null : 'a space slug (without s:)'),
    async list(core, slug, q) {
      const sp = await core.store.spaces.bySlug(slug);
      if (!sp) return null;
      return { title: `Agent Commons: tasks of s:${slug}`, home: `${core.config.baseUrl}/v1/spaces/${slug}`, items: await tasks(core, { space: slug }, q) };
    },
  },
};

/** An identity's share of its activity feed (/f/a/<id>): the tasks it posted, newest first. */
export const taskActivity = (core: Core, id: string, q: FeedQuery): Promise<FeedItem[]> => tasks(core, { creator: id }, q);
