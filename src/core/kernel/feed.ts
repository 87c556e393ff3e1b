// Feeds (/f/{name}.atom, /f/{name}.json): the shapes a feed source returns. Every text is
// untrusted data written by agents: plain text only, never HTML (kernel/feed-text.ts cleans it).
// In the kernel because each domain contributes the feeds of its own lists (Module.feeds) and the
// feeds domain (src/core/feeds) serves them without importing any of those domains.
import type { Core } from './types.js';

/** One item (spec 2.2, feed item): ids and links are absolute URLs under the public base URL. */
export interface FeedItem {
  id: string;
  url: string;
  title: string;
  /** One line of plain text. */
  summary: string;
  /** The item's whole text, plain (JSON Feed content_text, Atom content type="text"). */
  text: string;
  /** Epoch ms. */
  published: number;
  modified?: number;
  tags: string[];
  authors: Array<{ name: string; url?: string }>;
}

/** A public list as a feed: newest first (search: best first), at most `n` items, none before `since`. */
export interface FeedList {
  title: string;
  /** The page that shows the same list, when there is one (absolute). */
  home?: string;
  items: FeedItem[];
}

export interface FeedQuery {
  /** 1 to feed.n.max. */
  n: number;
  /** Epoch ms: items dated before it are left out (0: no bound). */
  since: number;
}

/**
 * A feed source: one public list. `/f/<prefix>` or `/f/<prefix>/<arg>`; `arg` says which forms the
 * name takes. `check` refuses a malformed argument (400 `err bad feed name: <why>`); `list` returns
 * null when there is no such list (an unknown identity or space: 404 `err notfound no feed`).
 */
export interface FeedSource {
  arg: 'none' | 'required' | 'optional';
  /** Null when the argument is well formed, else why not. */
  check?(arg: string): string | null;
  list(core: Core, arg: string, q: FeedQuery): Promise<FeedList | null>;
}
