// Client downloads (spec 4.1): /cx.mjs, /cx.py, /cx.sh, /join.py, /e2e.mjs, /e2e.py, /e2e-vectors.json and the signed /cx-manifest.json. The files are served with
// the base URL filled in, and the manifest hashes exactly the bytes served.
import { readFileSync } from 'node:fs';
import { clientManifest, type ClientFile, type Manifest } from '../core/platform/trust/manifest.js';
import { CxError } from '../core/kernel/errors.js';
import { esc } from '../http/html.js';
import { type RawHandler, type RawRoute, rawGroup } from '../http/raw.js';
import type { RestEnv } from './env.js';

const SOURCES: Array<{ name: string; type: string }> = [
  { name: 'cx.mjs', type: 'text/javascript; charset=utf-8' },
  { name: 'cx.py', type: 'text/x-python; charset=utf-8' },
  { name: 'cx.sh', type: 'text/x-shellscript; charset=utf-8' },
  { name: 'join.py', type: 'text/x-python; charset=utf-8' },
  { name: 'e2e.mjs', type: 'text/javascript; charset=utf-8' },
  { name: 'e2e.py', type: 'text/x-python; charset=utf-8' },
  { name: 'e2e-vectors.json', type: 'application/json; charset=utf-8' },
];

export const clientRoutes = rawGroup(
  'rest',
  'src/rest/clients.ts',
  {
    ...(Object.fromEntries(
      SOURCES.map((s) => [s.name, { method: 'GET', path: `/${s.name}`, purpose: 'a client file with the base URL filled in, signed', shed: 'core' }]),
    ) as Record<string, RawRoute>),
    cx: { method: 'GET', path: '/cx', purpose: 'go-import page of the source mirror (when configured)', shed: 'core' },
    manifest: { method: 'GET', path: '/cx-manifest.json', purpose: 'the signed manifest of the client files', shed: 'core' },
  },
  ({ core }: RestEnv) => {
    const base = core.config.baseUrl;
    const files: ClientFile[] = SOURCES.map((s) => ({
      ...s,
      bytes: Buffer.from(readFileSync(new URL(`../clients/${s.name}`, import.meta.url), 'utf8').replaceAll('__CX_BASE__', base)),
    }));
    // Signed again only when the key changes (rotation).
    let memo: { kid: number; body: string; m: Manifest } | null = null;
    const manifest = () => {
      if (!memo || memo.kid !== core.keys.kid) {
        const m = clientManifest(files, core.keys);
        memo = { kid: m.kid, body: JSON.stringify(m, null, 1) + '\n', m };
      }
      return memo.body;
    };
    const fileHandlers: Record<string, RawHandler> = {};
    for (const f of files) {
      fileHandlers[f.name] = {
        handle: async (_req, reply) =>
          reply.header('cache-control', 'public, max-age=300').header('x-cx-sig-server', core.keys.header(f.bytes)).type(f.type).send(f.bytes),
      };
    }
    return {
      ...fileHandlers,
      // go-import for `go get <host>/cx` when the operator configured a source mirror (spec 4.1). The
      // same page answers without ?go-get=1 (a person following the link sees where the source is).
      cx: {
        async handle(_req, reply) {
          const mirror = core.config.sourceMirror;
          if (!mirror) throw new CxError('notfound', 'no source mirror configured');
          // The import path is the base URL without its scheme (a service under a path keeps the path).
          const u = new URL(base);
          const prefix = `${u.host}${u.pathname.replace(/\/+$/, '')}/cx`;
          return reply
            .header('cache-control', 'public, max-age=300')
            .type('text/html; charset=utf-8')
            .send(
              `<!doctype html>\n<meta name="go-import" content="${esc(`${prefix} git ${mirror}`)}">\n<p>Source: <a href="${esc(mirror)}">${esc(mirror)}</a></p>\n`,
            );
        },
      },
      manifest: {
        async handle(_req, reply) {
          const body = manifest();
          return reply
            .header('cache-control', 'public, max-age=300')
            .header('x-cx-sig-server', core.keys.header(body))
            .type('application/json; charset=utf-8')
            .send(body);
        },
      },
    };
  },
);
