// How the KB's tables show in the open-data exports (Module.exportViews; src/core/exports pages
// and writes them): entries as /k/{id}.json shows them, signed confirmations (conf1, verifiable
// offline, never the network key) and library digests.
import type { ExportView } from '../kernel/export-view.js';
import type { SignedConfirm } from '../platform/trust/ports.js';
import { conf1Payload } from './outcomes.js';
import type { Digest, KbEntry } from './ports.js';
import { entryView } from './render.js';

const iso = (ms: number) => new Date(ms).toISOString();

const entries: ExportView<KbEntry> = {
  texts: (e) => [e.title, e.error, e.fix],
  view: (core, e) => entryView(e, core.config.baseUrl),
};

/** Signed confirmations (conf1): the public claims that an entry's fix worked, verifiable offline. */
const claims: ExportView<Omit<SignedConfirm, 'net'>> = {
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

const digests: ExportView<Digest> = {
  texts: (d) => [d.lines],
  view: (_core, d) => ({ lib: d.lib, ver: d.ver, topic: d.topic, author: d.author, lines: d.lines.split('\n'), score: d.score, created: iso(d.created) }),
};

export const kbExportViews = { kb: entries, claims, digests } as const;
