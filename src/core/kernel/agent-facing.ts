// Which operations agents may call (every face but the operator routes) and their wire names.
import type { Operation } from './types.js';

const OPERATOR = new Set(['admin', 'ops', 'poll', 'check']);

/** The agent-facing operations: MCP tools and A2A skills are both this list. Operations reached
 *  through another (`via`, e.g. the acts of space.manage) have no tool or skill of their own. */
export function agentOps(ops: readonly Operation[]): Operation[] {
  return ops.filter((o) => !OPERATOR.has(o.auth) && !o.via);
}

/** Tool names use `_` for the registry's `.`: some clients refuse dots in tool names. */
export const toolName = (op: Operation) => op.name.replace(/\./g, '_');
