// Service names and manifests: what a publication must carry, checked once for both publishers
// (the operator's POST /admin/svc and an L2 identity's svc.publish).
import { z } from 'zod';
import { limit } from '../kernel/limits.js';
import type { SvcManifest } from './ports.js';

export const NAME_RE = /^[a-z][a-z0-9-]*$/;
export const svcName = z.string().min(2).max(limit('svc.name')).regex(NAME_RE, 'want a-z 0-9 - starting with a letter');
export const svcVer = z.number().int().min(1).max(1_000_000);

/** Names only the operator publishes: the sample services, and words and prefixes that would pass for the service's own. */
const RESERVED = new Set(['json-check', 'text-diff', 'text-stats', 'admin', 'system', 'sys', 'cx', 'commons', 'mcp', 'svc', 'compute', 'att', 'official']);
const RESERVED_PREFIX = ['cx-', 'sys-', 'admin-', 'official-', 'commons-'];
export const isReserved = (name: string) => RESERVED.has(name) || RESERVED_PREFIX.some((p) => name.startsWith(p));

const kat = z.object({ in: z.string().max(limit('svc.kat_bytes')), out: z.string().max(limit('svc.kat_bytes')) }).strict();

export const manifestSchema = z
  .object({
    entry: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'want an exported function name')
      .default('run'),
    desc: z.string().min(1).max(limit('svc.desc')),
    kats: z.array(kat).min(1, 'at least one known-answer test').max(limit('svc.kats')),
    limits: z
      .object({
        time_ms: z.number().int().min(10).max(limit('compute.time_ms.max')).default(limit('compute.time_ms')),
        mem_pages: z.number().int().min(1).max(limit('compute.mem_pages.max')).default(limit('compute.mem_pages')),
        out_bytes: z.number().int().min(1).max(limit('compute.out_bytes.max')).default(limit('compute.out_bytes')),
      })
      .strict()
      .default({ time_ms: limit('compute.time_ms'), mem_pages: limit('compute.mem_pages'), out_bytes: limit('compute.out_bytes') }),
  })
  .strip();

export function runLimits(m: SvcManifest) {
  return { timeMs: m.limits.time_ms, memPages: m.limits.mem_pages, outBytes: m.limits.out_bytes };
}
