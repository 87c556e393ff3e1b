// `next:` lines for faces other than REST: the op text renderers name REST routes ("GET /k/<id>");
// an MCP client calls tools, so each route of a next line becomes the tool of the operation bound to
// it, with the path parameters and query fields as arguments ("kb_get {"id":"<id>"}").
import { toolName } from './agent-facing.js';
import type { Operation } from './types.js';

interface Route {
  method: string;
  re: RegExp;
  params: string[];
  tool: string;
  /** Fixed arguments first (the act of an operation reached through another, `via`). */
  fixed: Record<string, string>;
  /** Literal path characters: the most specific route wins (/v1/tasks/stream before /v1/tasks/:id). */
  weight: number;
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
        const src = o.rest!.path
          .split('/')
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
        return { method: o.rest!.method, re: new RegExp(`^${src}${twins}/?$`), params, tool, fixed: o.via?.input ?? {}, weight: o.rest!.path.replace(/:[a-z_]+|\*/g, '').length };
      })
      .sort((a, b) => b.weight - a.weight);
  }

  /** `GET /k/k123?n=2` → `kb_get {"id":"k123","n":"2"}`; null when no agent tool serves that route. */
  tool(method: string, target: string, tools: ReadonlySet<string>): string | null {
    const [path, query] = target.split('?', 2) as [string, string | undefined];
    for (const r of this.routes) {
      if (r.method !== method || !tools.has(r.tool)) continue;
      const m = r.re.exec(path);
      if (!m) continue;
      const args: Record<string, string> = { ...r.fixed };
      r.params.forEach((p, i) => (args[p] = decodeURIComponent(m[i + 1]!)));
      if (query) for (const [k, v] of new URLSearchParams(query)) if (k !== 'f') args[k] = v;
      return Object.keys(args).length ? `${r.tool} ${JSON.stringify(args)}` : r.tool;
    }
    return null;
  }

  /** Rewrites the routes of every `next:` line of a text reply into tool calls (routes without a tool stay). */
  forTools(text: string, tools: ReadonlySet<string>): string {
    if (!text.includes('next:')) return text;
    return text
      .split('\n')
      .map((line) => (line.startsWith('next:') ? line.replace(ROUTE, (all, method: string, target: string) => {
        const t = this.tool(method, target, tools);
        return t === null ? all : `${/s\s/.test(all.slice(method.length, method.length + 2)) ? "calls" : "call"} ${t}`;
      }) : line))
      .join('\n');
  }
}
