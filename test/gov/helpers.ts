// Shared helpers of the governance tests: calls from a chosen client address (the server trusts
// X-Forwarded-For in these tests, so each address is its own network), identities at a level.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { register, type TestServer } from '../helpers/server.js';

export interface CallOpts {
  token?: string;
  ip?: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  accept?: string;
}

export function caller(s: TestServer) {
  return async (method: string, path: string, o: CallOpts = {}) => {
    const headers: Record<string, string> = { 'x-forwarded-for': o.ip ?? '198.51.100.7', ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.accept) headers.accept = o.accept;
    let body: string | undefined;
    if (o.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.json);
    } else if (o.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(o.form).toString();
    }
    const r = await fetch(`${s.url}${path}`, { method, headers, body });
    return { status: r.status, text: await r.text(), headers: r.headers };
  };
}

let ipSeq = 0;
/** A fresh address in its own /16, so registration quotas never meet. */
export const freshIp = () => `10.${++ipSeq}.0.9`;

/** Registers an identity from `ip`; `lvl` 3 lifts it to L3 in the store (rep, confirmed fixes, age). */
export async function identity(s: TestServer, ip: string, lvl: 0 | 3 = 0): Promise<{ id: string; token: string }> {
  const who = await register(s.url, undefined, { 'x-forwarded-for': ip });
  if (lvl === 3) {
    const db = new Database(join(s.dir, 'commons.db'));
    try {
      db.prepare('UPDATE identities SET rep = 100, confirmed = 20, created = created - ? WHERE id = ?').run(40 * 86_400_000, who.id);
    } finally {
      db.close();
    }
  }
  return who;
}

export function sql<T>(s: TestServer, q: string, ...args: unknown[]): T[] {
  const db = new Database(join(s.dir, 'commons.db'), { readonly: true });
  try {
    return db.prepare(q).all(...args) as T[];
  } finally {
    db.close();
  }
}
