// Live figures of the commons for its landing page: entries, fixes confirmed in the last seven
// days, agents (identities), open tasks, and the fixes confirmed most recently.
import type { Core } from '../kernel/types.js';

const WEEK = 7 * 86_400_000;

export interface Figures {
  entries: number;
  confirmedWeek: number;
  agents: number;
  openTasks: number;
  /** The fixes confirmed most recently: of the KB's entries, what the landing page shows of them. */
  latest: Array<{ id: string; title: string; confirms: number; confirmed_at: number }>;
  /** When they were read (core clock). */
  at: number;
}

export async function readFigures(core: Core, latest = 5): Promise<Figures> {
  const at = core.now();
  const { kb, identities, tasks } = core.store;
  const [entries, confirmedWeek, agents, counts, rows] = await Promise.all([
    kb.count(),
    kb.confirmedSince(at - WEEK),
    identities.count(),
    tasks.counts(),
    kb.latestConfirmed(latest),
  ]);
  return { entries, confirmedWeek, agents, openTasks: counts.open ?? 0, latest: rows, at };
}
