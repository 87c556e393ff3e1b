// Push notifications: only public http(s) targets, checked when a config is set and again on the
// address actually connected (DNS rebinding), with the token header, a timeout and bounded retries.
import { V03PushNotificationSerializer } from '@a2a-js/sdk/compat/v0_3/server';
import {
  V1PushNotificationSerializer,
  type PushNotificationSender,
  type PushNotificationSerializer,
  type ServerCallContext,
  type StoredPushNotificationConfig,
} from '@a2a-js/sdk/server';
import type { StreamResponse, Task } from '@a2a-js/sdk';
import { lookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Logger } from '../core/kernel/types.js';

// Addresses are compared as numbers, each family against its own table: Node's BlockList maps
// IPv4 addresses into ::ffff:0:0/96, so one list holding that subnet refused every IPv4 address.
const v4 = (ip: string): number => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);

function v6(ip: string): bigint {
  let s = ip.replace(/%.*$/, '');
  // A trailing dotted quad (::ffff:1.2.3.4, ::1.2.3.4, 64:ff9b::1.2.3.4) becomes two groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (quad) {
    const n = v4(quad[1]!);
    s = s.slice(0, quad.index) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = s.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16) || 0), 0n);
}

const nets4 = (list: [string, number][]) => list.map(([net, bits]) => ({ base: v4(net), bits }));
const nets6 = (list: [string, number][]) => list.map(([net, bits]) => ({ base: v6(net), bits }));
const in4 = (n: number, nets: { base: number; bits: number }[]) => nets.some(({ base, bits }) => bits === 0 || (n ^ base) >>> (32 - bits) === 0);
const in6 = (n: bigint, nets: { base: bigint; bits: number }[]) => nets.some(({ base, bits }) => (n ^ base) >> BigInt(128 - bits) === 0n);

// Everything that is not a public unicast IPv4 address: this network, private, CGNAT, loopback,
// link-local, IETF protocol assignments, documentation, 6to4 relay, benchmarking, multicast, reserved.
const NOT_PUBLIC_4 = nets4([
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
]);
// IPv6: only global unicast (2000::/3) can be public. That alone refuses ::, ::1, the IPv4-compatible
// ::/96 and mapped ::ffff:0:0/96 forms, SIIT, NAT64 (64:ff9b::/96, 64:ff9b:1::/48), discard-only,
// unique-local, link-local, site-local and multicast. Inside 2000::/3: IETF special purpose (Teredo
// among them), documentation (both prefixes) and 6to4 (it embeds any IPv4 address) are refused too.
const GLOBAL_6 = nets6([['2000::', 3]]);
const NOT_PUBLIC_6 = nets6([
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
]);
const LOOP4 = nets4([['127.0.0.0', 8]]);
const LOOP6 = v6('::1');

export function addressAllowed(ip: string, allowLoopback: boolean): boolean {
  const fam = isIP(ip.replace(/%.*$/, ''));
  if (fam === 4) {
    const n = v4(ip);
    if (allowLoopback && in4(n, LOOP4)) return true;
    return !in4(n, NOT_PUBLIC_4);
  }
  if (fam !== 6) return false;
  const n = v6(ip);
  if (allowLoopback && n === LOOP6) return true;
  return in6(n, GLOBAL_6) && !in6(n, NOT_PUBLIC_6);
}

/** Resolves a host name to its addresses (tests inject a stub; the default asks the system). */
export type Resolve = (host: string) => Promise<{ address: string }[]>;

export class PushTargetError extends Error {}

export function lookupAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => lookup(host, { all: true, verbatim: true }, (err, addrs) => (err ? reject(err) : resolve(addrs))));
}

/** Refuses a push URL that is not http(s), carries credentials or resolves to a non-public address. */
export async function checkPushUrl(raw: string, allowLoopback: boolean, resolve: Resolve = lookupAll): Promise<URL> {
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
  const addrs = isIP(host)
    ? [{ address: host }]
    : await resolve(host).catch(() => {
        throw new PushTargetError('push url: host does not resolve');
      });
  if (!addrs.length || addrs.some((a) => !addressAllowed(a.address, allowLoopback))) throw new PushTargetError('push url: only public addresses are allowed');
  return url;
}

/** A lookup that fails when any resolved address is not allowed: the socket never reaches it. */
function guardedLookup(allowLoopback: boolean, resolve?: Resolve): LookupFunction {
  const all = (hostname: string, options: object): Promise<LookupAddress[]> =>
    resolve
      ? resolve(hostname).then((r) => r.map((a) => ({ address: a.address, family: isIP(a.address) })))
      : new Promise((ok, no) => lookup(hostname, { ...options, all: true }, (err, addrs) => (err ? no(err) : ok(addrs))));
  return (hostname, options, cb) => {
    all(hostname, options).then(
      (list) => {
        if (!list.length || list.some((a) => !addressAllowed(a.address, allowLoopback)))
          return cb(new PushTargetError('push target is not a public address'), '', 0);
        if ((options as { all?: boolean }).all) return (cb as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
        cb(null, list[0]!.address, list[0]!.family);
      },
      (err: NodeJS.ErrnoException) => cb(err, '', 0),
    );
  };
}

export interface PushOptions {
  allowLoopback: boolean;
  timeoutMs: number;
  tries: number;
  log: Logger;
  /** Name resolution for targets (default: the system's); tests inject a stub. */
  resolve?: Resolve;
  /** Delay before retry n (1-based); tests may shorten it. */
  backoffMs?: (n: number) => number;
}

const SERIALIZERS: Record<string, PushNotificationSerializer> = { '0.3': new V03PushNotificationSerializer(), '1.0': new V1PushNotificationSerializer() };

function taskIdOf(r: StreamResponse): string {
  const p = r.payload;
  if (!p) return '';
  return p.$case === 'task' ? p.value.id : p.value.taskId;
}

/** What the sender reads of the push store (stores.ts's SqlitePushStore; named here, not imported: stores.ts imports this file). */
export interface PushConfigSource {
  loadWithMetadata(taskId: string, ctx: ServerCallContext): Promise<StoredPushNotificationConfig[]>;
}

export class PushSender implements PushNotificationSender {
  /** One chain per task keeps a task's notifications in order. */
  private chains = new Map<string, Promise<void>>();
  private lookupFn: LookupFunction;
  constructor(
    private store: PushConfigSource,
    private opts: PushOptions,
  ) {
    this.lookupFn = guardedLookup(opts.allowLoopback, opts.resolve);
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
      const r = req(
        url,
        { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: this.lookupFn, timeout: this.opts.timeoutMs },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      r.on('timeout', () => r.destroy(new Error('push timeout')));
      r.on('error', (err) => reject((err as Error & { cause?: unknown }).cause instanceof PushTargetError ? (err as { cause: Error }).cause : err));
      r.end(body);
    });
  }
}
