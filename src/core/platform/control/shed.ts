// Load shedding by levels: the one place that decides which work a shed level refuses. Each class
// of work is shed from a level on, in order: bulk reads first, then expensive reads, then anonymous
// writes; the rest (token reads and writes, pages) and the never class (/healthz, /limits, operator
// routes) are always served. An operation declares its class (`shed` in src/core/kernel/types.ts) or
// gets the default of `shedClassOf`; raw routes (not operations) declare theirs in their face's table
// (src/http/raw.ts), so the core knows no paths.
// The effective level is the larger of the operator's (/admin/freeze shed:<n>) and the measured one
// (src/http/pressure.ts). Refusal: 503 `err busy shed level <n>: <class> ...` with Retry-After.
import { CxError } from '../../kernel/errors.js';
import { limit } from '../../kernel/limits.js';
import type { Core, Operation } from '../../kernel/types.js';
import { SHED_CLASSES, type ShedClass } from '../../kernel/kinds.js';

// The classes are declared in kinds.ts (beside the freeze kinds), which the operation type reads.
export { SHED_CLASSES, type ShedClass };

const OPERATOR = new Set(['admin', 'ops', 'poll', 'check']);

/** The class of an operation: its own declaration, else never for operator routes, anon_write for anonymous writes, core. */
export function shedClassOf(op: Pick<Operation, 'shed' | 'auth' | 'readOnly'>): ShedClass {
  if (op.shed) return op.shed;
  if (OPERATOR.has(op.auth)) return 'never';
  if (!op.readOnly && (op.auth === 'anon' || op.auth === 'pow')) return 'anon_write';
  return 'core';
}

/** Whether `level` sheds class `cls`. */
export function sheds(level: number, cls: ShedClass): boolean {
  const from = SHED_CLASSES[cls].from;
  return from !== null && level >= from;
}

export function busyError(level: number, cls: ShedClass): CxError {
  return new CxError('busy', `shed level ${level}: ${cls} work (${SHED_CLASSES[cls].what.split(',')[0]} ...) is paused, retry later`, 503, {
    'Retry-After': String(limit('shed.retry_after')),
  });
}

/**
 * Throws `busy` when the current level sheds `cls`. `anonymous`: for anon_write, whether the caller
 * has no identity (a token holder's write to a PoW route is not an anonymous write).
 */
export function checkShed(core: Core, cls: ShedClass, anonymous = true): void | Promise<void> {
  if (SHED_CLASSES[cls].from === null || (cls === 'anon_write' && !anonymous)) return;
  const lvl = core.control.levelNow();
  const refuse = (l: number) => {
    if (sheds(l, cls)) throw busyError(l, cls);
  };
  if (lvl instanceof Promise) return lvl.then(refuse);
  refuse(lvl);
}

/** The class table as lines (/limits, /help). */
export function shedTable(): Array<{ cls: ShedClass; from: number | null; what: string }> {
  return (Object.keys(SHED_CLASSES) as ShedClass[]).map((cls) => ({ cls, from: SHED_CLASSES[cls].from, what: SHED_CLASSES[cls].what }));
}
