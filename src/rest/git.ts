// The git mirror over HTTP (spec 4.3): git's smart HTTP protocol, read-only, served by real
// `git upload-pack` through core.mirror, and the daily tarball with Range and conditional GETs.
// Only the two upload-pack routes exist; asking for receive-pack (push) is 403, anything else 404.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { CxError } from '../core/kernel/errors.js';
import type { GitMirror } from '../core/gitmirror/mirror.js';
import { limit } from '../core/kernel/limits.js';
import type { Core } from '../core/kernel/types.js';
import { rawGroup } from '../http/raw.js';
import type { RestEnv } from './env.js';

const gunzipP = promisify(gunzip);
const REQ_TYPE = 'application/x-git-upload-pack-request';
// pkt-line "# service=git-upload-pack\n" then a flush: what a smart server sends before the v0/v1 advertisement.
const SERVICE_HEADER = Buffer.from('001e# service=git-upload-pack\n0000');

const pushRefused = () => new CxError('auth', 'read-only mirror: push is refused', 403);

function mirrorOf(core: Core): GitMirror {
  if (!core.mirror) throw new CxError('busy', 'git mirror unavailable', 503, { 'Retry-After': String(limit('shed.retry_after')) });
  return core.mirror;
}

/** Protocol v2 when the client asks for it (`Git-Protocol: version=2`); the header's text never reaches git. */
function wantsV2(req: FastifyRequest): boolean {
  const h = req.headers['git-protocol'];
  return typeof h === 'string' && h.split(':').includes('version=2');
}

// The clone quotas are small: a spent one names the tarball.
const TARBALL_HINT = 'use /git/kb.tar.gz';

export const gitRoutes = rawGroup(
  'rest',
  'src/rest/git.ts',
  {
    refs: {
      method: 'GET',
      path: '/git/kb.git/info/refs',
      purpose: 'smart HTTP advertisement (git-upload-pack only; receive-pack 403)',
      shed: 'bulk',
      quota: ['git_clone'],
      quotaRefusal: TARBALL_HINT,
    },
    push: { method: 'POST', path: '/git/kb.git/git-receive-pack', purpose: 'push: always 403 (read-only mirror)', shed: 'bulk' },
    fetch: {
      method: 'POST',
      path: '/git/kb.git/git-upload-pack',
      purpose: 'smart HTTP fetch round (git upload-pack), gzip bodies',
      shed: 'bulk',
      quota: ['git_round'],
      quotaRefusal: TARBALL_HINT,
    },
    // HEAD first, so fastify does not add its own HEAD for the GET.
    tarballHead: { method: 'HEAD', path: '/git/kb.tar.gz', purpose: 'the daily tarball, headers only', shed: 'bulk' },
    tarball: { method: 'GET', path: '/git/kb.tar.gz', purpose: 'the daily tarball of the mirror: Range, If-Range, conditional GETs', shed: 'bulk' },
  },
  ({ core }: RestEnv) => {
    const tarball = { handle: async (req: FastifyRequest, reply: FastifyReply) => sendSnapshot(req, reply, mirrorOf(core)) };
    return {
      refs: {
        parse(req: FastifyRequest): GitMirror {
          const service = (req.query as Record<string, unknown>).service;
          if (service === 'git-receive-pack') throw pushRefused();
          if (service !== 'git-upload-pack') throw new CxError('notfound', 'only info/refs?service=git-upload-pack is served');
          return mirrorOf(core);
        },
        async handle(req, reply, mirror: GitMirror) {
          const v2 = wantsV2(req);
          const p = await mirror.serve('adv', null, v2);
          reply.raw.on('close', p.kill);
          const out = new PassThrough();
          // v2 starts with its capability advertisement; v0/v1 with the service line (as git http-backend does).
          if (!v2) out.write(SERVICE_HEADER);
          p.stdout.pipe(out);
          return reply.code(200).type('application/x-git-upload-pack-advertisement').header('cache-control', 'no-cache').send(out);
        },
      },
      push: {
        async handle() {
          throw pushRefused();
        },
      },
      fetch: {
        bodyLimit: limit('git.fetch_body'),
        // Encapsulated, so the raw-bytes parser applies to this route only.
        scope(git) {
          git.addContentTypeParser(REQ_TYPE, { parseAs: 'buffer', bodyLimit: limit('git.fetch_body') }, (_req, body, done) => done(null, body));
        },
        // Refused before the body is read: a wrong type or encoding is 415.
        onRequest: async (req) => {
          const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
          if (type !== REQ_TYPE) throw new CxError('bad', `content-type must be ${REQ_TYPE}`, 415);
          const enc = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
          if (enc !== 'identity' && enc !== 'gzip' && enc !== 'x-gzip') throw new CxError('bad', 'content-encoding must be gzip or none', 415);
        },
        async parse(req: FastifyRequest): Promise<{ body: Buffer; mirror: GitMirror }> {
          let body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
          const enc = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
          if (enc === 'gzip' || enc === 'x-gzip') body = await inflate(body);
          return { body, mirror: mirrorOf(core) };
        },
        async handle(req, reply, { body, mirror }: { body: Buffer; mirror: GitMirror }) {
          const p = await mirror.serve('rpc', body, wantsV2(req));
          reply.raw.on('close', p.kill);
          return reply.code(200).type('application/x-git-upload-pack-result').header('cache-control', 'no-cache').send(p.stdout);
        },
      },
      tarballHead: tarball,
      tarball,
    };
  },
);

async function inflate(body: Buffer): Promise<Buffer> {
  try {
    return await gunzipP(body, { maxOutputLength: limit('git.fetch_inflated') });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
      throw new CxError('size', `gunzipped body over ${limit('git.fetch_inflated')} bytes`, 413);
    }
    throw new CxError('bad', 'body: not gzip');
  }
}

/** One `bytes=` range of a file of `size` bytes: [start, end], 'bad' when unsatisfiable, null to send it all. */
export function parseRange(h: string | undefined, size: number): [number, number] | 'bad' | null {
  if (!h) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(h.trim());
  if (!m) return null; // several ranges or another unit: the whole file (RFC 9110 allows ignoring Range)
  const [, a, b] = m;
  if (a === '' && b === '') return null;
  if (a === '') {
    const n = Number(b);
    if (n === 0) return 'bad';
    return [Math.max(0, size - n), size - 1];
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size || end < start) return 'bad';
  return [start, end];
}

function sendSnapshot(req: FastifyRequest, reply: FastifyReply, mirror: GitMirror): FastifyReply {
  const snap = mirror.snapshot();
  const etag = `"${snap.commit.slice(0, 16)}-${snap.time.toString(36)}"`;
  const lastMod = new Date(Math.floor(snap.time / 1000) * 1000).toUTCString();
  reply
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('last-modified', lastMod)
    .header('cache-control', `public, max-age=${limit('git.max_age')}`)
    .header('x-git-commit', snap.commit);
  const inm = req.headers['if-none-match'];
  const ims = req.headers['if-modified-since'];
  const notModified =
    inm !== undefined
      ? inm.split(',').some((t) => t.trim() === etag || t.trim() === '*')
      : ims !== undefined && !Number.isNaN(Date.parse(ims)) && Math.floor(snap.time / 1000) * 1000 <= Date.parse(ims);
  if (notModified) return reply.code(304).send();
  // If-Range: the range holds only for this very snapshot.
  const ifRange = req.headers['if-range'];
  const rangeOk = ifRange === undefined || ifRange === etag || ifRange === lastMod;
  const range = rangeOk ? parseRange(req.headers.range, snap.size) : null;
  if (range === 'bad') throw new CxError('bad', `range outside bytes 0-${snap.size - 1}`, 416, { 'Content-Range': `bytes */${snap.size}` });
  const [start, end] = range ?? [0, snap.size - 1];
  reply
    .type('application/gzip')
    .header('content-length', String(end - start + 1))
    .header('content-disposition', 'attachment; filename="kb.tar.gz"');
  if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${snap.size}`);
  if (req.method === 'HEAD' || snap.size === 0) return reply.send();
  return reply.send(snap.open(start, end));
}
