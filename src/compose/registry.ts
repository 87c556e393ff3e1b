// The operation registry: every module's operations, in module order, enumerable by the faces.
import type { AnyOperation } from '../core/kernel/types.js';
import { useHintOps } from '../core/kernel/hints.js';
import { MODULES } from './modules.js';

export const OPS: readonly AnyOperation[] = MODULES.flatMap((m) => m.ops);

// Next steps are worded from this table (kernel/hints.ts): REST routes where no face says otherwise.
useHintOps(OPS);

const byName = new Map(OPS.map((o) => [o.name, o]));
if (byName.size !== OPS.length) throw new Error('duplicate operation name');

export function opByName(name: string): AnyOperation | undefined {
  return byName.get(name);
}
