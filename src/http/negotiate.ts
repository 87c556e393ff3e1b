// Content negotiation: text/plain by default; JSON on `Accept: application/json` or `?f=json`.
import type { FastifyReply, FastifyRequest } from 'fastify';

export type Format = 'text' | 'json' | 'md' | 'html';

export function queryF(req: FastifyRequest): string | undefined {
  const q = req.query as Record<string, unknown> | undefined;
  const f = q?.f;
  return typeof f === 'string' ? f : undefined;
}

/** Weight of a media type in an Accept header (0 when absent). */
export function acceptQ(accept: string | undefined, type: string): number {
  if (!accept) return 0;
  let best = 0;
  for (const part of accept.split(',')) {
    const [t, ...params] = part.trim().split(';');
    if (t?.trim().toLowerCase() !== type) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    best = Math.max(best, q ? Number(q.slice(2)) || 0 : 1);
  }
  return best;
}

export function wantsJson(req: FastifyRequest): boolean {
  const f = queryF(req);
  if (f) return f === 'json';
  const a = req.headers.accept;
  const j = Math.max(acceptQ(a, 'application/json'), acceptQ(a, 'application/problem+json'));
  return j > 0 && j >= acceptQ(a, 'text/plain');
}

/** Text asked for by name: `?f=txt` (or md), or text/plain weighed above JSON in Accept. */
export function wantsText(req: FastifyRequest): boolean {
  const f = queryF(req);
  if (f) return f === 'txt' || f === 'md';
  const a = req.headers.accept;
  const t = acceptQ(a, 'text/plain');
  return t > 0 && t > Math.max(acceptQ(a, 'application/json'), acceptQ(a, 'application/problem+json'));
}

export function wantsHtml(req: FastifyRequest): boolean {
  const a = req.headers.accept;
  const h = acceptQ(a, 'text/html');
  return h > 0 && h >= acceptQ(a, 'text/plain') && h >= acceptQ(a, 'application/json');
}

export const TEXT = 'text/plain; charset=utf-8';
export const MD = 'text/markdown; charset=utf-8';
export const HTML = 'text/html; charset=utf-8';
export const JSON_T = 'application/json; charset=utf-8';

/** A text answer ends in exactly the newline its last line needs. */
export const textBody = (body: string): string => (body.endsWith('\n') ? body : body + '\n');

export function sendText(reply: FastifyReply, body: string, status = 200): FastifyReply {
  return reply.code(status).type(TEXT).send(textBody(body));
}
