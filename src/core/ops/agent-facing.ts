// Which operations agents may call (every face but the operator routes) and their wire names.
import type { Operation } from './types.js';

const OPERATOR = new Set(['admin', 'ops', 'poll', 'check']);

/** The agent-facing operations: MCP tools and A2A skills are both this list. */
export function agentOps(ops: readonly Operation[]): Operation[] {
  return ops.filter((o) => !OPERATOR.has(o.auth));
}

/** Tool names use `_` for the registry's `.`: some clients refuse dots in tool names. */
export const toolName = (op: Operation) => op.name.replace(/\./g, '_');
