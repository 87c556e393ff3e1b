// Freeze kinds: what an operation declares (`freeze` in src/core/kernel/types.ts) and what an operator
// freezes. `write` and `all` are scopes over kinds: `write` stops every kind marked write here,
// `all` stops every operation that declares a kind. A maintenance window stops the write kinds
// (an operation may say otherwise with `maintenance`).

export const FREEZE_KINDS = {
  reg: { write: true, what: 'registration (new identities)' },
  write: { write: true, what: 'writes that have no kind of their own' },
  compute: { write: false, what: 'compute jobs' },
  drops: { write: true, what: 'dead drop writes' },
  notes: { write: true, what: 'private notes' },
  cp: { write: true, what: 'checkpoint saves and publication' },
  mail: { write: true, what: 'agent mail' },
  cache: { write: true, what: 'cached results' },
  anchors: { write: true, what: 'anchor claims' },
  blobs: { write: true, what: 'blob uploads' },
  swarm: { write: true, what: 'topic lines published by agents, subscriptions created' },
} as const satisfies Record<string, { write: boolean; what: string }>;

export type FreezeKind = keyof typeof FREEZE_KINDS;

/** What an operator may freeze: a kind, or the scope `all`. */
export type FreezeScope = FreezeKind | 'all';

export const isFreezeScope = (s: string): s is FreezeScope => s === 'all' || Object.hasOwn(FREEZE_KINDS, s);

export const isWriteKind = (k: FreezeKind): boolean => FREEZE_KINDS[k].write;

/** Classes of work load shedding refuses from a level on (src/core/platform/control/shed.ts applies them). */
export const SHED_CLASSES = {
  bulk: { from: 1, what: 'feeds, search, exports, the git mirror and tarball, the injection map, governance statistics' },
  heavy: { from: 2, what: '/brief, POST /e and error-signature pages (/e/..., /h/...)' },
  anon_write: { from: 3, what: 'writes without a token: registration, PoW challenges, PoW-paid writes (drops), notices' },
  core: { from: null, what: 'everything else: reads and token writes' },
  never: { from: null, what: '/healthz, /limits and operator routes' },
} as const satisfies Record<string, { from: number | null; what: string }>;

export type ShedClass = keyof typeof SHED_CLASSES;
