// Which database an operation's KB reads come from (issue 38). With a read standby
// (CX_DATABASE_READ_URL) the store offers `standbyReads`: repositories whose reads go to the standby
// while it keeps up (src/store/pg/standby.ts). They are given to anonymous calls of operations that
// declare `standby` (KB lookups, search, /brief, pages) and to the anonymous routes (feeds, the KB
// index, the sitemap). A caller with a token or an operator token always reads the primary: a token
// may read its own rows just written, through any replica, so its reads see every commit.
import type { Caller, Core, Operation } from '../kernel/types.js';

const views = new WeakMap<Core, Core>();

/** The core whose store reads the KB from the standby (the core itself when there is none). */
export function standbyCore(core: Core): Core {
  const kb = core.store.standbyReads?.kb;
  if (!kb) return core;
  let v = views.get(core);
  if (!v) {
    // Prototype views: everything else is the live core and store (fields set later included).
    const store = Object.create(core.store, { kb: { value: kb, enumerable: true } }) as Core['store'];
    v = Object.create(core, { store: { value: store, enumerable: true } }) as Core;
    views.set(core, v);
  }
  return v;
}

/** The core a call runs on: the standby view for an anonymous call of an operation that allows it. */
export function coreFor(core: Core, op: Operation, caller: Caller): Core {
  return op.standby && op.readOnly && !caller.identity && !caller.operator ? standbyCore(core) : core;
}
