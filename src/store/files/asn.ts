// The operator's IP-to-ASN table: `asn.csv` in the data directory, one `cidr,asn` row per line
// (`203.0.113.0/24,64500`, `2001:db8::/32,64501`); blank lines and lines starting with `#` are
// skipped, and so is a first line `cidr,asn`. Longest prefix wins. The file is re-read when its
// modification time changes (checked at most every ASN_RECHECK_MS), so the operator replaces it
// without a restart. A missing file means no ASN is known (every policy lookup misses).
import { readFileSync, statSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import { join } from 'node:path';

const ASN_RECHECK_MS = 10_000;

type Family = 4 | 6;
interface Parsed {
  /** Per family: prefix length → network (as bigint) → asn; lengths longest first. */
  v4: Map<number, Map<bigint, number>>;
  v6: Map<number, Map<bigint, number>>;
  lens4: number[];
  lens6: number[];
}

function v4(ip: string): bigint {
  return ip.split('.').reduce((a, p) => (a << 8n) | BigInt(Number(p)), 0n);
}

function v6(ip: string): bigint {
  const [head, tail] = ip.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const parts = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return parts.reduce((a, p) => (a << 16n) | BigInt(parseInt(p || '0', 16)), 0n);
}

function addrOf(ip: string): { fam: Family; n: bigint } | null {
  if (isIPv4(ip)) return { fam: 4, n: v4(ip) };
  if (isIPv6(ip) && !ip.includes('.')) return { fam: 6, n: v6(ip) };
  return null;
}

const mask = (n: bigint, len: number, bits: number) => (len === 0 ? 0n : (n >> BigInt(bits - len)) << BigInt(bits - len));

export function parseAsnCsv(text: string): Parsed {
  const out: Parsed = { v4: new Map(), v6: new Map(), lens4: [], lens6: [] };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || /^cidr\s*,/i.test(line)) continue;
    const [cidr, asnText] = line.split(',').map((s) => s.trim());
    const asn = Number(asnText);
    if (!cidr || !Number.isInteger(asn) || asn < 0 || asn > 4294967296) continue;
    const [ip, lenText] = cidr.split('/');
    const a = addrOf(ip ?? '');
    if (!a) continue;
    const bits = a.fam === 4 ? 32 : 128;
    const len = lenText === undefined ? bits : Number(lenText);
    if (!Number.isInteger(len) || len < 0 || len > bits) continue;
    const m = a.fam === 4 ? out.v4 : out.v6;
    let byNet = m.get(len);
    if (!byNet) m.set(len, (byNet = new Map()));
    byNet.set(mask(a.n, len, bits), asn);
  }
  out.lens4 = [...out.v4.keys()].sort((x, y) => y - x);
  out.lens6 = [...out.v6.keys()].sort((x, y) => y - x);
  return out;
}

export class AsnTable {
  private parsed: Parsed | null = null;
  private mtime = -1;
  private checked = -Infinity;
  private readonly file: string;

  constructor(
    dataDir: string,
    private readonly now: () => number,
  ) {
    this.file = join(dataDir, 'asn.csv');
  }

  private table(): Parsed | null {
    const t = this.now();
    if (t - this.checked < ASN_RECHECK_MS) return this.parsed;
    this.checked = t;
    let m: number;
    try {
      m = statSync(this.file).mtimeMs;
    } catch {
      this.parsed = null;
      this.mtime = -1;
      return null;
    }
    if (m !== this.mtime) {
      try {
        this.parsed = parseAsnCsv(readFileSync(this.file, 'utf8'));
        this.mtime = m;
      } catch {
        /* unreadable: keep the last table */
      }
    }
    return this.parsed;
  }

  /** Whether a table with at least one row is loaded. */
  loaded(): boolean {
    const p = this.table();
    return !!p && p.lens4.length + p.lens6.length > 0;
  }

  /** The ASN of an address, or null. */
  lookup(ip: string): number | null {
    const p = this.table();
    const a = addrOf(ip);
    if (!p || !a) return null;
    const bits = a.fam === 4 ? 32 : 128;
    for (const len of a.fam === 4 ? p.lens4 : p.lens6) {
      const hit = (a.fam === 4 ? p.v4 : p.v6).get(len)!.get(mask(a.n, len, bits));
      if (hit !== undefined) return hit;
    }
    return null;
  }

  /** The ASN of a network key (`a.b.c.0/24`, `x:y:z::/48`): looked up by the network's first address. */
  lookupNet(net: string): number | null {
    return this.lookup(net.split('/')[0] ?? '');
  }
}
