// Which e-mail addresses an order takes: the mailbox syntax of RFC 5321 (4.1.2, 4.1.3, 4.5.3.1) with
// the UTF-8 of RFC 6531, not a guess at what addresses usually look like. Taken: a dot-atom or a
// quoted local part of at most 64 octets; a domain of dot-separated labels (1-63 octets, letters,
// digits and inner hyphens, or non-ASCII for internationalized names) or an address literal
// ([192.0.2.1], [IPv6:2001:db8::1]); at most 254 octets in all. `a@b.c` and `x@xn--p1ai.xn--p1ai` are
// addresses. Refused beyond RFC 5321: a domain of one label (`root@localhost` reaches no one on the
// Internet) and an all-numeric last label (a mistyped IPv4 address).
import { isIP } from 'node:net';

const ATEXT = "A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-\\u{A0}-\\u{10FFFF}";
const DOT_ATOM = new RegExp(`^[${ATEXT}]+(?:\\.[${ATEXT}]+)*$`, 'u');
// qtext (printable ASCII but " and \, plus UTF-8) or a quoted pair of printable ASCII.
const QUOTED = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e\u{A0}-\u{10FFFF}]|\\[\x20-\x7e])*"$/u;
const LABEL = /^(?:[A-Za-z0-9\u{A0}-\u{10FFFF}](?:[A-Za-z0-9\u{A0}-\u{10FFFF}-]*[A-Za-z0-9\u{A0}-\u{10FFFF}])?)$/u;

const octets = (s: string) => Buffer.byteLength(s, 'utf8');

export function isEmail(addr: string): boolean {
  if (octets(addr) > 254) return false;
  const at = addr.lastIndexOf('@');
  if (at < 1) return false;
  const local = addr.slice(0, at);
  const domain = addr.slice(at + 1);
  if (octets(local) > 64 || !(DOT_ATOM.test(local) || QUOTED.test(local))) return false;
  // A quoted local part may hold an @; a dot-atom may not (lastIndexOf split it off the domain).
  if (!local.startsWith('"') && local.includes('@')) return false;
  return isDomain(domain);
}

function isDomain(d: string): boolean {
  if (d.startsWith('[') && d.endsWith(']')) {
    const lit = d.slice(1, -1);
    if (/^IPv6:/i.test(lit)) return isIP(lit.slice(5)) === 6;
    return isIP(lit) === 4;
  }
  const labels = d.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((l) => octets(l) <= 63 && LABEL.test(l))) return false;
  return !/^\d+$/.test(labels[labels.length - 1]!);
}
