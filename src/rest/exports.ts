// /export/ (spec 4.3): the listing (the export.index operation, also at /export/index.<ext>), the
// files of the kept exports streamed from the store (never read whole: a shard may be large), the
// latest.jsonl.gz redirect, and the legacy /data/ paths (spec 9: 301 to /export/).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { exportIndexOp, listingText } from '../core/exports/ops.js';
import { newest } from '../core/exports/run.js';
import { exportFile } from '../core/exports/served.js';
import { CxError } from '../core/kernel/errors.js';
import { invoke } from '../core/platform/invoke.js';
import { limit } from '../core/kernel/limits.js';
import { JSON_T, MD, queryF, TEXT, wantsJson } from '../http/negotiate.js';
import { moved, rawGroup } from '../http/raw.js';
import type { RestEnv } from './env.js';
import { restMeta } from './ops.js';

export const exportRoutes = rawGroup(
  'rest',
  'src/rest/exports.ts',
  {
    index: { method: 'GET', path: '/export/', purpose: 'the export listing (export.index), text, markdown or JSON, signed', shed: 'bulk' },
    bare: { method: 'GET', path: '/export', purpose: '301 to /export/', shed: 'core' },
    latest: { method: 'GET', path: '/export/latest.jsonl.gz', purpose: '302 to the newest KB export', shed: 'bulk' },
    file: { method: 'GET', path: '/export/:file', purpose: 'a file of a kept export, streamed, signed, conditional GETs', shed: 'bulk' },
    data: { method: 'GET', path: '/data', purpose: 'legacy (spec 9): 301 to /export/', shed: 'core' },
    dataFile: { method: 'GET', path: '/data/*', purpose: 'legacy (spec 9): 301 to the same file under /export/', shed: 'bulk' },
  },
  ({ core }: RestEnv) => {
    const maxAge = `public, max-age=${limit('export.max_age')}`;
    // Spec 9: the legacy /data/ paths moved to /export/.
    const toExport = async (req: FastifyRequest, reply: FastifyReply) => {
      const rest = (req.params as { '*'?: string })['*'] ?? '';
      return reply
        .code(301)
        .header('location', `/export/${/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(rest) ? rest : ''}`)
        .send();
    };
    return {
      index: {
        async handle(req, reply) {
          const f = queryF(req);
          if (f !== undefined && f !== 'json' && f !== 'txt' && f !== 'md') throw new CxError('bad', 'f: want json, txt or md');
          const { out, ctx } = await invoke(core, exportIndexOp, {}, restMeta(req));
          const [body, type] = wantsJson(req)
            ? [JSON.stringify(out), JSON_T]
            : f === 'md'
              ? [exportIndexOp.md!(out, ctx), MD]
              : [listingText(out) + '\n', TEXT];
          return reply
            .header('cache-control', 'public, max-age=300')
            .header('vary', 'accept')
            .header('x-cx-sig-server', core.keys.header(body))
            .type(type)
            .send(body);
        },
      },
      bare: moved('/export/'),
      latest: {
        async handle(_req, reply) {
          const index = await newest(core);
          if (!index) throw new CxError('notfound', 'no export yet');
          const to = `/export/kb-${index.date}.jsonl.gz`;
          return reply.code(302).header('location', to).header('cache-control', 'public, max-age=300').type(TEXT).send(`see ${to}\n`);
        },
      },
      file: {
        async handle(req, reply) {
          const f = await exportFile(core, (req.params as { file: string }).file);
          const etag = `"${f.sha256}"`;
          reply.header('cache-control', maxAge).header('etag', etag).header('last-modified', new Date(f.file.mtime).toUTCString());
          if (req.headers['if-none-match'] === etag) return reply.code(304).send();
          // Files that SIGNATURES lists carry their export1 signature; the three that sign the others
          // (SHA256SUMS, SHA256SUMS.sig, SIGNATURES) are small and get a resp1 signature of their bytes.
          if (f.sig) reply.header('x-cx-sig-server', f.sig);
          else {
            const chunks: Buffer[] = [];
            for await (const c of f.file.stream()) chunks.push(c as Buffer);
            const body = Buffer.concat(chunks);
            return reply.header('x-cx-sig-server', core.keys.header(body)).type(f.type).send(body);
          }
          return reply.header('content-length', f.file.size).type(f.type).send(f.file.stream());
        },
      },
      data: { handle: toExport },
      dataFile: { handle: toExport },
    };
  },
);
