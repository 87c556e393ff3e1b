// What every face reads from a request the same way: credentials from headers, and the op's
// input field types used to coerce query, form and text-command strings.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CxError } from '../core/kernel/errors.js';
import type { AnyOperation, Credentials } from '../core/kernel/types.js';

export type JsonType = 'integer' | 'number' | 'boolean' | 'string' | 'array' | 'object' | undefined;

/** Property types of an op's input, to coerce query and form strings. */
export function propTypes(op: AnyOperation): Map<string, JsonType> {
  const js = z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { type?: JsonType }> };
  return new Map(Object.entries(js.properties ?? {}).map(([k, v]) => [k, v.type]));
}

export function coerce(v: unknown, t: JsonType): unknown {
  if (typeof v !== 'string') return v;
  if ((t === 'integer' || t === 'number') && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  if (t === 'boolean') return v === '1' || v === 'true' ? true : v === '0' || v === 'false' ? false : v;
  return v;
}

export function credentialsOf(req: FastifyRequest): Credentials {
  const creds: Credentials = {};
  const auth = req.headers.authorization;
  if (auth !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m) throw new CxError('auth', 'use Authorization: Bearer <token>', 401);
    creds.bearer = m[1];
  }
  const pow = req.headers['x-pow'];
  if (typeof pow === 'string') creds.pow = pow.trim();
  return creds;
}
