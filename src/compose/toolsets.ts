// The MCP toolsets, gathered from what each module declares (Module.toolsets): their names and
// one-line descriptions, in their published order, and which toolset every agent-facing operation
// is mounted under. An agent-facing operation whose module declares no toolset for it stops the
// start here (rather than landing in some catch-all set).
import { agentOps } from '../core/kernel/agent-facing.js';
import type { Module } from '../core/kernel/module.js';
import { MODULES } from './modules.js';

export interface Toolsets {
  /** Name → one line, in the order the server card and `?toolsets` errors list them. */
  about: Readonly<Record<string, string>>;
  /** Operation name → its toolset (agent-facing operations only). */
  of: ReadonlyMap<string, string>;
}

/**
 * The order toolsets are published in (server card, `known:` of an unknown-toolset error). A
 * toolset not named here follows these, in module order.
 */
export const TOOLSET_ORDER = ['id', 'kb', 'drops', 'tasks', 'agents', 'spaces', 'notes', 'checkpoints', 'cache', 'mail', 'swarm', 'compute', 'gov', 'sys'];

/** Gathers the toolsets of a module list; throws one line naming the module on a gap or a clash. */
export function toolsetsOf(modules: readonly Module[], order: readonly string[] = TOOLSET_ORDER): Toolsets {
  const about = new Map<string, string>();
  const seen: string[] = [];
  const of = new Map<string, string>();
  for (const m of modules) {
    const parts = m.toolsets ?? [];
    const used = new Set<(typeof parts)[number]>();
    for (const p of parts) {
      if (!seen.includes(p.name)) seen.push(p.name);
      if (p.about === undefined) continue;
      if (about.has(p.name)) throw new Error(`toolset ${p.name}: described twice (module ${m.name})`);
      about.set(p.name, p.about);
    }
    for (const op of agentOps(m.ops)) {
      const prefix = op.name.split('.')[0]!;
      const p = parts.find((x) => x.prefixes?.includes(prefix)) ?? parts.find((x) => x.prefixes === undefined);
      if (!p) throw new Error(`operation ${op.name}: module ${m.name} declares no MCP toolset for it`);
      used.add(p);
      of.set(op.name, p.name);
    }
    for (const p of parts) if (!used.has(p)) throw new Error(`toolset ${p.name}: module ${m.name} puts no operation in it`);
  }
  const missing = seen.find((n) => !about.has(n));
  if (missing !== undefined) throw new Error(`toolset ${missing}: no module describes it`);
  const names = [...order.filter((n) => about.has(n)), ...seen.filter((n) => !order.includes(n))];
  return { about: Object.fromEntries(names.map((n) => [n, about.get(n)!])), of };
}

export const TOOLSETS: Toolsets = toolsetsOf(MODULES);
