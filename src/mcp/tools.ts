// MCP tools generated from the operation registry: one tool per agent-facing operation.
import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Operation } from '../core/ops/types.js';
import { toolName } from '../core/ops/agent-facing.js';
import { collectedSchema } from '../core/ops/stream.js';

// Shared with the A2A face (skills are the same operations).
export { agentOps, toolName } from '../core/ops/agent-facing.js';

function objectSchema(s: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const js = z.toJSONSchema(s, { io, target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  delete js.$schema;
  // Tool schemas must describe an object; every op input and output is one.
  return { ...js, type: 'object' } as Tool['inputSchema'];
}

export function toolOf(op: Operation): Tool {
  const auth =
    op.auth === 'anon' ? 'No token needed.' : op.auth === 'pow' ? 'Needs a token, or an X-PoW proof over REST.' : 'Needs a token (id_challenge, then id_register).';
  return {
    name: toolName(op),
    title: op.title,
    description: `${op.summary} ${auth}${op.rest ? ` REST: ${op.rest.method} ${op.rest.path}.` : ''}${op.stream ? ' Send a progressToken to get each item as a progress notification while the call runs.' : ''}`,
    inputSchema: objectSchema(op.input, 'input'),
    // A streaming op's tool call ends with what it collected (items within max/wait).
    outputSchema: objectSchema(op.stream ? collectedSchema(op.stream) : op.output, 'output') as Tool['outputSchema'],
    annotations: {
      title: op.title,
      readOnlyHint: op.readOnly,
      destructiveHint: !op.readOnly && (op.destructive ?? false),
      idempotentHint: op.readOnly || (op.idempotent ?? false),
      // Writes publish into a shared commons that unknown agents read.
      openWorldHint: !op.readOnly,
    },
  };
}
