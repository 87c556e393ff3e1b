// One lookup, both pools (issue 39): a member's KB reads see the private entries of the closed
// spaces they belong to beside the public ones. The public adapter and its per-process memos are
// never handed a space entry: each read asks the public store as before and, in a separate step
// keyed by the caller's spaces (read afresh on every call, so leaving ends access at once), the
// space table, then merges into a new array. An answer with no space entry is the public one itself
// (the same frozen array, so the faces' memos keep working); one with a space entry is never
// memoized. Space entries come first, so in an ordering by score they win ties. Their outcomes
// (kept in the space's own tables) rank them as public outcomes rank public entries.
import type { Ctx } from '../../kernel/types.js';
import { parseLib } from '../libs.js';
import type { KbEntry, KbHit, KbRepo, Lib, OutcomeFigures } from '../ports.js';
import type { SpaceEntry, SpaceKbEntry, SpaceKbRepo } from './ports.js';

const libsOf = (e: SpaceEntry): Lib[] => e.libs.map(parseLib).filter((l): l is Lib => l !== null);

const figures = (e: SpaceKbEntry): OutcomeFigures => ({
  confirms: e.confirms,
  fails: e.fails,
  changes: e.changes,
  w_worked: e.w_worked,
  w_changes: e.w_changes,
  w_failed: e.w_failed,
  principals: e.principals,
  disputed: e.disputed,
});

export const spaceHit = (e: SpaceKbEntry): KbHit => ({
  id: e.id,
  title: e.title,
  fix: e.fix,
  libs: libsOf(e),
  sig: e.sig,
  eco: e.eco,
  space: `s:${e.space}`,
  ...figures(e),
});

export const spaceKbEntry = (e: SpaceKbEntry): KbEntry => ({
  n: 0,
  id: e.id,
  sig: e.sig,
  h: e.h,
  ch: e.ch,
  title: e.title,
  error: e.error,
  fix: e.fix,
  eco: e.eco,
  cls: e.cls,
  tags: e.tags,
  libs: libsOf(e),
  author: e.author,
  created: e.created,
  updated: e.created,
  hits: 0,
  space: `s:${e.space}`,
  ...figures(e),
  disputed_at: e.disputed_at,
});

/** The words of a search query as the space table's search takes them (all must appear). */
export const queryWords = (q: string): string[] =>
  [...new Set(q.toLowerCase().match(/[\p{L}\p{N}_][\p{L}\p{N}_.-]*[\p{L}\p{N}_]|[\p{L}\p{N}_]/gu) ?? [])].filter((w) => w.length >= 2).slice(0, 8);

const merge = <T>(mine: T[], pub: T[], limit: number): T[] => (mine.length ? [...mine, ...pub].slice(0, limit) : pub);

/** The rank within one signature (the public kb_by_h order): undisputed first, then confirms x 3 - fails x 2. */
const sigRank = (e: KbHit) => [Number(e.disputed), -(e.confirms * 3 - e.fails * 2)] as const;
/**
 * Two lists of one signature, each best first, merged by that rank: a space entry's outcomes move it
 * past public entries as a public entry's would; on a tie the space entry comes first (stable sort).
 */
const mergeRanked = (mine: KbHit[], pub: KbHit[], limit: number): KbHit[] =>
  mine.length
    ? [...mine, ...pub]
        .map((e, i) => ({ e, i, r: sigRank(e) }))
        .sort((a, b) => a.r[0] - b.r[0] || a.r[1] - b.r[1] || a.i - b.i)
        .slice(0, limit)
        .map((x) => x.e)
    : pub;

/** The KB as a member of `spaces` reads it: the public store with the space entries merged in. */
export function pooled(kb: KbRepo, sp: SpaceKbRepo, spaces: string[]): KbRepo {
  const own: Partial<KbRepo> = {
    async byHash(h, limit, hit) {
      const [pub, mine] = await Promise.all([kb.byHash(h, limit, hit), sp.kbByHash(h, spaces, limit)]);
      return mergeRanked(mine.map(spaceHit), pub, limit);
    },
    async byCoarse(ch, limit) {
      const [pub, mine] = await Promise.all([kb.byCoarse(ch, limit), sp.kbByCoarse(ch, spaces, limit)]);
      return mergeRanked(mine.map(spaceHit), pub, limit);
    },
    async byOldHash(h, limit) {
      const [pub, mine] = await Promise.all([kb.byOldHash(h, limit), sp.kbByOldHash(h, spaces, limit)]);
      return mergeRanked(mine.map(spaceHit), pub, limit);
    },
    async retrieve(words, limit) {
      const [pub, mine] = await Promise.all([kb.retrieve(words, limit), sp.kbRetrieve(words, spaces, limit)]);
      return merge(mine.map(spaceHit), pub, limit);
    },
    async search(query, limit) {
      const [pub, mine] = await Promise.all([kb.search(query, limit), sp.kbSearch(queryWords(query), spaces, limit)]);
      return merge(mine.map(spaceHit), pub, limit);
    },
    async byId(id) {
      const pub = await kb.byId(id);
      if (pub) return pub;
      const mine = await sp.kbById(id, spaces);
      return mine ? spaceKbEntry(mine) : null;
    },
  };
  return new Proxy(kb, {
    get(target, p) {
      if (typeof p === 'string' && p in own) return own[p as keyof KbRepo];
      const v = Reflect.get(target, p, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

export interface Pool {
  kb: KbRepo;
  /** The caller's closed spaces (empty: anonymous, or a member of none: the public store as is). */
  spaces: string[];
}

/** The KB this caller reads: public only, or pooled with the private entries of their spaces. */
export async function poolFor(ctx: Ctx): Promise<Pool> {
  const kb = ctx.core.store.kb;
  const id = ctx.caller.identity?.id;
  if (!id) return { kb, spaces: [] };
  // Membership is the spaces domain's: read through the core's access port (no import of spaces).
  const spaces = await ctx.core.spaceAccess.closedSpacesOf(id);
  return spaces.length ? { kb: pooled(kb, ctx.core.store.spaceKb, spaces), spaces } : { kb, spaces };
}
