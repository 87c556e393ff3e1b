// Request logs keep time, route, status, network key and request id: no full IPs, and
// secrets that travel in paths (url tokens, drop secrets) are masked.
import type { FastifyRequest } from 'fastify';
import { netKey } from '../core/net.js';

export function maskUrl(url: string): string {
  const path = url.split('?')[0]!;
  return path.replace(/^(\/mcp\/(?:svc\/[^/]+\/)?t\/)[^/]+/, '$1***').replace(/^(\/d\/)[^/]+/, '$1***');
}

export const logSerializers = {
  req(req: FastifyRequest) {
    return { id: req.id, method: req.method, url: maskUrl(req.url), net: netKey(req.ip) };
  },
};
