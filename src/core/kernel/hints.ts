// Next steps as data (issue 36): an operation (or an error) names what the caller may do next as
// `{op, input}`, and the caller's face words it: REST as the route (`GET /k/k123`), MCP as the tool
// and its arguments (`call kb_get {"id":"k123"}`), A2A as the message that runs the skill
// (`send {"skill":"kb.get","input":{"id":"k123"}}`). Nothing reads one face's words back out of
// text. A next line is prose and steps in order: `next(ctx, hint('kb.get', {id}), ' for the entry')`.

/** One next step: an operation and its input (placeholders such as `<id>` are fine). */
export interface Hint {
  op: string;
  input?: Record<string, unknown>;
  /** Words after the step (`for the whole entry`), separated by a space. */
  say?: string;
  /** REST only: input fields written in the query string of a route that takes a body too (`?for=reg`). */
  query?: readonly string[];
  /** REST only: the format twin to name (`md`: `/limits.md`); the other faces call the same operation. */
  twin?: string;
  /** How the step sits in a sentence: `plural` ("the claimant POSTs …", "calls …", "sends …"),
   *  `bare` (no verb: the path, the tool with its arguments, the message). */
  form?: 'plural' | 'bare';
}

/** Prose, or a step the face words. */
export type Step = string | Hint;

export type FaceName = 'rest' | 'mcp' | 'a2a';

/** A face's wording of steps. */
export interface HintFace {
  readonly face: FaceName;
  step(h: Hint): string;
}

/** What the hints need to know of an operation (structurally an Operation of src/core/ops/types.ts). */
export interface HintOp {
  name: string;
  rest?: { method: string; path: string; paramAlias?: Record<string, string>; query?: readonly string[] };
  via?: { op: string; input: Record<string, string> };
}

export function hint(op: string, input?: Record<string, unknown>, say?: string): Hint {
  const h: Hint = { op };
  if (input) h.input = input;
  if (say) h.say = say;
  return h;
}

/** Characters a path segment or query value keeps as they are (RFC 3986 pchar, less the query's own). */
const SAFE = /^[A-Za-z0-9\-._~:@!$'()*,;]*$/;
/** `<id>`, `<a>..<b>`: placeholders for the reader to fill, shown as written. */
const PLACEHOLDER = /^(?:<[a-z_ ]+>|[A-Za-z0-9\-._~:@|])+$/;

function pathValue(v: unknown): string {
  const s = String(v);
  return SAFE.test(s) || PLACEHOLDER.test(s) ? s : encodeURIComponent(s);
}

function queryValue(v: unknown): string {
  return String(v)
    .split(' ')
    .map((w) => (SAFE.test(w) || PLACEHOLDER.test(w) ? w : encodeURIComponent(w)))
    .join('+');
}

const withSay = (s: string, h: Hint) => (h.say ? `${s} ${h.say}` : s);

interface Route {
  method: string;
  /** Path segments: a literal, or the input field of a parameter (after aliasing). */
  segs: Array<{ lit?: string; field?: string }>;
  /** The fields that are path parameters. */
  fields: ReadonlySet<string>;
  query: ReadonlySet<string>;
  /** Agents reach it as another operation (`via`): that one's name and selecting input. */
  as: string;
  fixed: Record<string, string>;
}

/** The route table of the registry: what every face's wording is made from. */
export class HintRoutes {
  private routes = new Map<string, Route>();
  constructor(ops: readonly HintOp[]) {
    for (const o of ops) {
      const r = o.rest;
      const alias = r?.paramAlias ?? {};
      const segs = (r?.path ?? '')
        .split('/')
        .map((seg): { lit?: string; field?: string } =>
          seg === '*' ? { field: alias['*'] ?? 'path' } : seg.startsWith(':') ? { field: alias[seg.slice(1)] ?? seg.slice(1) } : { lit: seg },
        );
      this.routes.set(o.name, {
        method: r?.method ?? '',
        segs,
        fields: new Set(segs.flatMap((x) => (x.field ? [x.field] : []))),
        query: new Set(r?.query ?? []),
        as: o.via?.op ?? o.name,
        fixed: o.via?.input ?? {},
      });
    }
  }

  /** `GET /k/k123?n=2`, `POST /v1/tasks space=s1`; an op without a route is named as itself.
   *  Plain loops and concatenation: REST words the KB answers (POST /e, GET /h) with it. */
  restStep(h: Hint): string {
    const r = this.routes.get(h.op);
    if (!r?.method) return withSay(h.form === 'bare' ? h.op : `${h.op}${h.form === 'plural' ? 's' : ''}`, h);
    const input = h.input;
    let path = '';
    for (let i = 0; i < r.segs.length; i++) {
      const s = r.segs[i]!;
      if (i) path += '/';
      if (s.lit !== undefined) path += s.lit;
      else path += input?.[s.field!] === undefined ? `<${s.field}>` : pathValue(input[s.field!]);
    }
    if (h.twin) path += `.${h.twin}`;
    let query = '';
    let body = '';
    if (input) {
      const get = r.method === 'GET' || r.method === 'HEAD';
      for (const k in input) {
        const v = input[k];
        if (v === undefined || r.fields.has(k)) continue;
        // A GET has no body: every field is a query field; other methods take their declared query fields there.
        if (get || r.query.has(k) || h.query?.includes(k)) query += `${query ? '&' : '?'}${k}=${queryValue(v)}`;
        else body += ` ${k}=${String(v)}`;
      }
    }
    const verb = h.form === 'bare' ? '' : `${r.method}${h.form === 'plural' ? 's' : ''} `;
    return withSay(verb + path + query + body, h);
  }

  /** The operation agents call for it and the arguments (a `via` op is called as the one it is reached through). */
  called(h: Hint): { op: string; args: Record<string, unknown> } {
    const r = this.routes.get(h.op);
    return { op: r?.as ?? h.op, args: { ...(r?.fixed ?? {}), ...(h.input ?? {}) } };
  }

  /** REST: the route. */
  rest(): HintFace {
    return { face: 'rest', step: (h) => this.restStep(h) };
  }

  /** MCP: the tool with its arguments; a step with no tool mounted here keeps its route. */
  tools(mounted: ReadonlySet<string>): HintFace {
    return {
      face: 'mcp',
      step: (h) => {
        const { op, args } = this.called(h);
        const tool = op.replace(/\./g, '_');
        if (!mounted.has(tool)) return this.restStep(h);
        const call = Object.keys(args).length ? `${tool} ${JSON.stringify(args)}` : tool;
        return withSay(h.form === 'bare' ? call : `${h.form === 'plural' ? 'calls' : 'call'} ${call}`, h);
      },
    };
  }

  /** A2A: the data part that runs the skill; a step with no skill keeps its route. */
  skills(served: ReadonlySet<string>): HintFace {
    return {
      face: 'a2a',
      step: (h) => {
        const { op, args } = this.called(h);
        if (!served.has(op)) return this.restStep(h);
        const msg = JSON.stringify({ skill: op, input: args });
        return withSay(h.form === 'bare' ? msg : `${h.form === 'plural' ? 'sends' : 'send'} ${msg}`, h);
      },
    };
  }
}

// The registry's table, set once when the registry loads: the wording of a context that names no
// face of its own (REST), and of an error's detail on REST.
let registered: HintRoutes | null = null;
let restFace: HintFace | null = null;

export function useHintOps(ops: readonly HintOp[]): HintRoutes {
  registered = new HintRoutes(ops);
  restFace = registered.rest();
  return registered;
}

/** The REST wording of the registry (steps of an unknown table are named by their operation). */
export function restHints(): HintFace {
  return restFace ?? (restFace = (registered ??= new HintRoutes([])).rest());
}

/** Prose and steps worded by a face (REST when none is given). */
export function words(face: HintFace | undefined, parts: readonly Step[]): string {
  const f = face ?? restHints();
  let s = '';
  for (const p of parts) s += typeof p === 'string' ? p : f.step(p);
  return s;
}

/** The same, the parts given one by one. */
export const say = (face: HintFace | undefined, ...parts: Step[]): string => words(face, parts);

/** The `next:` line of a reply, in the words of the caller's face (`ctx.hints`). */
export function next(ctx: { hints?: HintFace }, ...parts: Step[]): string {
  return `next: ${words(ctx.hints, parts)}`;
}
