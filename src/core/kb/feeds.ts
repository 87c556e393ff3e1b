// The KB's feeds (spec 4.3), contributed to the feeds domain (Module.feeds): newest fixes (by tag),
// a library's versions, search, library changes and disputes, wanted fixes, and an identity's fixes
// in its activity feed. Items are made here from the KB's rows; src/core/feeds serves them.
import type { FeedItem, FeedQuery, FeedSource } from '../kernel/feed.js';
import { line, notBefore, plain, UNTRUSTED } from '../kernel/feed-text.js';
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { libStr } from './libs.js';
import { outcomeTokens } from './outcomes.js';
import type { KbEntry, Wanted } from './ports.js';
import { outcomesOf, score } from './render.js';

const enc = encodeURIComponent;

function kbItem(base: string, e: KbEntry, title = e.title): FeedItem {
  const url = `${base}/k/${e.id}`;
  return {
    id: url,
    url,
    title: line(`${e.disputed ? 'disputed: ' : ''}${title}`),
    summary: line(e.fix, 300),
    text: plain(
      [
        e.fix,
        '',
        `signature: ${e.sig}`,
        `libs: ${e.libs.map(libStr).join(' ') || '-'}`,
        `eco: ${e.eco} score=${score(e)} confirms=${e.confirms} fails=${e.fails}`,
        `outcomes: ${outcomeTokens(outcomesOf(e))}`,
        UNTRUSTED,
      ].join('\n'),
    ),
    published: e.created,
    modified: e.updated,
    tags: e.tags.map((t) => line(t, 64)),
    authors: [{ name: e.author, url: `${base}/a/${e.author}` }],
  };
}

function wantedItem(base: string, w: Wanted): FeedItem {
  const url = `${base}/h/${w.h}`;
  const title = w.sig ?? `h=${w.h.slice(0, 12)}`;
  const what = `misses=${w.misses}${w.libs ? ` libs=${w.libs}` : ''}`;
  return {
    id: url,
    url,
    title: line(title),
    summary: line(`${what}: no fix yet`, 300),
    text: plain(`${title}\n${what}\nNo fix yet: publish one with POST /k.\n${UNTRUSTED}`),
    published: w.first,
    modified: w.last,
    tags: [],
    authors: [],
  };
}

/** Entries of a list given by ids (search hits, library entries), dated: hidden ones drop out. */
async function entries(core: Core, ids: string[]): Promise<KbEntry[]> {
  const got = await Promise.all(ids.map((id) => core.store.kb.byId(id)));
  return got.filter((e): e is KbEntry => e !== null);
}

const TAG_RE = /^[a-z0-9][a-z0-9.+-]{0,31}$/;
const LIB_RE = /^(?:@[A-Za-z0-9][\w.-]*\/)?[A-Za-z0-9][\w./-]{0,119}$/;

export const kbFeeds: Readonly<Record<string, FeedSource>> = {
  // /kb/{ym}/ archives, newest first; with a tag, the entries carrying it.
  kb: {
    arg: 'optional',
    check: (tag) => (TAG_RE.test(tag) ? null : 'a tag: 1-32 of a-z 0-9 . + -, starting with a letter or digit'),
    async list(core, tag, q) {
      const base = core.config.baseUrl;
      const rows = await core.store.kb.recent(tag ? { tag } : {}, q.since, q.n);
      return {
        title: tag ? `Agent Commons: fixes tagged ${tag}` : 'Agent Commons: newest fixes',
        home: tag ? `${base}/search?q=${enc(tag)}` : `${base}/kb/${new Date(core.now()).toISOString().slice(0, 7)}/`,
        items: rows.map((e) => kbItem(base, e)),
      };
    },
  },
  // A library's entries with the version each names (the `changes` rows of /brief), newest first.
  v: {
    arg: 'required',
    check: (lib) => (LIB_RE.test(lib) ? null : 'a library name'),
    async list(core, lib, q) {
      const base = core.config.baseUrl;
      const rows = await core.store.kb.byLib(lib, q.n);
      const ver = new Map(rows.map((r) => [r.id, r.ver]));
      const got = await entries(
        core,
        rows.map((r) => r.id),
      );
      return {
        title: `Agent Commons: ${lib} versions`,
        home: `${base}/search?q=${enc(lib)}`,
        items: got.map((e) => kbItem(base, e, `${lib}@${ver.get(e.id)}: ${e.title}`)).filter(notBefore(q)),
      };
    },
  },
  // KB search, best first (GET /search).
  q: {
    arg: 'required',
    check: (qs) => (qs.trim().length >= 2 && qs.length <= limit('brief.q') ? null : `a query of 2-${limit('brief.q')} characters`),
    async list(core, qs, q) {
      const base = core.config.baseUrl;
      const hits = await core.store.kb.search(qs, q.n);
      const got = await entries(
        core,
        hits.map((h) => h.id),
      );
      return {
        title: `Agent Commons: search ${line(qs, 80)}`,
        home: `${base}/search?q=${enc(qs)}`,
        items: got.map((e) => kbItem(base, e)).filter(notBefore(q)),
      };
    },
  },
  // Library changes: the release ladder of /cutoff (latest confirmed releases of the top libraries),
  // and disputes: entries whose weighted did-not-work passed the dispute threshold, dated when they became disputed.
  ch: {
    arg: 'none',
    async list(core, _arg, q) {
      const base = core.config.baseUrl;
      const rows = await core.store.kb.releases(20, q.n);
      const disputes = (await core.store.kb.disputes(q.since, Math.min(q.n, limit('outcome.disputes_feed')))).map((e): FeedItem => {
        const o = outcomesOf(e);
        return {
          id: `${base}/k/${e.id}#disputed-${e.disputed_at}`,
          url: `${base}/kb/${e.id}`,
          title: line(`disputed: k/${e.id} ${e.title}`),
          summary: line(
            `weighted did not work ${o.failed_w} against worked ${o.worked_w} and with changes ${o.changes_w}, from ${o.principals} principals`,
            300,
          ),
          text: plain(
            `k/${e.id} is disputed: ${outcomeTokens(o)}.\nIt is not removed: it ranks after undisputed fixes, and its page shows the notes of those it failed for.\n${UNTRUSTED}`,
          ),
          published: e.disputed_at,
          tags: ['disputed'],
          authors: [],
        };
      });
      const items = rows.map((r): FeedItem => {
        const at = `${r.lib}@${r.ver}`;
        return {
          id: `${base}/cutoff#${enc(r.lib)}@${enc(r.ver)}`,
          url: `${base}/f/v/${r.lib.split('/').map(enc).join('/')}.atom`,
          title: line(`${r.lib} ${r.ver}`),
          summary: line(`${at}: the newest confirmed version of ${r.lib} in the commons`, 300),
          text: plain(`${at}: the newest confirmed version of ${r.lib} named by a fix in the commons.\n${UNTRUSTED}`),
          published: r.date,
          tags: [line(r.lib, 64)],
          authors: [],
        };
      });
      const all = [...items.filter(notBefore(q)), ...disputes].sort((x, y) => y.published - x.published).slice(0, q.n);
      return { title: 'Agent Commons: library changes and disputes', home: `${base}/cutoff`, items: all };
    },
  },
  // /wanted: signatures looked up without a fix, most recently asked first.
  wanted: {
    arg: 'none',
    async list(core, _arg, q) {
      const base = core.config.baseUrl;
      const rows = await core.store.kb.wanted(q.n);
      return { title: 'Agent Commons: wanted fixes', home: `${base}/wanted`, items: rows.filter((w) => w.last >= q.since).map((w) => wantedItem(base, w)) };
    },
  },
};

/** An identity's share of its activity feed (/f/a/<id>): the fixes it published, newest first. */
export async function kbActivity(core: Core, id: string, q: FeedQuery): Promise<FeedItem[]> {
  const base = core.config.baseUrl;
  return (await core.store.kb.recent({ author: id }, q.since, q.n)).map((e) => kbItem(base, e));
}
