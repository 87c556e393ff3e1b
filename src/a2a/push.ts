// Push notifications: only public http(s) targets, checked when a config is set and again on the
// address actually connected (DNS rebinding), with the token header, a timeout and bounded retries.
import { V03PushNotificationSerializer } from '@a2a-js/sdk/compat/v0_3/server';
import { V1PushNotificationSerializer, type PushNotificationSender, type PushNotificationSerializer, type ServerCallContext } from '@a2a-js/sdk/server';
import type { StreamResponse, Task } from '@a2a-js/sdk';
import { lookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Logger } from '../core/ops/types.js';
import type { SqlitePushStore } from './stores.js';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

// Everything that is not a public unicast address: private, loopback, link-local, CGNAT,
// documentation, benchmarking, multicast, reserved; IPv4-mapped and NAT64 forms as a whole.
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC.addSubnet(net, bits, 'ipv6');

export function addressAllowed(ip: string, allowLoopback: boolean): boolean {
  const v = isIP(ip);
  if (v === 0) return false;
  const type = v === 4 ? 'ipv4' : 'ipv6';
  if (allowLoopback && LOOPBACK.check(ip, type)) return true;
  return !NOT_PUBLIC.check(ip, type);
}

export class PushTargetError extends Error {}

function lookupAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => lookup(host, { all: true, verbatim: true }, (err, addrs) => (err ? reject(err) : resolve(addrs))));
}

/** Refuses a push URL that is not http(s), carries credentials or resolves to a non-public address. */
export async function checkPushUrl(raw: string, allowLoopback: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PushTargetError('push url: not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PushTargetError('push url: http or https only');
  if (url.username || url.password) throw new PushTargetError('push url: no credentials in the URL, use authentication or token');
  if (raw.length > 2048) throw new PushTargetError('push url: at most 2048 chars');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addrs = isIP(host) ? [{ address: host }] : await lookupAll(host).catch(() => {
    throw new PushTargetError('push url: host does not resolve');
  });
  if (!addrs.length || addrs.some((a) => !addressAllowed(a.address, allowLoopback))) throw new PushTargetError('push url: only public addresses are allowed');
  return url;
}

/** A lookup that fails when any resolved address is not allowed: the socket never reaches it. */
function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, cb) => {
    lookup(hostname, { ...options, all: true }, (err, addrs) => {
      if (err) return cb(err, '', 0);
      const list = addrs as LookupAddress[];
      if (!list.length || list.some((a) => !addressAllowed(a.address, allowLoopback))) return cb(new PushTargetError('push target is not a public address'), '', 0);
      if ((options as { all?: boolean }).all) return (cb as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      cb(null, list[0]!.address, list[0]!.family);
    });
  };
}

export interface PushOptions {
  allowLoopback: boolean;
  timeoutMs: number;
  tries: number;
  log: Logger;
  /** Delay before retry n (1-based); tests may shorten it. */
  backoffMs?: (n: number) => number;
}

const SERIALIZERS: Record<string, PushNotificationSerializer> = { '0.3': new V03PushNotificationSerializer(), '1.0': new V1PushNotificationSerializer() };

function taskIdOf(r: StreamResponse): string {
  const p = r.payload;
  if (!p) return '';
  return p.$case === 'task' ? p.value.id : p.value.taskId;
}

export class PushSender implements PushNotificationSender {
  /** One chain per task keeps a task's notifications in order. */
  private chains = new Map<string, Promise<void>>();
  private lookupFn: LookupFunction;
  constructor(private store: SqlitePushStore, private opts: PushOptions) {
    this.lookupFn = guardedLookup(opts.allowLoopback);
  }

  async send(streamResponse: StreamResponse, context: ServerCallContext, task?: Task): Promise<void> {
    const taskId = taskIdOf(streamResponse);
    if (!taskId) return;
    const configs = await this.store.loadWithMetadata(taskId, context);
    if (!configs.length) return;
    const jobs = configs.map(({ config, wireVersion }) => {
      const { body, contentType } = (SERIALIZERS[wireVersion] ?? SERIALIZERS['1.0']!).serialize(streamResponse, task);
      const headers: Record<string, string> = { 'content-type': contentType, 'user-agent': 'agent-commons-push/1' };
      if (config.token) headers['x-a2a-notification-token'] = config.token;
      if (config.authentication?.scheme) headers.authorization = `${config.authentication.scheme} ${config.authentication.credentials}`;
      return () => this.deliver(config.url, body, headers, taskId);
    });
    const prev = this.chains.get(taskId) ?? Promise.resolve();
    const next = prev.then(async () => {
      await Promise.all(jobs.map((j) => j()));
    });
    this.chains.set(taskId, next);
    void next.finally(() => {
      if (this.chains.get(taskId) === next) this.chains.delete(taskId);
    });
    return next;
  }

  private async deliver(raw: string, body: string, headers: Record<string, string>, taskId: string): Promise<void> {
    const backoff = this.opts.backoffMs ?? ((n: number) => 1000 * 4 ** (n - 1));
    for (let attempt = 1; attempt <= this.opts.tries; attempt++) {
      let status = 0;
      try {
        const url = new URL(raw);
        const host = url.hostname.replace(/^\[|\]$/g, '');
        if (isIP(host) && !addressAllowed(host, this.opts.allowLoopback)) throw new PushTargetError('push target is not a public address');
        status = await this.post(url, body, headers);
        if (status >= 200 && status < 300) return;
        // A client error will not heal by retrying; 408, 425 and 429 might.
        if (status < 500 && ![408, 425, 429].includes(status)) break;
      } catch (err) {
        if (err instanceof PushTargetError) {
          this.opts.log.warn({ task: taskId, err: err.message }, 'push refused');
          return;
        }
      }
      if (attempt < this.opts.tries) await new Promise((r) => setTimeout(r, backoff(attempt)));
    }
    this.opts.log.warn({ task: taskId }, 'push not delivered');
  }

  private post(url: URL, body: string, headers: Record<string, string>): Promise<number> {
    const req = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const r = req(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: this.lookupFn, timeout: this.opts.timeoutMs }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      r.on('timeout', () => r.destroy(new Error('push timeout')));
      r.on('error', (err) => reject((err as Error & { cause?: unknown }).cause instanceof PushTargetError ? (err as { cause: Error }).cause : err));
      r.end(body);
    });
  }
}
