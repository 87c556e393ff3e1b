// SSRF guard over every field that takes a URL the server will call, generated from one list of
// address forms: decimal, octal, hex and short IPv4, IPv4-mapped and embedded IPv6 (::/96, NAT64,
// 6to4), link-local, loopback, private, CGNAT, multicast, broadcast, unique-local, names that resolve
// to them, credentials and non-http schemes. The sinks: A2A push configs on both wires (set, and
// inline with message/send), and any operation input field named like a URL (none today: the scan
// makes a new one part of this suite the day it is added).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, checkPushUrl } from '../../src/a2a/push.js';
import { z } from 'zod';
import { OPS } from '../../src/compose/registry.js';
import type { AnyOperation } from '../../src/core/kernel/types.js';
import { start, type TestServer } from '../helpers/server.js';
import fc from 'fast-check';
import { register } from '../helpers/server.js';
import { inputSchema, validArb, type Json, type Schema } from './arbitraries.js';
import { freshNet, restRequests, send } from './faces.js';

/** The one list: every form that must never be a target (label, URL). */
export const REFUSED_FORMS: ReadonlyArray<readonly [string, string]> = [
  ['loopback', 'http://127.0.0.1/hook'],
  ['loopback /8', 'http://127.8.9.10:8080/'],
  ['loopback trailing dot', 'http://127.0.0.1./'],
  ['loopback decimal', 'http://2130706433/'],
  ['loopback octal', 'http://0177.0.0.1/'],
  ['loopback octal whole', 'http://017700000001/'],
  ['loopback hex', 'http://0x7f000001/'],
  ['loopback hex dotted', 'http://0x7f.0x0.0x0.0x1/'],
  ['loopback short', 'http://127.1/'],
  ['this network', 'http://0/'],
  ['this network dotted', 'http://0.0.0.0/'],
  ['loopback v6', 'http://[::1]/'],
  ['unspecified v6', 'http://[::]/'],
  ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/'],
  ['IPv4-mapped hex', 'http://[::ffff:7f00:1]/'],
  ['IPv4-mapped long form', 'http://[0:0:0:0:0:ffff:7f00:1]/'],
  ['IPv4-mapped metadata', 'http://[::ffff:169.254.169.254]/'],
  ['IPv4-mapped public', 'http://[::ffff:8.8.8.8]/'],
  ['embedded ::/96 loopback', 'http://[::127.0.0.1]/'],
  ['embedded ::/96 hex', 'http://[::7f00:1]/'],
  ['embedded ::/96 private', 'http://[::a00:1]/'],
  ['NAT64 loopback', 'http://[64:ff9b::7f00:1]/'],
  ['NAT64 local-use', 'http://[64:ff9b:1::a00:1]/'],
  ['6to4 private', 'http://[2002:a00:1::1]/'],
  ['Teredo', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/'],
  ['link-local metadata', 'http://169.254.169.254/latest/meta-data/'],
  ['link-local metadata decimal', 'http://2852039166/'],
  ['link-local v6', 'http://[fe80::1]/'],
  ['site-local v6', 'http://[fec0::1]/'],
  ['private 10/8', 'http://10.0.0.1/'],
  ['private 10/8 octal', 'http://012.0.0.1/'],
  ['private 172.16/12', 'http://172.16.0.1/'],
  ['private 172.31', 'http://172.31.255.254/'],
  ['private 192.168/16', 'http://192.168.1.1/'],
  ['private 192.168 hex', 'http://0xc0a80101/'],
  ['unique-local v6', 'http://[fd00::1]/'],
  ['CGNAT', 'http://100.64.0.1/'],
  ['CGNAT top', 'http://100.127.255.254/'],
  ['multicast', 'http://224.0.0.1/'],
  ['multicast v6', 'http://[ff02::1]/'],
  ['broadcast', 'http://255.255.255.255/'],
  ['reserved 240/4', 'http://240.0.0.1/'],
  ['benchmarking', 'http://198.18.0.1/'],
  ['documentation', 'http://192.0.2.1/'],
  ['documentation v6', 'http://[2001:db8::1]/'],
  ['localhost name', 'http://localhost/'],
  ['localhost subdomain', 'http://a.localhost/'],
  ['credentials', 'http://user:pass@93.184.216.34/'],
  ['scheme file', 'file:///etc/passwd'],
  ['scheme ftp', 'ftp://93.184.216.34/'],
  ['scheme gopher', 'gopher://93.184.216.34:70/_x'],
  ['not a URL', 'http//93.184.216.34'],
];
/** Controls: public targets the guard must let through (no request is made when a config is set). */
const PUBLIC_FORMS = ['https://93.184.216.34/hook', 'http://[2606:4700:4700::1111]:8080/hook'];

const URLISH = /(^|_)(url|uri|href|endpoint|callback|webhook)$/i;
/** Input fields (op name, field) that take a URL: named like one, or declared with a URI format. */
export function urlFields(ops: readonly AnyOperation[]): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  const walk = (sch: Schema | undefined, op: string) => {
    for (const [k, v] of Object.entries(sch?.properties ?? {})) {
      if (URLISH.test(k) || v.format === 'uri' || v.format === 'url') fields.push([op, k]);
      walk(v, op);
      walk(v.items, op);
    }
  };
  for (const op of ops) walk(inputSchema(op), op.name);
  return fields;
}

/** Host names of the list resolve through a stub here: DNS rebinding (one public, one private answer) too. */
const stubResolve = async (host: string) => {
  if (host === 'rebind.test') return [{ address: '93.184.216.34' }, { address: '10.0.0.7' }];
  if (host === 'public.test') return [{ address: '93.184.216.34' }];
  if (host.endsWith('localhost')) return [{ address: '127.0.0.1' }];
  throw new Error('ENOTFOUND');
};

describe('the guard itself (checkPushUrl), every form of the list', () => {
  it('the registry scan finds a URL field the day one is added', () => {
    const op = { ...OPS[0]!, name: 'test.hook', input: z.object({ callback_url: z.string(), nested: z.object({ target: z.url() }) }) } as AnyOperation;
    expect(urlFields([op])).toEqual([
      ['test.hook', 'callback_url'],
      ['test.hook', 'target'],
    ]);
  });

  it('refuses every form, accepts the public controls', async () => {
    for (const [label, url] of [...REFUSED_FORMS, ['rebinding name', 'http://rebind.test/'] as const]) {
      await expect(checkPushUrl(url, false, stubResolve), `${label} ${url}`).rejects.toThrow(/^push url: /);
    }
    for (const url of [...PUBLIC_FORMS, 'http://public.test/']) await expect(checkPushUrl(url, false, stubResolve), url).resolves.toBeInstanceOf(URL);
  });

  it('the address check agrees on the host each form normalizes to', () => {
    // The forms refused for their address (not for credentials or scheme).
    for (const [label, url] of REFUSED_FORMS.filter(([, u]) => /^http:\/\/[^@]*$/.test(u))) {
      let host: string;
      try {
        host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      } catch {
        continue;
      }
      if (/^[\d.]+$|:/.test(host)) expect(addressAllowed(host, false), `${label} ${host}`).toBe(false);
    }
  });
});

describe('through the server: every URL-taking field', () => {
  let s: TestServer;
  let task = '';
  let user = '';
  const rpc = async (method: string, params: unknown, v1 = false) => {
    const r = await send(s.url, {
      label: 'a2a',
      method: 'POST',
      path: '/a2a',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.230.0.1', ...(v1 ? { 'a2a-version': '1.0' } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    expect(r.status, method).toBeLessThan(500);
    return JSON.parse(r.body) as { result?: any; error?: { code: number; message: string } };
  };
  beforeAll(async () => {
    // Production default: loopback targets are refused too (CX_A2A_PUSH_ALLOW_LOOPBACK unset).
    s = await start({ CX_TRUST_PROXY: '1' });
    const t = await rpc('message/send', { message: { kind: 'message', messageId: 'ssrf-1', role: 'user', parts: [{ kind: 'text', text: 'register' }] } });
    task = t.result.id;
    user = (await register(s.url, 'ssrf', { 'x-forwarded-for': freshNet() })).token;
  });
  afterAll(async () => s?.stop());

  const sinks: Array<[string, (url: string) => Promise<{ code?: number; ok: boolean }>]> = [
    [
      'A2A 0.3 tasks/pushNotificationConfig/set',
      async (url) => {
        const r = await rpc('tasks/pushNotificationConfig/set', { taskId: task, pushNotificationConfig: { url } });
        return { code: r.error?.code, ok: !!r.result };
      },
    ],
    [
      'A2A 1.0 CreateTaskPushNotificationConfig',
      async (url) => {
        const r = await rpc('CreateTaskPushNotificationConfig', { taskId: task, id: '', url, token: '' }, true);
        return { code: r.error?.code, ok: !!r.result };
      },
    ],
    [
      'A2A 0.3 message/send configuration.pushNotificationConfig',
      async (url) => {
        const r = await rpc('message/send', {
          message: { kind: 'message', messageId: `ssrf-${Math.random()}`, role: 'user', parts: [{ kind: 'text', text: 'healthz' }] },
          configuration: { blocking: true, pushNotificationConfig: { url } },
        });
        return { code: r.error?.code, ok: !!r.result };
      },
    ],
  ];

  for (const [sink, call] of sinks) {
    it(`${sink}: every refused form is -32602, the public controls are accepted`, { timeout: 60_000 }, async () => {
      const wrong: string[] = [];
      for (const [label, url] of REFUSED_FORMS) {
        const r = await call(url);
        if (r.ok || r.code !== -32602) wrong.push(`${label} ${url}: ${r.ok ? 'accepted' : r.code}`);
      }
      expect(wrong).toEqual([]);
      for (const url of PUBLIC_FORMS) expect((await call(url)).ok, url).toBe(true);
    });
  }

  it('operation input fields that take a URL (scanned from the registry) refuse every form', { timeout: 60_000 }, async () => {
    const fields = urlFields(OPS);
    const wrong: string[] = [];
    for (const [name, field] of fields) {
      const op = OPS.find((o) => o.name === name)!;
      if (!op.rest) continue;
      // Everything else schema-valid, with the caller the op declares: only the URL can be refused.
      const base = (fc.sample(validArb(inputSchema(op)), { numRuns: 1, seed: 5 })[0] ?? {}) as Record<string, Json>;
      const tok = ['admin', 'ops', 'poll', 'check'].includes(op.auth) ? s.config.operatorTokens.admin : user;
      for (const [label, url] of REFUSED_FORMS) {
        const req = restRequests(op, { ...base, [field]: url }, { 'x-forwarded-for': freshNet(), authorization: `Bearer ${tok}` })[0]!;
        const r = await send(s.url, req);
        if (r.status < 400) wrong.push(`${name}.${field} ${label}: ${r.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
