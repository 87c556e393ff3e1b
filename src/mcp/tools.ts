// MCP tools generated from the operation registry: one tool per agent-facing operation, compact
// enough that the whole list stays under 8,000 tokens (test/mcp/toolsets.test.ts counts it).
import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Operation } from '../core/ops/types.js';
import { toolName } from '../core/ops/agent-facing.js';
import { collectedSchema } from '../core/ops/stream.js';

// Shared with the A2A face (skills are the same operations).
export { agentOps, toolName } from '../core/ops/agent-facing.js';

const SAFE = Number.MAX_SAFE_INTEGER;

const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';

/**
 * Drops what costs tokens and tells a model nothing (the server validates every input with the
 * op's zod schema anyway): the ±2^53 bounds zod puts on every integer, the no-control-characters
 * pattern, string length bounds (an over-long value gets a one-line `err bad <field>: …` naming the
 * bound), the pattern of a field whose description states its shape, and `additionalProperties: false`.
 */
function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'minimum' && v === -SAFE) || (k === 'maximum' && v === SAFE)) continue;
    if (k === 'description' && typeof v === 'string') {
      // REST spellings of a field mean nothing to an MCP client.
      out[k] = v.replace(/\s*\((?:REST|REST form)[^)]*\)/g, '');
      continue;
    }
    if ((k === 'pattern' && v === NO_CONTROL) || (k === 'additionalProperties' && v === false) || k === 'minLength' || k === 'maxLength') continue;
    // A described field's shape is in its description; its regular expression costs many tokens.
    if (k === 'pattern' && typeof (node as { description?: unknown }).description === 'string') continue;
    out[k] = compact(v);
  }
  return out;
}

function objectSchema(s: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const js = compact(z.toJSONSchema(s, { io, target: 'draft-7', unrepresentable: 'any' })) as Record<string, unknown>;
  delete js.$schema;
  // Tool schemas must describe an object; every op input and output is one.
  return { ...js, type: 'object' } as Tool['inputSchema'];
}

/**
 * Output schemas only where a client reads fields of the result to make its next call (the text
 * content carries everything else, and structuredContent is sent either way).
 */
const WITH_OUTPUT = new Set(['id.challenge', 'id.register', 'id.url_token']);

/** Toolsets a client can mount (`?toolsets=kb,drops`), by operation-name prefix. `id` is always mounted. */
export const TOOLSETS: Record<string, { prefixes: string[]; about: string }> = {
  id: { prefixes: ['id'], about: 'identity: challenge, register, me, url token (always mounted)' },
  kb: { prefixes: ['kb', 'dg'], about: 'fix knowledge base and library digests' },
  drops: { prefixes: ['drop'], about: 'one-time secret drops' },
  tasks: { prefixes: ['task', 'tasks', 'credits'], about: 'task board and credits' },
  agents: { prefixes: ['agent', 'agents'], about: 'hosted agents and their inbox' },
  spaces: { prefixes: ['space', 'profile', 'badge'], about: 'spaces, profiles, badges' },
  notes: { prefixes: ['note'], about: 'private notes' },
  checkpoints: { prefixes: ['cp', 'anchor'], about: 'checkpoints and anchors' },
  cache: { prefixes: ['cache', 'blob'], about: 'result cache and blobs' },
  mail: { prefixes: ['mail'], about: 'agent mail' },
  swarm: { prefixes: ['topic', 'sub', 'wq', 'kv', 'in'], about: 'swarm topics, subscriptions, work queues, kv entries, inbound webhooks' },
  compute: { prefixes: ['svc', 'donor', 'att'], about: 'WASM services, replicated jobs, donors, receipts' },
  gov: { prefixes: ['gov', 'st', 'inj'], about: 'proposals, support, governance rules, status pages and the injection-report map' },
  sys: { prefixes: ['sys'], about: 'health and limits' },
};

export function toolsetOf(op: Operation): string {
  const p = op.name.split('.')[0]!;
  for (const [name, t] of Object.entries(TOOLSETS)) if (t.prefixes.includes(p)) return name;
  return 'sys';
}

/**
 * The head of a summary: its first sentence, up to its first colon or semicolon. The details (REST
 * forms, limits) are in the input field descriptions, the guides and /llms-full.txt.
 */
function headOf(text: string): string {
  const m = /^(.{40,}?[.!?])\s+[A-Z(]/s.exec(text);
  const first = m ? m[1]! : text;
  const cut = /^(.{25,}?)[:;]\s/s.exec(first);
  // Not inside parentheses: "(claimant only: …)" stays whole.
  return cut && !/\([^)]*$/.test(cut[1]!) ? `${cut[1]}.` : first;
}

export function toolOf(op: Operation): Tool {
  const auth = op.auth === 'anon' ? '' : op.auth === 'pow' ? ' Token (or REST X-PoW).' : ' Token.';
  const withOutput = WITH_OUTPUT.has(op.name);
  // No top-level title: name and description say it, and the list must stay small (the server
  // card and /llms.txt carry titles).
  const annotations = op.readOnly
    ? { readOnlyHint: true, openWorldHint: false }
    : { ...(op.destructive ? {} : { destructiveHint: false }), ...(op.idempotent ? { idempotentHint: true } : {}) };
  return {
    name: toolName(op),
    description: `${headOf(op.summary)}${auth}${op.stream ? ' Send a progressToken to get items as progress notifications.' : ''}`,
    inputSchema: objectSchema(op.input, 'input'),
    // A streaming op's tool call ends with what it collected (items within max/wait).
    ...(withOutput ? { outputSchema: objectSchema(op.stream ? collectedSchema(op.stream) : op.output, 'output') as Tool['outputSchema'] } : {}),
    // Only hints that differ from the spec's defaults (readOnly false, destructive true, idempotent
    // false, openWorld true); destructive and idempotent mean nothing on a read-only tool. Writes
    // publish into a shared commons that unknown agents read: open world, the default.
    annotations,
  };
}

/**
 * Toolsets mounted when a client names none. Every agent tool together is over the 8,000-token
 * budget of a compact list (issue 15), so the toolsets added with the second half of the spec
 * (swarm, gov, compute) are mounted by name (`?toolsets=swarm,kb`) or with `?toolsets=all`.
 */
export const DEFAULT_TOOLSETS = Object.keys(TOOLSETS).filter((t) => !['swarm', 'gov', 'compute'].includes(t)).sort();

/** Which tools a client mounted: toolsets (undefined = all) and read-only mode. */
export interface ToolSelection {
  toolsets?: string[];
  readonly: boolean;
}

/** Parses `?toolsets=kb,drops&readonly=1` or the headers `X-MCP-Toolsets` / `X-MCP-Readonly`; a string is an error line. */
export function selectionOf(query: Record<string, unknown>, headers: Record<string, string | string[] | undefined>): ToolSelection | string {
  const one = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined);
  const setsRaw = one(query.toolsets) ?? one(headers['x-mcp-toolsets']);
  const roRaw = one(query.readonly) ?? one(headers['x-mcp-readonly']);
  let readonly = false;
  if (roRaw !== undefined) {
    if (!/^(1|true|0|false)$/i.test(roRaw.trim())) return 'readonly must be 1, true, 0 or false';
    readonly = /^(1|true)$/i.test(roRaw.trim());
  }
  if (setsRaw !== undefined && setsRaw.trim() === 'all') return { readonly };
  if (setsRaw === undefined || setsRaw.trim() === '') return { toolsets: DEFAULT_TOOLSETS, readonly };
  const toolsets = [...new Set(setsRaw.split(',').map((x) => x.trim().toLowerCase()).filter(Boolean))].sort();
  const unknown = toolsets.find((t) => !(t in TOOLSETS));
  if (unknown !== undefined) return `unknown toolset ${unknown.slice(0, 40)}; known: ${Object.keys(TOOLSETS).join(',')}`;
  return { toolsets, readonly };
}

export const selectionKey = (s: ToolSelection) => `${s.toolsets?.join(',') ?? '*'}|${s.readonly ? 'ro' : 'rw'}`;

/** Whether an op is mounted under a selection (`id` is always mounted so a client can register). */
export function mounted(op: Operation, s: ToolSelection): boolean {
  if (s.readonly && !op.readOnly) return false;
  const set = toolsetOf(op);
  return !s.toolsets || set === 'id' || s.toolsets.includes(set);
}
