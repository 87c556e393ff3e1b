// Host names of the injection map: one spelling per host, and the registrable domain that groups
// a site's hosts. Normalization: trimmed, a scheme, path, user info and port dropped, lowercase,
// IDNA to punycode (WHATWG URL), a trailing dot dropped. The registrable domain is the last two
// labels, or three under the short list of multi-label public suffixes below (a simple public-suffix
// approach: docs/decisions.md "Injection map: hosts and domains"); IPv4 addresses are their own domain.
import { domainToASCII } from 'node:url';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';

/** Multi-label public suffixes common enough that grouping by two labels would merge strangers. */
const SUFFIXES = new Set([
  'co.uk',
  'org.uk',
  'ac.uk',
  'gov.uk',
  'me.uk',
  'ltd.uk',
  'plc.uk',
  'net.uk',
  'com.au',
  'net.au',
  'org.au',
  'edu.au',
  'gov.au',
  'co.nz',
  'org.nz',
  'net.nz',
  'co.jp',
  'ne.jp',
  'or.jp',
  'ac.jp',
  'go.jp',
  'co.kr',
  'or.kr',
  'co.in',
  'net.in',
  'org.in',
  'com.br',
  'net.br',
  'org.br',
  'com.cn',
  'net.cn',
  'org.cn',
  'com.tw',
  'com.hk',
  'com.sg',
  'com.mx',
  'com.ar',
  'com.tr',
  'co.za',
  'co.il',
  'com.pl',
  'com.ua',
  'co.id',
  'com.my',
  'com.ph',
  'com.vn',
  'github.io',
  'gitlab.io',
  'pages.dev',
  'workers.dev',
  'vercel.app',
  'netlify.app',
  'herokuapp.com',
  'blogspot.com',
  'appspot.com',
  'web.app',
  'firebaseapp.com',
  'azurewebsites.net',
  'cloudfront.net',
  'amazonaws.com',
  'fly.dev',
  'onrender.com',
  'glitch.me',
  'replit.app',
  'ngrok.io',
  'ngrok-free.app',
  'substack.com',
  'wordpress.com',
  'tumblr.com',
  'neocities.org',
  'readthedocs.io',
  'hf.space',
]);

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export const HOST_RULE = `a host name or registrable domain (at most ${limit('inj.host')} chars after IDNA; a scheme, path and port are dropped) with at least one dot, or an IPv4 address`;

/** The normalized host, or null when `raw` is not one. */
export function normalizeHost(raw: string): string | null {
  let s = raw.trim();
  if (!s || s.length > 2 * limit('inj.host') + 16) return null;
  s = s
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/[/?#].*$/s, '')
    .replace(/^[^@]*@/, '');
  if (s.startsWith('[')) return null; // IPv6 literals are not mapped
  s = s.replace(/:\d{1,5}$/, '').replace(/\.$/, '');
  if (!s || /[\s\u0000-\u001f\u007f%\\]/.test(s)) return null;
  const lower = s.toLowerCase();
  if (!lower.includes('.')) return null;
  const ascii = domainToASCII(lower);
  if (!ascii || ascii.length > limit('inj.host')) return null;
  // WHATWG parses 1234, 0x7f.1 or 010.0.0.1 as IPv4: only a plain dotted quad is taken as an address.
  if (IPV4.test(ascii)) return ascii === lower ? ascii : null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels.at(-1)!)) return null;
  return ascii;
}

/** Like normalizeHost, but `400 err bad host` when it is not one. */
export function hostOrBad(raw: string): string {
  const h = normalizeHost(raw);
  if (!h) throw new CxError('bad', `host: want ${HOST_RULE}`);
  return h;
}

/** The registrable domain of a normalized host. */
export function registrableDomain(host: string): string {
  if (IPV4.test(host)) return host;
  const labels = host.split('.');
  const two = labels.slice(-2).join('.');
  return SUFFIXES.has(two) && labels.length >= 3 ? labels.slice(-3).join('.') : two;
}
