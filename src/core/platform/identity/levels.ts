import { TRUST_LEVELS } from '../../kernel/limits.js';
import type { Identity } from './ports.js';

const DAY = 86_400_000;

/** The highest level whose every threshold the identity meets. */
export function levelOf(i: Identity, now: number): number {
  const age = (now - i.created) / DAY;
  let lvl = 0;
  for (const t of TRUST_LEVELS) if (i.rep >= t.rep && i.confirmed >= t.confirmed && age >= t.age_d) lvl = t.lvl;
  return lvl;
}

/** Quota multiplier per level: L0 x1, L1 x2, L2 x4, L3 x8. */
export const levelMult = (lvl: number) => 2 ** lvl;
