// What each shard holds, as pages of public rows: the same JSON the public reads show (a KB entry
// as /k/{id}.json, a task as /v1/tasks/{id}.json), never a network key, mail, note, drop or any
// other private table. The domain that owns a table shows its rows (Module.exportViews: kb/exports.ts,
// tasks/exports.ts). Text is screened with the scrubber once more on the way out: a row stored
// before a scrubber rule existed that now finds a secret is withheld (and counted), not exported.
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { scrubFind } from '../kernel/safety/scrub.js';
import type { DigestKey, Tombstone } from './ports.js';

export const SHARDS = ['kb', 'tasks', 'claims', 'digests', 'delta'] as const;
export type Shard = (typeof SHARDS)[number];

/**
 * A table's shard, the kind that tags its rows in the delta, and its pages: each after the last row
 * of the previous page (null: the first), in the port's stable order.
 */
interface Table<R> {
  shard: Shard;
  kind: string;
  page(core: Core, after: R | null, since: number, n: number): Promise<R[]>;
}
const table = <R>(t: Table<R>) => t as Table<unknown>;

/** The tables in file and delta order; how their rows show is their domains' (core.contributions.exportViews). */
export const TABLES: ReadonlyArray<Table<unknown>> = [
  table({ shard: 'kb', kind: 'kb', page: (core, after: { n: number } | null, since, n) => core.store.exports.kb(after ? after.n : 0, since, n) }),
  table({ shard: 'tasks', kind: 'task', page: (core, after: { n: number } | null, since, n) => core.store.exports.tasks(after ? after.n : 0, since, n) }),
  table({
    shard: 'claims',
    kind: 'claim',
    page: (core, after: { entry: string; id: string } | null, since, n) =>
      core.store.exports.claims(after ? { entry: after.entry, id: after.id } : null, since, n),
  }),
  table({
    shard: 'digests',
    kind: 'digest',
    page: (core, after: DigestKey | null, since, n) =>
      core.store.exports.digests(after ? { lib: after.lib, ver: after.ver, topic: after.topic, author: after.author } : null, since, n),
  }),
];

const iso = (ms: number) => new Date(ms).toISOString();
const clean = (texts: Array<string | null | undefined>) => texts.every((t) => !t || scrubFind(t) === null);

export interface Withheld {
  n: number;
}

/** The pages of a table's shard; rows whose screened text holds a secret are counted in `held` and left out. */
export async function* tablePages(core: Core, t: Table<unknown>, since: number, held: Withheld): AsyncGenerator<object[]> {
  const v = core.contributions.exportViews[t.shard];
  if (!v) throw new Error(`exports: no module shows the ${t.shard} table`);
  for (let after: unknown = null; ; ) {
    const page = await t.page(core, after, since, limit('export.page'));
    if (!page.length) return;
    after = page[page.length - 1]!;
    const rows = v.texts ? page.filter((r) => clean(v.texts!(r)) || void held.n++) : page;
    yield rows.map((r) => v.view(core, r));
  }
}

export const tombRow = (t: Tombstone) => ({ id: t.id, kind: t.kind, removed_at: iso(t.removed_at), reason: t.reason });

export async function* tombPages(core: Core, since: number): AsyncGenerator<object[]> {
  for (let after: Tombstone | null = null; ; ) {
    const page = await core.store.exports.tombstones(since, after, limit('export.page'));
    if (!page.length) return;
    after = page[page.length - 1]!;
    yield page.map(tombRow);
  }
}

/** Everything changed since the previous export, each row tagged with its shard: `{kind, row}`. */
export async function* deltaPages(core: Core, since: number, held: Withheld): AsyncGenerator<object[]> {
  const tag = (kind: string, g: AsyncGenerator<object[]>) =>
    (async function* () {
      for await (const page of g) yield page.map((row) => ({ kind, row }));
    })();
  for (const t of TABLES) yield* tag(t.kind, tablePages(core, t, since, held));
  yield* tag('tombstone', tombPages(core, since));
}
