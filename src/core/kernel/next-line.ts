// `next:` lines for faces other than REST: the op text renderers name REST routes ("GET /k/<id>");
// an MCP client calls tools, so each route of a next line becomes the tool of the operation bound to
// it, with the path parameters and query fields as arguments ("kb_get {"id":"<id>"}"); an A2A client
// sends messages, so it becomes the data part that runs that skill
// (`send {"skill":"kb.get","input":{"id":"<id>"}}`).
import { z } from 'zod';
import { toolName } from './agent-facing.js';
import type { Operation } from './types.js';

interface Route {
  method: string;
  re: RegExp;
  params: string[];
  tool: string;
  /** Fixed arguments first (the act of an operation reached through another, `via`). */
  fixed: Record<string, string>;
  /** The operation's name: the A2A skill id. */
  op: string;
  /** Input fields that are numbers or booleans: their query strings become such values in the arguments. */
  types: Map<string, string>;
  /** Literal path characters: the most specific route wins (/v1/tasks/stream before /v1/tasks/:id). */
  weight: number;
}

/** The op's number and boolean input fields (a next line's `?since=3` is the number 3 in a call). */
function scalarTypes(op: Operation): Map<string, string> {
  const js = z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { type?: string }> };
  return new Map(
    Object.entries(js.properties ?? {}).flatMap(([k, v]) => (v.type === 'integer' || v.type === 'number' || v.type === 'boolean' ? [[k, v.type]] : [])),
  );
}

function scalar(v: string, type: string | undefined): unknown {
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  if (type === 'boolean' && (v === 'true' || v === '1')) return true;
  if (type === 'boolean' && (v === 'false' || v === '0')) return false;
  return v;
}

const ROUTE = /\b(GET|POST|PUT|DELETE|HEAD)s?\s+(\/[^\s,;)]*)/g;

export class NextLines {
  private routes: Route[];
  constructor(ops: readonly Operation[]) {
    this.routes = ops
      .filter((o) => o.rest)
      .map((o) => {
        const params: string[] = [];
        const alias = o.rest!.paramAlias ?? {};
        const src = o
          .rest!.path.split('/')
          .map((seg) => {
            if (seg === '*') {
              params.push(alias['*'] ?? 'path');
              return '(.+)';
            }
            if (seg.startsWith(':')) {
              params.push(alias[seg.slice(1)] ?? seg.slice(1));
              return o.rest!.twins?.length ? '([^/?]+?)' : '([^/?]+)';
            }
            return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          })
          .join('/');
        // A twin (`/limits.md`, `/k/<id>.json`) is the same operation in another format: the same tool.
        const twins = o.rest!.twins?.length ? `(?:\\.(?:${o.rest!.twins.join('|')}))?` : '';
        // An operation agents reach through another is called as that one, with its selecting input.
        const tool = o.via ? o.via.op.replace(/\./g, '_') : toolName(o);
        return {
          method: o.rest!.method,
          re: new RegExp(`^${src}${twins}/?$`),
          params,
          tool,
          fixed: o.via?.input ?? {},
          op: o.via?.op ?? o.name,
          types: scalarTypes(o),
          weight: o.rest!.path.replace(/:[a-z_]+|\*/g, '').length,
        };
      })
      .sort((a, b) => b.weight - a.weight);
  }

  /** `GET /k/k123?n=2` → `kb_get {"id":"k123","n":2}`; null when no agent tool serves that route. */
  tool(method: string, target: string, tools: ReadonlySet<string>): string | null {
    const m = this.match(method, target, (r) => tools.has(r.tool));
    if (!m) return null;
    return Object.keys(m.args).length ? `${m.route.tool} ${JSON.stringify(m.args)}` : m.route.tool;
  }

  /** `GET /k/k123` → `{"skill":"kb.get","input":{"id":"k123"}}`; null when no skill serves that route. */
  skill(method: string, target: string, skills: ReadonlySet<string>): string | null {
    const m = this.match(method, target, (r) => skills.has(r.op));
    return m ? JSON.stringify({ skill: m.route.op, input: m.args }) : null;
  }

  private match(method: string, target: string, served: (r: Route) => boolean): { route: Route; args: Record<string, unknown> } | null {
    const [path, query] = target.split('?', 2) as [string, string | undefined];
    for (const r of this.routes) {
      if (r.method !== method || !served(r)) continue;
      const m = r.re.exec(path);
      if (!m) continue;
      const args: Record<string, unknown> = { ...r.fixed };
      r.params.forEach((p, i) => (args[p] = scalar(decodeURIComponent(m[i + 1]!), r.types.get(p))));
      if (query) for (const [k, v] of new URLSearchParams(query)) if (k !== 'f') args[k] = scalar(v, r.types.get(k));
      return { route: r, args };
    }
    return null;
  }

  /** Rewrites the routes of every `next:` line of a text reply into tool calls (routes without a tool stay). */
  forTools(text: string, tools: ReadonlySet<string>): string {
    return this.rewrite(text, (method, target) => this.tool(method, target, tools), 'call', 'calls');
  }

  /** The same for an A2A caller: each route becomes the message that runs its skill. */
  forSkills(text: string, skills: ReadonlySet<string>): string {
    return this.rewrite(text, (method, target) => this.skill(method, target, skills), 'send', 'send');
  }

  private rewrite(text: string, to: (method: string, target: string) => string | null, verb: string, verbs: string): string {
    if (!text.includes('next:')) return text;
    return text
      .split('\n')
      .map((line) =>
        line.startsWith('next:')
          ? line.replace(ROUTE, (all, method: string, target: string) => {
              const t = to(method, target);
              return t === null ? all : `${/s\s/.test(all.slice(method.length, method.length + 2)) ? verbs : verb} ${t}`;
            })
          : line,
      )
      .join('\n');
  }
}
