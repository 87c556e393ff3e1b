// Push notification targets: public IPv4 and IPv6 are accepted, every private, loopback,
// link-local, unique-local, CGNAT, mapped and embedded form is refused; host names go through an
// injected stub resolver (no network), both when a config is set and when the socket connects.
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { A2AClient } from 'a2a-sdk-03/client';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, checkPushUrl, PushSender, type Resolve } from '../../src/a2a/push.js';
import type { SqlitePushStore } from '../../src/a2a/stores.js';
import { start, type TestServer } from '../helpers/server.js';
import { client13, client03, msg03, receiver, serveBase, text03, type Json } from './helpers.js';

const PUBLIC = ['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e'];
const REFUSED = [
  // IPv4: this network, private, CGNAT, loopback, link-local, documentation, multicast, broadcast
  '0.0.0.0',
  '10.1.2.3',
  '172.16.5.4',
  '172.31.255.255',
  '192.168.1.1',
  '100.64.0.1',
  '100.127.255.254',
  '127.0.0.1',
  '127.8.9.10',
  '169.254.169.254',
  '192.0.0.8',
  '192.0.2.1',
  '198.18.0.1',
  '198.51.100.2',
  '203.0.113.3',
  '224.0.0.1',
  '240.0.0.1',
  '255.255.255.255',
  // IPv6: unspecified, loopback, link-local, site-local, unique-local, multicast, documentation
  '::',
  '::1',
  'fe80::1',
  'fe80::1%eth0',
  'fec0::1',
  'fc00::1',
  'fd12:3456:789a::1',
  'ff02::1',
  '2001:db8::1',
  '3fff::1',
  // IPv4-mapped and IPv4-compatible (embedded) forms, dotted and hex
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:8.8.8.8',
  '::ffff:7f00:1',
  '::7f00:1',
  '::127.0.0.1',
  '::10.0.0.1',
  '::8.8.8.8',
  '::ffff:0:a00:1',
  // NAT64, 6to4 and Teredo carry IPv4 addresses too
  '64:ff9b::7f00:1',
  '64:ff9b::8.8.8.8',
  '64:ff9b:1::a00:1',
  '2002:7f00:1::1',
  '2002:0808:0808::1',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  '2001::1',
];

describe('addressAllowed', () => {
  it('accepts public IPv4 and IPv6 (every IPv4 address used to be refused)', () => {
    for (const ip of PUBLIC) expect(addressAllowed(ip, false), ip).toBe(true);
  });

  it('refuses every private, loopback, link-local, unique-local, CGNAT, mapped and embedded form', () => {
    for (const ip of REFUSED) expect(addressAllowed(ip, false), ip).toBe(false);
    for (const ip of ['', 'example.com', '1.2.3', '::g']) expect(addressAllowed(ip, false), ip).toBe(false);
  });

  it('test mode allows loopback only, never its mapped or embedded forms nor private addresses', () => {
    for (const ip of ['127.0.0.1', '127.1.2.3', '::1']) expect(addressAllowed(ip, true), ip).toBe(true);
    for (const ip of ['::ffff:127.0.0.1', '::7f00:1', '::127.0.0.1', '10.0.0.1', '169.254.169.254', 'fe80::1'])
      expect(addressAllowed(ip, true), ip).toBe(false);
  });
});

/** A stub DNS: names map to fixed address lists; anything else fails like NXDOMAIN. */
const stub =
  (table: Record<string, string[]>): Resolve =>
  async (host) => {
    const a = table[host];
    if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return a.map((address) => ({ address }));
  };

describe('checkPushUrl with a stub resolver', () => {
  const dns = stub({
    'v4.example': ['93.184.216.34'],
    'v6.example': ['2606:4700:4700::1111'],
    'both.example': ['93.184.216.34', '2606:4700:4700::1111'],
    'mixed.example': ['93.184.216.34', '10.0.0.7'],
    'mapped.example': ['::ffff:169.254.169.254'],
    'compat.example': ['::7f00:1'],
    'ula.example': ['fd00::5'],
    'cgnat.example': ['100.64.1.1'],
  });

  it('accepts names that resolve only to public addresses, and public literals', async () => {
    for (const url of [
      'https://v4.example/hook',
      'http://v6.example:8443/x',
      'https://both.example/',
      'http://93.184.216.34/h',
      'https://[2606:4700:4700::1111]/h',
    ]) {
      await expect(checkPushUrl(url, false, dns), url).resolves.toBeInstanceOf(URL);
    }
  });

  it('refuses names with any non-public address, names that do not resolve, and non-public literals', async () => {
    for (const url of ['https://mixed.example/', 'https://mapped.example/', 'https://compat.example/', 'https://ula.example/', 'https://cgnat.example/']) {
      await expect(checkPushUrl(url, false, dns), url).rejects.toThrow(/only public addresses/);
    }
    await expect(checkPushUrl('https://nowhere.example/', false, dns)).rejects.toThrow(/does not resolve/);
    for (const url of [
      'http://[::7f00:1]/',
      'http://[::127.0.0.1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://100.64.0.1/',
      'http://[fd00::1]/',
    ]) {
      await expect(checkPushUrl(url, false, dns), url).rejects.toThrow(/only public addresses/);
    }
  });
});

describe('delivery resolves through the same guard (DNS rebinding)', () => {
  const ctx = {} as ServerCallContext;
  const event = (taskId: string) => ({
    payload: {
      $case: 'statusUpdate' as const,
      value: { taskId, contextId: 'c', status: { state: 3, message: undefined, timestamp: new Date().toISOString() }, metadata: undefined },
    },
  });
  const storeOf = (url: string) =>
    ({
      loadWithMetadata: async () => [{ config: { url, token: 'tok', id: 'p', taskId: 't', tenant: '', authentication: undefined }, wireVersion: '1.0' }],
    }) as unknown as SqlitePushStore;

  it('a name the stub resolves to loopback (allowed in test mode) is delivered; one that rebinds to a private address is not', async () => {
    const hook = await receiver();
    try {
      const port = new URL(hook.url).port;
      const dns = stub({ 'hook.test': ['127.0.0.1'], 'rebind.test': ['10.0.0.1'] });
      const log = pino({ enabled: false });
      const good = new PushSender(storeOf(`http://hook.test:${port}/hook`), { allowLoopback: true, timeoutMs: 5000, tries: 1, log, resolve: dns });
      await good.send(event('t-good') as never, ctx);
      expect(hook.hits).toHaveLength(1);
      expect(hook.hits[0]!.headers.host).toBe(`hook.test:${port}`);
      expect(hook.hits[0]!.headers['x-a2a-notification-token']).toBe('tok');
      expect(hook.hits[0]!.body.statusUpdate.taskId).toBe('t-good');
      const bad = new PushSender(storeOf(`http://rebind.test:${port}/hook`), { allowLoopback: true, timeoutMs: 5000, tries: 1, log, resolve: dns });
      await bad.send(event('t-bad') as never, ctx);
      expect(hook.hits).toHaveLength(1);
    } finally {
      await hook.close();
    }
  });
});

describe('through the server: push configs on both wires', () => {
  let s: TestServer;
  let c03: A2AClient;
  beforeAll(async () => {
    s = await start();
    serveBase(s.url);
    c03 = await client03(`${s.url}/.well-known/agent.json`);
  });
  afterAll(async () => s.stop());

  it('public IPv4 and IPv6 targets are accepted; loopback, mapped, embedded, NAT64, unique-local and CGNAT ones are -32602', async () => {
    const t = (await c03.sendMessage({ message: msg03([text03('register')]) as never })) as Json;
    expect(t.result.status.state).toBe('input-required');
    const id = t.result.id;
    const client = await client13(s.url);
    for (const url of ['https://93.184.216.34/hook', 'http://[2606:4700:4700::1111]:8080/hook']) {
      const r = (await c03.setTaskPushNotificationConfig({ taskId: id, pushNotificationConfig: { url, id: `p03-${url.length}` } })) as Json;
      expect(r.error, url).toBeUndefined();
      expect(r.result.pushNotificationConfig.url).toBe(url);
      const cfg = await client.createTaskPushNotificationConfig({ tenant: '', id: `p10-${url.length}`, taskId: id, url, token: '', authentication: undefined });
      expect(cfg.url).toBe(url);
    }
    for (const url of [
      'http://127.0.0.1/',
      'http://[::1]/',
      'http://[::7f00:1]/',
      'http://[::127.0.0.1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[64:ff9b::a00:1]/',
      'http://[2002:a00:1::]/',
      'http://[fd00::1]/',
      'http://100.64.0.1/',
    ]) {
      const r = (await c03.setTaskPushNotificationConfig({ taskId: id, pushNotificationConfig: { url } })) as Json;
      expect(r.error?.code, url).toBe(-32602);
      await expect(client.createTaskPushNotificationConfig({ tenant: '', id: '', taskId: id, url, token: '', authentication: undefined }), url).rejects.toThrow(
        /public addresses/,
      );
    }
  });
});
