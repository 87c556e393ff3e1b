// /st: the public status pages, one per target (api and the freeze kinds) that the operator has
// not hidden (POST /admin/st-hide), each with its state now.
import type { Core } from '../kernel/types.js';
import { isHidden, STATUS_TARGETS, targetState, type TargetState } from './status.js';

export interface StRow {
  target: string;
  state: TargetState;
  why: string;
}

/** Targets not hidden, in the order of STATUS_TARGETS (api first). */
export async function publicTargets(core: Core): Promise<string[]> {
  const out: string[] = [];
  for (const t of STATUS_TARGETS) if (!(await isHidden(core, t))) out.push(t);
  return out;
}

export async function stList(core: Core): Promise<{ at: number; rows: StRow[] }> {
  const v = await core.control.state();
  const shed = await core.control.shedLevel();
  const now = core.now();
  const rows = (await publicTargets(core)).map((t) => {
    const s = targetState(v, shed, t, now);
    return { target: t, state: s.state, why: s.why };
  });
  return { at: now, rows };
}

export function stListText(o: { rows: StRow[] }): string {
  return [`st targets=${o.rows.length}`, ...o.rows.map((r) => `st ${r.target} ${r.state} GET /st/${r.target}`), 'next: GET /st/<target>, GET /status'].join(
    '\n',
  );
}
