// Shared helpers of the integration tests: identities on their own networks and HTTP requests
// (JSON for the action routes, any body for the raw ones).
import { register, type TestServer } from './server.js';

export interface Who {
  id: string;
  token: string;
  net: string;
}

let netN = 0;
/** A fresh /24 per call: the test servers trust X-Forwarded-For, so quotas and reader networks don't couple identities. */
export const newNet = (): string => {
  const n = netN++;
  return `10.${60 + ((n >> 8) & 63)}.${n & 255}.9`;
};

/** A registered identity (optionally named) with its own network. */
export async function agent(s: TestServer, name?: string): Promise<Who> {
  const net = newNet();
  const r = await register(s.url, name, { 'x-forwarded-for': net });
  return { ...r, net };
}

export function headers(who?: Who | null, json = false): Record<string, string> {
  return {
    'x-forwarded-for': who?.net ?? '10.250.0.1',
    ...(who ? { authorization: `Bearer ${who.token}` } : {}),
    ...(json ? { 'content-type': 'application/json' } : {}),
  };
}

export const get = (s: TestServer, path: string, who?: Who | null, extra: Record<string, string> = {}) =>
  fetch(`${s.url}${path}`, { headers: { ...headers(who), ...extra } });

/** POST with a JSON body (or none: action routes take no body). */
export const post = (s: TestServer, path: string, who?: Who | null, body?: unknown, extra: Record<string, string> = {}) =>
  fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { ...headers(who, body !== undefined), ...extra },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** The body text without its final newline. */
export async function line(r: Response): Promise<string> {
  return (await r.text()).replace(/\n$/, '');
}

export interface ReqOpts {
  as?: Who | null;
  /** Network to come from (default: the identity's, or a fresh one). */
  net?: string;
  json?: unknown;
  text?: string;
  body?: Buffer;
  headers?: Record<string, string>;
}

/** Any method, any body; redirects are not followed. */
export async function req(s: TestServer, method: string, path: string, o: ReqOpts = {}): Promise<Response> {
  const headers: Record<string, string> = { 'x-forwarded-for': o.net ?? o.as?.net ?? newNet(), ...(o.headers ?? {}) };
  if (o.as) headers.authorization = `Bearer ${o.as.token}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (o.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.json);
  } else if (o.text !== undefined) {
    headers['content-type'] ??= 'text/plain; charset=utf-8';
    body = o.text;
  } else if (o.body !== undefined) {
    headers['content-type'] ??= 'application/octet-stream';
    body = new Uint8Array(o.body);
  }
  return fetch(`${s.url}${path}`, { method, headers, body, redirect: 'manual' });
}

/** Status and body text in one call. */
export async function call(s: TestServer, method: string, path: string, o: ReqOpts = {}): Promise<{ status: number; text: string; res: Response }> {
  const res = await req(s, method, path, o);
  return { status: res.status, text: await res.text(), res };
}

/** Status, body bytes and headers minus the ones that differ per response by design. */
export async function snapshot(res: Response): Promise<{ status: number; body: string; headers: [string, string][] }> {
  const body = Buffer.from(await res.arrayBuffer()).toString('hex');
  const headers = [...res.headers.entries()].filter(([k]) => k !== 'date' && k !== 'x-request-id').sort();
  return { status: res.status, body, headers };
}

/** Runs `fn` with the server's clock moved forward by `ms`. */
export async function later<T>(s: TestServer, ms: number, fn: () => Promise<T>): Promise<T> {
  const real = s.core.now;
  s.core.now = () => real() + ms;
  try {
    return await fn();
  } finally {
    s.core.now = real;
  }
}
