// Network keys group callers for quotas: IPv4 /24, IPv6 /48.
import { isIPv4, isIPv6 } from 'node:net';

// IPv4, the common case, is cheaper to compute than to look up. The key of the few IPv6 addresses a
// server sees most (clients post again and again) is remembered: bounded, cleared whole when full.
const memo = new Map<string, string>();
const MEMO_MAX = 1024;

export function netKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIPv4(v4)) return `${v4.slice(0, v4.lastIndexOf('.'))}.0/24`;
  let key = memo.get(ip);
  if (key === undefined) {
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(ip, (key = isIPv6(ip) ? `${expandV6(ip).slice(0, 3).join(':')}::/48` : 'unknown'));
  }
  return key;
}

function expandV6(ip: string): string[] {
  const [head, tail] = ip.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((x) => (parseInt(x, 16) || 0).toString(16));
}
