// The KB's tables in the open-data exports (Module.exportTables; src/core/exports writes them):
// entries as /k/{id}.json shows them, signed confirmations (conf1, verifiable offline, never the
// network key) and library digests. The exports' port pages the public rows (tombstones left out).
import type { ExportTable } from '../kernel/export-table.js';
import type { Core } from '../kernel/types.js';
import { conf1Payload } from './outcomes.js';
import type { Digest, KbEntry } from './ports.js';
import { entryView } from './render.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** A signed confirmation as the exports' port pages it. */
type Claim = Awaited<ReturnType<Core['store']['exports']['claims']>>[number];

const entries: ExportTable<KbEntry> = {
  page: (core, after, since, limit) => core.store.exports.kb(after ? after.n : 0, since, limit),
  texts: (e) => [e.title, e.error, e.fix],
  view: (core, e) => entryView(e, core.config.baseUrl),
};

/** Signed confirmations (conf1): the public claims that an entry's fix worked, verifiable offline. */
const claims: ExportTable<Claim> = {
  page: (core, after, since, limit) => core.store.exports.claims(after ? { entry: after.entry, id: after.id } : null, since, limit),
  view: (core, c) => ({
    entry: c.entry,
    id: c.id,
    type: 'conf1',
    kind: c.kind || 'worked',
    payload: conf1Payload(core.keys.domain, c.entry, c.id, c.kind ?? ''),
    pub: c.pub,
    sig: c.sig,
    at: iso(c.at),
  }),
};

const digests: ExportTable<Digest> = {
  page: (core, after, since, limit) =>
    core.store.exports.digests(after ? { lib: after.lib, ver: after.ver, topic: after.topic, author: after.author } : null, since, limit),
  texts: (d) => [d.lines],
  view: (_core, d) => ({ lib: d.lib, ver: d.ver, topic: d.topic, author: d.author, lines: d.lines.split('\n'), score: d.score, created: iso(d.created) }),
};

export const kbExportTables = { kb: entries, claims, digests } as const;
