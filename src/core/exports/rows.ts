// What each shard holds, as pages of public rows: the same JSON the public reads show (a KB entry
// as /k/{id}.json, a task as /v1/tasks/{id}.json), never a network key, mail, note, drop or any
// other private table. Each table's rows are paged and shown by the domain that owns them
// (Module.exportTables, kb/exports.ts and tasks/exports.ts); the exports name the shards, page
// through them and screen the text with the scrubber once more on the way out: a row stored before
// a scrubber rule existed that now finds a secret is withheld (and counted), not exported.
import type { ExportTable } from '../kernel/export-table.js';
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { scrubFind } from '../kernel/safety/scrub.js';
import type { Tombstone } from './ports.js';

export const SHARDS = ['kb', 'tasks', 'claims', 'digests', 'delta'] as const;
export type Shard = (typeof SHARDS)[number];

/** The tables contributed by their domains, by shard, with the kind that tags their rows in the delta, in delta order. */
export const TABLES = [
  { shard: 'kb', kind: 'kb' },
  { shard: 'tasks', kind: 'task' },
  { shard: 'claims', kind: 'claim' },
  { shard: 'digests', kind: 'digest' },
] as const satisfies ReadonlyArray<{ shard: Shard; kind: string }>;
export type TableShard = (typeof TABLES)[number]['shard'];

const iso = (ms: number) => new Date(ms).toISOString();
const clean = (texts: Array<string | null | undefined>) => texts.every((t) => !t || scrubFind(t) === null);

export interface Withheld {
  n: number;
}

/** The pages of a table's shard; rows whose screened text holds a secret are counted in `held` and left out. */
export async function* tablePages(core: Core, shard: TableShard, since: number, held: Withheld): AsyncGenerator<object[]> {
  const t: ExportTable | undefined = core.contributions.exportTables[shard];
  if (!t) throw new Error(`exports: no module contributes the ${shard} table`);
  for (let after: unknown = null; ; ) {
    const page = await t.page(core, after, since, limit('export.page'));
    if (!page.length) return;
    after = page[page.length - 1]!;
    const rows = t.texts ? page.filter((r) => clean(t.texts!(r)) || void held.n++) : page;
    yield rows.map((r) => t.view(core, r));
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
  for (const t of TABLES) yield* tag(t.kind, tablePages(core, t.shard, since, held));
  yield* tag('tombstone', tombPages(core, since));
}
