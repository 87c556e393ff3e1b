// The REST face's hot routes (src/http/hot.ts): the KB lookups agents call in loops, answered
// before fastify in their plain case (text or JSON, no `f=`, not for a browser). The input is read
// and the operation run exactly as the generated route does (rawInput, invoke, the op's text and
// headers); everything else about these routes (pages, formats, forms) stays with that route.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invoke } from '../core/ops/invoke.js';
import type { Core, Operation } from '../core/ops/types.js';
import type { LeanReply, LeanRequest } from '../http/hot.js';
import { propTypes } from '../http/input.js';
import { JSON_T, TEXT, wantsHtmlOf, wantsJsonOf } from '../http/negotiate.js';
import { rawInput, render, restMeta } from './ops.js';

/** Operations served on the lean path: POST /e, GET /h/{hex}, GET /brief. */
export const HOT_OPS = ['kb.e', 'kb.h', 'kb.brief'] as const;

export function registerHotRoutes(app: FastifyInstance, core: Core, ops: readonly Operation[]): void {
  for (const name of HOT_OPS) {
    const op = ops.find((o) => o.name === name);
    const rest = op?.rest;
    if (!op || !rest || (rest.method !== 'GET' && rest.method !== 'POST') || op.stream || rest.raw || rest.redirect || rest.htmlRedirect) continue;
    const m = /^(.*\/):([A-Za-z_]+)$/.exec(rest.path);
    if (!m && rest.path.includes(':')) continue;
    const types = propTypes(op);
    app.hot.add({
      method: rest.method,
      path: m ? m[1]! : rest.path,
      ...(m ? { param: m[2]! } : {}),
      ...(rest.bodyLimit ? { bodyLimit: rest.bodyLimit } : {}),
      // `f=` (formats, twins) and browsers (pages) are the generated route's.
      accepts: (req) => req.query.f === undefined && !wantsHtmlOf(req.headers.accept),
      async handle(req: LeanRequest): Promise<LeanReply> {
        const fr = req as unknown as FastifyRequest;
        const { out, ctx } = await invoke(core, op, rawInput(fr, op, types), restMeta(fr));
        const headers: Record<string, string> = { ...op.headers?.(out, ctx), ...rest.replyHeaders };
        if (rest.cache) headers['cache-control'] = rest.cache;
        const status = rest.statusOf?.(out) ?? rest.status ?? 200;
        if (wantsJsonOf(req.headers.accept, undefined)) return { status, headers: { ...headers, 'content-type': JSON_T }, body: JSON.stringify(out) };
        const text = render(op, out, ctx);
        return { status, headers: { ...headers, 'content-type': TEXT }, body: text.endsWith('\n') ? text : text + '\n' };
      },
    });
  }
}
