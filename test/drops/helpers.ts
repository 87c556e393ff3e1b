// Shared helpers of the dead-drop tests: real PoW proofs, secrets, per-request networks.
import { randomBytes } from 'node:crypto';
import { solve } from '../../src/core/platform/identity/pow.js';

/** A fresh secret path segment (base64url, `n` chars). */
export const secret = (n = 32): string => randomBytes(n).toString('base64url').slice(0, n);
/** A fresh write key. */
export const wkey = (n = 32): string => randomBytes(n).toString('base64url').slice(0, n);

let netN = 0;
/** A new /24 per call (the test servers trust X-Forwarded-For), so quotas don't couple tests. */
export const xff = (): Record<string, string> => {
  const n = netN++;
  return { 'x-forwarded-for': `10.${100 + ((n >> 8) & 127)}.${n & 255}.7` };
};

/** A solved for=w proof from the running server. */
export async function proof(url: string, headers: Record<string, string> = xff(), purpose = 'w'): Promise<string> {
  const res = await fetch(`${url}/v1/challenge?for=${purpose}`, { method: 'POST', headers: { accept: 'application/json', ...headers } });
  if (res.status !== 200) throw new Error(`challenge: ${res.status} ${await res.text()}`);
  const c = (await res.json()) as { challenge: string; bits: number };
  return solve(c.challenge, c.bits);
}

export interface PutOpts {
  query?: string;
  token?: string;
  wk?: string;
  pow?: string | null;
  headers?: Record<string, string>;
}

/** PUT /d/{s}. Anonymous (no token) gets a fresh proof unless `pow` is given (null: none). */
export async function put(url: string, s: string, body: string | Uint8Array<ArrayBuffer>, o: PutOpts = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', ...xff(), ...(o.headers ?? {}) };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.wk !== undefined) headers['x-drop-write'] = o.wk;
  const pow = o.pow === undefined ? (o.token ? null : await proof(url)) : o.pow;
  if (pow) headers['x-pow'] = pow;
  return fetch(`${url}/d/${s}${o.query ? `?${o.query}` : ''}`, { method: 'PUT', headers, body });
}

export async function get(url: string, s: string, method = 'GET', headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/d/${s}`, { method, headers: { ...xff(), ...headers } });
}

export async function del(url: string, s: string, o: { token?: string; wk?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { ...xff() };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.wk !== undefined) headers['x-drop-write'] = o.wk;
  return fetch(`${url}/d/${s}`, { method: 'DELETE', headers });
}

/** Status, body bytes and headers minus the ones that differ per response by design. */
export async function snapshot(res: Response): Promise<{ status: number; body: string; headers: [string, string][] }> {
  const body = Buffer.from(await res.arrayBuffer()).toString('hex');
  const headers = [...res.headers.entries()].filter(([k]) => k !== 'date' && k !== 'x-request-id').sort();
  return { status: res.status, body, headers };
}

/** Parses the first line of a PUT reply. */
export function okLine(text: string): { path: string; exp: string; once: string; reads: string; size: string; masked: string } | null {
  const m = /^ok (\/d\/[A-Za-z0-9_-]+) exp=(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ) once=([01]) reads=(\d+) size=(\d+) masked=([01])\nnext: GET, DELETE\n$/.exec(text);
  return m ? { path: m[1]!, exp: m[2]!, once: m[3]!, reads: m[4]!, size: m[5]!, masked: m[6]! } : null;
}
