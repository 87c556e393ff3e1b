// Raw routes: the HTTP routes that are not generated from an operation (feeds, exports, the git
// mirror, webhooks, pages, client files...). Each is declared in a table of its face (method, path,
// purpose, shedding class, quota buckets, freeze kind), and the face binds a handler to it by name.
// One registrar (bindRaw) registers every declared route and applies what it declares in the order
// operations get it (src/core/platform/guards.ts): shed at onRequest (before the body is read), then
// freeze, the route's own checks (parse), the quotas, and only then the handler. Handlers never
// call quotas, freezes or shedding themselves; the host refuses any route registered without a
// declaration (config.cxOp or config.cxRaw, src/http/host.ts), and `npm run docs:arch` lists the
// tables in docs/architecture.md.
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { CxError } from '../core/kernel/errors.js';
import { type FreezeKind, SHED_CLASSES, type ShedClass } from '../core/kernel/kinds.js';
import { quotaDef, type QuotaBucket } from '../core/kernel/limits.js';
import { netKey } from '../core/kernel/net.js';
import type { Core } from '../core/kernel/types.js';
import { checkShed } from '../core/platform/control/shed.js';
import { checkFrozen } from '../core/platform/guards.js';

export type RawMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

/** What a raw route is and what it costs: the data the registrar and the generated docs read. */
export interface RawRoute {
  method: RawMethod | readonly RawMethod[];
  path: string;
  /** One line: what the route serves. */
  purpose: string;
  /** The load-shedding class (SHED_CLASSES): `bulk` is refused from level 1, `core` and `never` never. */
  shed: ShedClass;
  /** Per-network buckets (by: 'net' in the quota table), taken in order after `parse`. */
  quota?: readonly QuotaBucket[];
  /** The detail of the 429 when a bucket is spent (default: the bucket's own `<bucket> retry in <n>s`). */
  quotaRefusal?: string;
  /** A freeze kind that refuses the route (503 `err frozen <kind>`); a write kind holds it during maintenance too. */
  freeze?: FreezeKind;
}

/** What a face binds to a declared route. `I` is what `parse` returns and `handle` receives. */
export interface RawHandler<I = undefined> {
  /** The route's own checks of the request (refused before any quota is taken); its result goes to `handle`. */
  parse?(req: FastifyRequest): I | Promise<I>;
  handle(req: FastifyRequest, reply: FastifyReply, input: I): unknown;
  bodyLimit?: number;
  /** Checks run before the body is read (after shedding). */
  onRequest?: onRequestHookHandler;
  /** The route gets an encapsulated scope set up by this (its own content-type parsers). */
  scope?(s: FastifyInstance): void;
}

/** A table of raw routes of one file of a face, and the binding of their handlers by key. */
export interface RawGroup<K extends string = string, E = unknown> {
  face: 'rest' | 'mcp' | 'a2a';
  /** The source file that binds the handlers (docs). */
  file: string;
  routes: Readonly<Record<K, RawRoute>>;
  // biome-ignore lint/suspicious/noExplicitAny: each route's handler has its own input type
  bind(env: E): Record<K, RawHandler<any>>;
}

export function rawGroup<K extends string, E>(
  face: RawGroup['face'],
  file: string,
  routes: Record<K, RawRoute>,
  // biome-ignore lint/suspicious/noExplicitAny: each route's handler has its own input type
  bind: (env: E) => Record<K, RawHandler<any>>,
): RawGroup<K, E> {
  for (const r of Object.values<RawRoute>(routes)) {
    for (const b of r.quota ?? []) if (quotaDef(b).by !== 'net') throw new Error(`raw route ${r.path}: quota ${b} is not per network`);
  }
  return { face, file, routes, bind };
}

/** The methods of a declaration as a list. */
/** A handler that answers 301 to a fixed path (`/kb` → `/kb/`, `/favicon.ico` → `/favicon.svg`). */
export const moved = (to: string): RawHandler => ({ handle: async (_req, reply) => reply.code(301).header('location', to).send() });

export const methodsOf = (r: RawRoute): readonly RawMethod[] => (typeof r.method === 'string' ? [r.method] : r.method);

/** Takes the route's buckets in order for the caller's network; a declared refusal replaces the 429's detail. */
async function charge(core: Core, r: RawRoute, net: string): Promise<void> {
  for (const b of r.quota!) {
    try {
      await core.quotas.take(b, net);
    } catch (err) {
      if (r.quotaRefusal !== undefined && err instanceof CxError && err.code === 'quota') throw new CxError('quota', r.quotaRefusal, 429, err.headers);
      throw err;
    }
  }
}

/** Registers every route of `group` on `app`, with its declared shedding, freeze and quotas. */
export function bindRaw<E extends { core: Core }>(app: FastifyInstance, group: RawGroup<string, E>, env: E): void {
  const { core } = env;
  const handlers = group.bind(env);
  for (const [key, r] of Object.entries<RawRoute>(group.routes)) {
    const h = handlers[key];
    if (!h) throw new Error(`raw route ${key} (${r.path}) has no handler`);
    const onRequest: onRequestHookHandler[] = [];
    // Only classes that some level refuses cost a hook.
    if (SHED_CLASSES[r.shed].from !== null) onRequest.push(async () => checkShed(core, r.shed));
    if (h.onRequest) onRequest.push(h.onRequest);
    const guarded = !!(r.freeze || r.quota?.length || h.parse);
    const handler = guarded
      ? async (req: FastifyRequest, reply: FastifyReply) => {
          if (r.freeze) await checkFrozen(core, r.freeze);
          const input = h.parse ? await h.parse(req) : undefined;
          if (r.quota?.length) await charge(core, r, netKey(req.ip));
          return h.handle(req, reply, input);
        }
      : (req: FastifyRequest, reply: FastifyReply) => h.handle(req, reply, undefined);
    const add = (target: FastifyInstance) =>
      target.route({
        method: [...methodsOf(r)],
        url: r.path,
        config: { cxRaw: `${group.face}:${key}` },
        ...(h.bodyLimit !== undefined ? { bodyLimit: h.bodyLimit } : {}),
        ...(onRequest.length ? { onRequest } : {}),
        handler,
      });
    if (h.scope) {
      const setup = h.scope;
      void app.register(async (s) => {
        setup(s);
        add(s);
      });
    } else add(app);
  }
}
