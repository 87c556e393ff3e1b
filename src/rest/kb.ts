// /kb/{id}: the browser page of a KB entry (GET /k/{id} sends browsers here); same operation.
// Hand-written because it is a second, HTML-only route of kb.get: a binding has one path.
// /kb/: the index of the KB listings (latest months, ecosystems, error classes, search), a page for
// browsers and a text list (or JSON) for agents; /k/ (the bare prefix of entry ids) lands there.
import type { FastifyReply } from 'fastify';
import { CxError } from '../core/kernel/errors.js';
import { invoke } from '../core/platform/invoke.js';
import { kbGetOp } from '../core/kb/ops.js';
import { kbIndexText, readKbIndex, type KbIndex } from '../core/kb/index-page.js';
import { limit } from '../core/kernel/limits.js';
import { standbyCore } from '../core/platform/standby.js';
import { HTML, JSON_T, queryF, sendText, wantsHtml, wantsJson } from '../http/negotiate.js';
import { moved, rawGroup } from '../http/raw.js';
import type { RestEnv } from './env.js';
import { restMeta } from './ops.js';
import { entryHtml, kbIndexHtml, PAGE_CSP } from './site.js';

export const kbPageRoutes = rawGroup(
  'rest',
  'src/rest/kb.ts',
  {
    // kb.get's own guards (auth, quota) apply through invoke.
    entry: { method: 'GET', path: '/kb/:id', purpose: 'the HTML page of a KB entry (kb.get)', shed: 'core' },
    index: { method: 'GET', path: '/kb/', purpose: 'the index of the KB listings: page, text or JSON', shed: 'core' },
    bare: { method: 'GET', path: '/kb', purpose: '301 to /kb/', shed: 'core' },
    // /k/ is what is left of an entry link without its id (the About page's autolinked /k/<id>.json).
    k: { method: 'GET', path: '/k/', purpose: '301 to /kb/', shed: 'core' },
  },
  ({ core }: RestEnv) => {
    // Read at most every landing.figures_s seconds, like the landing page's figures.
    let memo: { at: number; o: KbIndex } | null = null;
    const toIndex = moved('/kb/');
    return {
      entry: {
        async handle(req, reply) {
          const { out } = await invoke(core, kbGetOp, { id: (req.params as { id: string }).id }, restMeta(req));
          reply.headers({ 'cache-control': out.space ? 'private, no-store' : 'public, max-age=60', 'content-security-policy': PAGE_CSP });
          return reply.type(HTML).send(entryHtml(core.config.baseUrl, out));
        },
      },
      index: {
        async handle(req, reply) {
          const f = queryF(req);
          if (f !== undefined && f !== 'json' && f !== 'txt') throw new CxError('bad', 'f: json or txt');
          if (!memo || core.now() - memo.at > limit('landing.figures_s') * 1000) memo = { at: core.now(), o: await readKbIndex(standbyCore(core)) };
          reply.headers({ vary: 'accept', 'cache-control': 'public, max-age=60' });
          if (!f && wantsHtml(req)) return reply.header('content-security-policy', PAGE_CSP).type(HTML).send(kbIndexHtml(core.config.baseUrl, memo.o));
          if (wantsJson(req)) return reply.type(JSON_T).send(memo.o);
          return sendText(reply, kbIndexText(memo.o));
        },
      },
      bare: toIndex,
      k: toIndex,
    };
  },
);
