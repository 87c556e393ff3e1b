// Request logs keep time, route, status, network key and request id: no full IPs, and
// secrets that travel in paths (url tokens, drop secrets) are masked.
import type { FastifyRequest } from 'fastify';
import { netKey } from '../core/kernel/net.js';

export function maskUrl(url: string): string {
  const path = url.split('?')[0]!;
  return clip(path.replace(/^(\/mcp\/(?:svc\/[^/]+\/)?t\/)[^/]+/, '$1***').replace(/^(\/d\/)[^/]+/, '$1***'));
}

/** A log line keeps at most 200 characters of a path (an attacker's 2 KB segment is not logged whole). */
export function clip(path: string, max = 200): string {
  return path.length <= max ? path : `${path.slice(0, max)}…(${path.length} chars)`;
}

export const logSerializers = {
  req(req: FastifyRequest) {
    return { id: req.id, method: req.method, url: maskUrl(req.url), net: netKey(req.ip) };
  },
};
