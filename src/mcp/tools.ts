// MCP tools generated from the operation registry: one tool per agent-facing operation, compact
// enough that the list of every agent tool (?toolsets=all) stays under 8,000 tokens
// (test/mcp/toolsets.test.ts counts it). What is advertised is lean; what is validated is not: the
// server checks every call with the op's full zod schema.
import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Operation } from '../core/kernel/types.js';
import { toolName } from '../core/kernel/agent-facing.js';
import { collectedSchema } from '../core/kernel/stream.js';
import { TOOLSETS as MODULE_TOOLSETS } from '../compose/toolsets.js';

// Shared with the A2A face (skills are the same operations).
export { agentOps, toolName } from '../core/kernel/agent-facing.js';

const SAFE = Number.MAX_SAFE_INTEGER;

/** Removes parenthetical asides (REST spellings, limits, examples): the long text is in /help and OpenAPI. */
const unparen = (t: string) => {
  let prev: string;
  do {
    prev = t;
    t = t.replace(/\s*\([^()]*\)/g, '');
  } while (t !== prev);
  return t;
};

/** Words a field description may carry beside the field's name without telling a model anything. */
const FILLER = new Set(['the', 'a', 'an', 'of', 'its', 'your', 'this', 'name', 'key', 'id', 'text', 'optional']);

/** Whether a word only spells out a field name (`ns` → namespace, `k` → key). */
const spells = (w: string, f: string) =>
  w === f || w.startsWith(f) || f.startsWith(w) || (w[0] === f[0] && [...f].every((c, i, a) => w.indexOf(c, i === 0 ? 0 : w.indexOf(a[i - 1]!) + 1) >= 0));

/** The text up to the first `sep` outside brackets and quotes that leaves at least `min` characters, if that is at most `max`. */
function clauseOf(t: string, seps: string[], min: number, max: number): string {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < Math.min(t.length, max + 1); i++) {
    const c = t[i]!;
    if (c === '"') quoted = !quoted;
    else if ('([{<'.includes(c)) depth++;
    else if (')]}>'.includes(c)) depth = Math.max(0, depth - 1);
    else if (!quoted && depth === 0 && i >= min && seps.includes(c) && t[i + 1] === ' ') return t.slice(0, i);
  }
  return t;
}

/**
 * A field's description for MCP: without asides, length limits and defaults (the schema states
 * the default; an over-long value gets a one-line `err bad <field>: …` naming the bound), cut at a
 * clause when long, and dropped when it only spells out the field's name (`ns`: "namespace").
 */
export function fieldNote(text: string, field: string, whole = false): string | undefined {
  let t = unparen(text)
    .replace(/^(?:optional|MCP\/A2A):?\s*/i, '')
    // REST spellings ("from POST /v1/challenge?for=reg", "uploaded with PUT /v1/b") mean nothing here.
    .replace(/,?\s*(?:from|with|by|uploaded with|by the key you published with)\s+(?:GET|POST|PUT|DELETE)\s+\/\S*/g, '')
    .replace(/^at most [^:,;]*:\s*/i, '')
    .replace(/(?:^|[,;]\s*)at most [^,;]*/gi, '')
    .replace(/(?:^|[,;]\s*)default [^;]*/gi, '')
    .trim();
  if (t.length > 60 && !whole) t = clauseOf(t, [';'], 8, t.length);
  // "comma list of lexicon families: a, b, c, …" → its head; "anonymous create: <challenge>:<nonce> …" stays.
  if (t.length > 60 && !whole && /^[^:]{12,}:\s.*,\s/.test(t)) t = t.slice(0, t.indexOf(':'));
  if (t.length > 60 && !whole) t = clauseOf(t, [','], 12, 60);
  t = t.replace(/[.,:;\s]+$/, '').replace(/^[,;:\s]+/, '');
  const f = field.toLowerCase().replace(/_/g, '');
  const words = t
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !FILLER.has(w));
  return words.length === 0 || (words.length <= 2 && words.every((w) => spells(w, f))) ? undefined : t;
}

/** Hand-written briefs where the rule below would cut an enumeration short or keep a long sentence. */
const BRIEF: Record<string, string> = {
  'kb.search': 'Full-text search over titles, errors, fixes and tags.',
  'kb.e': 'Known fixes of an error output, best first.',
  'kb.signed': 'Signed confirmations of an entry, to verify yourself.',
  'kb.outcome': 'Report how a fix went.',
  'note.update': 'Replace the title or body of one of your notes.',
  'inj.about': 'What the injection map stores and what it means.',
  'inj.map': 'Top 50 hosts reported for injection content in 24 h.',
  'svc.ok': 'Sign an L2 ok report of a service version.',
  'credits.show': 'Your credit balance, escrow and latest postings.',
  'agent.publish': 'Publish or update the A2A agent card of your identity.',
  'id.register': 'Spend a solved PoW to create an identity and get its token.',
  'kv.get': "Your kv: sink's latest value.",
  'space.manage': 'Owners invite, remove, promote, purge; members export.',
  'task.reject': 'Creator: send a submitted task back to its claimant with a note.',
  'cp.publish': 'Make one of your checkpoints public.',
  'cache.put': 'Store a result under a key in a namespace.',
  'anchor.claim': 'Claim a rendezvous key with a public note.',
  'key.get': 'Server statement key, its root certificate or a did:web document.',
  'badge.get': 'Badge of an agent, KB entry, space, task or live counts.',
};

/**
 * A tool's description for MCP: the head of its summary (first sentence, up to a colon or
 * semicolon) without asides, cut at a clause when still long. The full summary stays in /help,
 * OpenAPI and the server card.
 */
export function briefOf(op: Operation): string {
  const own = BRIEF[op.name];
  if (own !== undefined) return own;
  const summary = op.summary;
  let t = clauseOf(headOf(unparen(summary)), ['.'], 15, 400).replace(/\.$/, '');
  if (t.length > 48) t = clauseOf(t, [','], 25, 60);
  return `${t.replace(/[.,:;\s]+$/, '')}.`;
}

/**
 * Drops what costs tokens and tells a model nothing (the server validates every input with the
 * op's zod schema anyway): the ±2^53 bounds zod puts on every integer, every pattern (ids come
 * from earlier results; a wrong shape gets a one-line `err bad <field>`), string length bounds,
 * `additionalProperties: false`, asides in field descriptions and descriptions that repeat the
 * field's name. `string | string[]` stays an anyOf: strict validators (the MCP Inspector's schema
 * check) warn on `type` arrays.
 */
function compact(node: unknown, field = ''): unknown {
  if (Array.isArray(node)) return node.map((n) => compact(n));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  const src = node as Record<string, unknown>;
  // zod writes a nullable primitive as `"type": ["string", "null"]`; strict validators (the MCP
  // Inspector's schema check) warn on type arrays, so it becomes an anyOf of single types.
  if (Array.isArray(src.type)) {
    const { type, ...rest } = src;
    return compact({ ...rest, anyOf: (type as unknown[]).map((t) => ({ type: t })) }, field);
  }
  for (const [k, v] of Object.entries(src)) {
    // Integer bounds that say nothing: zod's ±2^53, a count's floor of 0 or 1, a ceiling no one reaches.
    if ((k === 'minimum' && (v === -SAFE || v === 0 || v === 1)) || (k === 'maximum' && typeof v === 'number' && v >= 100_000)) continue;
    if (k === 'description' && typeof v === 'string') {
      // An object sent without its properties (nested) keeps its whole description: it states the shape.
      const d = fieldNote(v, field, src.type === 'object' && src.properties === undefined);
      if (d !== undefined) out[k] = d;
      continue;
    }
    // Defaults: a model leaves an optional field out anyway, and the server applies them.
    if (k === 'pattern' || k === 'default' || (k === 'additionalProperties' && v === false) || k === 'minLength' || k === 'maxLength') continue;
    if (k === 'properties' && typeof v === 'object' && v !== null) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, compact(nested(sub), name)]));
      continue;
    }
    out[k] = compact(v);
  }
  return out;
}

/** A field that is itself an object with a description stating its shape is sent as that description. */
function nested(sub: unknown): unknown {
  const x = sub as { type?: unknown; properties?: unknown; description?: unknown };
  return x.type === 'object' && x.properties && typeof x.description === 'string' ? { type: 'object', description: x.description } : sub;
}

function objectSchema(s: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const js = compact(z.toJSONSchema(s, { io, target: 'draft-7', unrepresentable: 'any' })) as Record<string, unknown>;
  delete js.$schema;
  // A tool without arguments is `{"type":"object"}`, as the MCP specification shows it.
  if (io === 'input' && js.properties && Object.keys(js.properties).length === 0) delete js.properties;
  // Tool schemas must describe an object; every op input and output is one.
  return { ...js, type: 'object' } as Tool['inputSchema'];
}

/**
 * Output schemas only where a client reads fields of the result to make its next call (the text
 * content carries everything else, and structuredContent is sent either way).
 */
const WITH_OUTPUT = new Set(['id.challenge', 'id.register', 'id.url_token']);

/**
 * A field described alike in several tools of one list (a drop's `secret`, a swarm `topic`) keeps
 * its description in the first of them only: a model reads the list as a whole. Tools are copied,
 * never changed, so every list built from the catalog's tools stays as it was.
 */
export function onceDescribed(tools: Tool[]): Tool[] {
  const seen = new Set<string>();
  return tools.map((t) => {
    const props = t.inputSchema.properties as Record<string, { description?: string }> | undefined;
    if (!props) return t;
    let copy: Record<string, object> | undefined;
    for (const [name, p] of Object.entries(props)) {
      if (typeof p?.description !== 'string') continue;
      const key = `${name}\0${p.description}`;
      if (!seen.has(key)) {
        seen.add(key);
        continue;
      }
      copy ??= { ...props };
      const { description: _said, ...rest } = p;
      copy[name] = rest;
    }
    return copy ? { ...t, inputSchema: { ...t.inputSchema, properties: copy } } : t;
  });
}

/**
 * Toolsets a client can mount (`?toolsets=kb,drops`), name → one line, as the modules declare them
 * (src/compose/toolsets.ts). `id` is always mounted.
 */
export const TOOLSETS: Readonly<Record<string, string>> = MODULE_TOOLSETS.about;

/** The toolset an agent-facing operation is mounted under (its module declares it). */
export function toolsetOf(op: Operation): string | undefined {
  return MODULE_TOOLSETS.of.get(op.name);
}

/**
 * The head of a summary: its first sentence, up to its first colon or semicolon. The details (REST
 * forms, limits) are in the input field descriptions, the guides and /llms-full.txt.
 */
function headOf(text: string): string {
  const m = /^(.{40,}?[.!?])\s+[A-Z(]/s.exec(text);
  const first = m ? m[1]! : text;
  const cut = /^(.{15,}?)[:;]\s/s.exec(first);
  // Not inside parentheses: "(claimant only: …)" stays whole.
  return cut && !/\([^)]*$/.test(cut[1]!) ? `${cut[1]}.` : first;
}

export function toolOf(op: Operation): Tool {
  const auth = op.auth === 'anon' ? '' : op.auth === 'pow' ? ' Token (or REST X-PoW).' : ' Token.';
  const withOutput = WITH_OUTPUT.has(op.name);
  // No top-level title: name and description say it, and the list must stay small (the server
  // card and /llms.txt carry titles).
  const annotations = op.readOnly ? { readOnlyHint: true } : op.destructive ? {} : { destructiveHint: false };
  return {
    name: toolName(op),
    description: `${briefOf(op)}${auth}${op.stream ? ' Streams with a progressToken.' : ''}`,
    inputSchema: objectSchema(op.input, 'input'),
    // A streaming op's tool call ends with what it collected (items within max/wait).
    ...(withOutput ? { outputSchema: objectSchema(op.stream ? collectedSchema(op.stream) : op.output, 'output') as Tool['outputSchema'] } : {}),
    // Only hints that differ from the spec's defaults (readOnly false, destructive true, idempotent
    // false, openWorld true); destructive means nothing on a read-only tool. Every tool, reads too,
    // touches a commons that unknown agents write: open world, the default, so no openWorldHint.
    // idempotentHint is left out for the list's budget (a retry of a write is the client's call).
    annotations,
  };
}

/**
 * Toolsets mounted when a client names none: every toolset but the ones added with the second
 * half of the spec (swarm, gov, compute), mounted by name (`?toolsets=swarm,kb`) or with
 * `?toolsets=all`. Every agent tool together fits the 8,000-token budget too (issue 15); the
 * default stays the smaller list most agents need.
 */
export const DEFAULT_TOOLSETS = Object.keys(TOOLSETS)
  .filter((t) => !['swarm', 'gov', 'compute'].includes(t))
  .sort();

const DEFAULT_RW: ToolSelection = Object.freeze({ toolsets: DEFAULT_TOOLSETS, readonly: false });
const DEFAULT_RO: ToolSelection = Object.freeze({ toolsets: DEFAULT_TOOLSETS, readonly: true });

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
  // The common case, one object each (the catalog finds its view by identity).
  if (setsRaw === undefined || setsRaw.trim() === '') return readonly ? DEFAULT_RO : DEFAULT_RW;
  const toolsets = [
    ...new Set(
      setsRaw
        .split(',')
        .map((x) => x.trim().toLowerCase())
        .filter(Boolean),
    ),
  ].sort();
  const unknown = toolsets.find((t) => !(t in TOOLSETS));
  if (unknown !== undefined) return `unknown toolset ${unknown.slice(0, 40)}; known: ${Object.keys(TOOLSETS).join(',')}`;
  return { toolsets, readonly };
}

export const selectionKey = (s: ToolSelection) => `${s.toolsets?.join(',') ?? '*'}|${s.readonly ? 'ro' : 'rw'}`;

/** Whether an op is mounted under a selection (`id` is always mounted so a client can register). */
export function mounted(op: Operation, s: ToolSelection): boolean {
  if (s.readonly && !op.readOnly) return false;
  const set = toolsetOf(op);
  return !s.toolsets || set === 'id' || (set !== undefined && s.toolsets.includes(set));
}
