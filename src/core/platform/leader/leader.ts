// Singleton work among replicas (issue 23): a named leadership (LeaderRepo port) held by one
// process at a time. Each process that wants `name` tries every leader.retry seconds: the leader
// re-checks that it still holds it, the others try to take it, so when the leader dies another
// takes over within leader.retry (PostgreSQL frees a dead session's advisory lock at once). On
// SQLite the one process always leads. One poller per core and name, shared by its users and
// stopped (the leadership released) when the last one stops.
import { limit } from '../../kernel/limits.js';
import type { Core } from '../../kernel/types.js';

export interface Leadership {
  /** Whether this process leads `name` now (waits for the first try only). */
  leads(): Promise<boolean>;
  stop(): void;
}

interface Lead {
  held: boolean;
  first: Promise<void>;
  users: number;
  timer: NodeJS.Timeout;
}

const byCore = new WeakMap<Core, Map<string, Lead>>();

function begin(core: Core, name: string): Lead {
  let busy = false;
  const tryNow = async () => {
    if (busy) return;
    busy = true;
    try {
      const was = lead.held;
      lead.held = await core.store.leader.hold(name).catch(() => false);
      if (lead.held && !was) core.log.info({ leader: name }, `leader: this process now runs ${name}`);
      if (!lead.held && was) core.log.warn({ leader: name }, `leader: this process no longer runs ${name}`);
    } finally {
      busy = false;
    }
  };
  const lead: Lead = { held: false, first: Promise.resolve(), users: 0, timer: setInterval(() => void tryNow(), limit('leader.retry') * 1000) };
  lead.timer.unref();
  lead.first = tryNow();
  return lead;
}

/** Joins the leadership of `name` for this core (starting its poller if this is the first user). */
export function leadership(core: Core, name: string): Leadership {
  let leads = byCore.get(core);
  if (!leads) byCore.set(core, (leads = new Map()));
  let lead = leads.get(name);
  if (!lead) leads.set(name, (lead = begin(core, name)));
  lead.users++;
  const l = lead;
  let stopped = false;
  return {
    async leads() {
      await l.first;
      return l.held && !stopped;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      if (--l.users > 0) return;
      clearInterval(l.timer);
      leads.delete(name);
      if (l.held) void core.store.leader.release(name).catch(() => undefined);
    },
  };
}
