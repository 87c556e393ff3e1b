// The ErrSig algorithm as published: its spec, the very module the server runs, the Python port
// and the test vectors, served from src/core/kb/errsig/ as they are.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type RawHandler, type RawRoute, rawGroup } from '../http/raw.js';

const dir = fileURLToPath(new URL('../core/kb/errsig/', import.meta.url));

const FILES: Array<[string, string, string]> = [
  ['/errsig', 'errsig.md', 'text/plain; charset=utf-8'],
  ['/errsig.js', 'errsig.js', 'text/javascript; charset=utf-8'],
  ['/errsig.py', 'errsig.py', 'text/x-python; charset=utf-8'],
  ['/errsig.tsv', 'errsig.tsv', 'text/tab-separated-values; charset=utf-8'],
  // v1 stays published: clients that still compute v1 hashes, and the spec's v1 section.
  ['/errsig-v1.js', 'errsig-v1.js', 'text/javascript; charset=utf-8'],
  ['/errsig-v1.tsv', 'errsig-v1.tsv', 'text/tab-separated-values; charset=utf-8'],
  // v2 likewise, for clients that pinned it.
  ['/errsig-v2.js', 'errsig-v2.js', 'text/javascript; charset=utf-8'],
  ['/errsig-v2.tsv', 'errsig-v2.tsv', 'text/tab-separated-values; charset=utf-8'],
];

export const errsigRoutes = rawGroup(
  'rest',
  'src/rest/errsig.ts',
  Object.fromEntries(FILES.map(([path, file]) => [path, { method: 'GET', path, purpose: `the ErrSig ${file} as the server runs it`, shed: 'core' }])) as Record<
    string,
    RawRoute
  >,
  () =>
    Object.fromEntries(
      FILES.map(([path, file, type]): [string, RawHandler] => {
        const body = readFileSync(dir + file, 'utf8');
        return [
          path,
          {
            handle: async (_req, reply) =>
              reply.header('cache-control', 'public, max-age=3600').header('access-control-allow-origin', '*').type(type).send(body),
          },
        ];
      }),
    ),
);
