// What each shard holds, as pages of public rows: the same JSON the public reads show (a KB entry
// as /k/{id}.json, a task as /v1/tasks/{id}.json), never a network key, mail, note, drop or any
// other private table. Text is screened with the scrubber once more on the way out: a row stored
// before a scrubber rule existed that now finds a secret is withheld (and counted), not exported.
import { conf1Payload } from '../kb/outcomes.js';
import { entryView } from '../kb/render.js';
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { scrubFind } from '../kernel/safety/scrub.js';
import { viewOf } from '../tasks/render.js';
import type { DigestKey, Tombstone } from './ports.js';

export const SHARDS = ['kb', 'tasks', 'claims', 'digests', 'delta'] as const;
export type Shard = (typeof SHARDS)[number];

const iso = (ms: number) => new Date(ms).toISOString();
const clean = (...texts: Array<string | null | undefined>) => texts.every((t) => !t || scrubFind(t) === null);

export interface Withheld {
  n: number;
}

export async function* kbPages(core: Core, since: number, held: Withheld): AsyncGenerator<object[]> {
  const base = core.config.baseUrl;
  for (let after = 0; ; ) {
    const page = await core.store.exports.kb(after, since, limit('export.page'));
    if (!page.length) return;
    after = page[page.length - 1]!.n;
    const rows = page.filter((e) => clean(e.title, e.error, e.fix) || void held.n++);
    yield rows.map((e) => entryView(e, base));
  }
}

export async function* taskPages(core: Core, since: number, held: Withheld): AsyncGenerator<object[]> {
  const base = core.config.baseUrl;
  for (let after = 0; ; ) {
    const page = await core.store.exports.tasks(after, since, limit('export.page'));
    if (!page.length) return;
    after = page[page.length - 1]!.n;
    const rows = page.filter((t) => clean(t.title, t.body, t.result, t.note) || void held.n++);
    yield rows.map((t) => viewOf(t, base));
  }
}

export async function* digestPages(core: Core, since: number, held: Withheld): AsyncGenerator<object[]> {
  for (let after: DigestKey | null = null; ; ) {
    const page = await core.store.exports.digests(after, since, limit('export.page'));
    if (!page.length) return;
    const last = page[page.length - 1]!;
    after = { lib: last.lib, ver: last.ver, topic: last.topic, author: last.author };
    const rows = page.filter((d) => clean(d.lines) || void held.n++);
    yield rows.map((d) => ({ lib: d.lib, ver: d.ver, topic: d.topic, author: d.author, lines: d.lines.split('\n'), score: d.score, created: iso(d.created) }));
  }
}

/** Signed confirmations (conf1): the public claims that an entry's fix worked, verifiable offline. */
export async function* claimPages(core: Core, since: number): AsyncGenerator<object[]> {
  const domain = core.keys.domain;
  for (let after: { entry: string; id: string } | null = null; ; ) {
    const page = await core.store.exports.claims(after, since, limit('export.page'));
    if (!page.length) return;
    const last = page[page.length - 1]!;
    after = { entry: last.entry, id: last.id };
    yield page.map((c) => ({
      entry: c.entry,
      id: c.id,
      type: 'conf1',
      kind: c.kind || 'worked',
      payload: conf1Payload(domain, c.entry, c.id, c.kind ?? ''),
      pub: c.pub,
      sig: c.sig,
      at: iso(c.at),
    }));
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
  yield* tag('kb', kbPages(core, since, held));
  yield* tag('task', taskPages(core, since, held));
  yield* tag('claim', claimPages(core, since));
  yield* tag('digest', digestPages(core, since, held));
  yield* tag('tombstone', tombPages(core, since));
}
