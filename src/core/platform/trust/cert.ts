// Root → online key certificates. The operator keeps a root Ed25519 key offline (its public half
// in CX_ROOT_PUB) and certifies the server's online key with a key1 statement line:
//   key1 kid=0 sig=<base64url> seq=<n> exp=<YYYY-MM-DD> online=<kid>:<pub hex>
// kid=0 names the root. The signature covers signedBytes('key1', '<everything after sig=…␠>').
// A verifier trusts the root out of band, checks the certificate, then checks statements of the
// named online kid with that key until exp (end of that UTC day).
import { CxError } from '../../kernel/errors.js';
import { limit } from '../../kernel/limits.js';
import { parseStatementLine, verifyStatement } from './sign.js';

export interface OnlineCert {
  seq: number;
  exp: string;
  kid: number;
  pub: string;
  line: string;
}

const PAYLOAD = /^seq=([1-9]\d{0,8}) exp=(\d{4}-\d{2}-\d{2}) online=([1-9]\d{0,8}):([0-9a-f]{64})$/;

/** Parses and checks the root signature; null when malformed or not signed by `root`. */
export function readCert(line: string, root: Buffer): OnlineCert | null {
  const s = parseStatementLine(line.trim());
  if (!s || s.type !== 'key1' || s.kid !== 0) return null;
  const m = PAYLOAD.exec(s.payload);
  // A real calendar day only (Date.parse would read 2027-02-31 as March 3).
  const day = m ? Date.parse(`${m[2]}T00:00:00Z`) : NaN;
  if (!m || Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== m[2]) return null;
  if (!verifyStatement(root, 'key1', s.payload, s.sig)) return null;
  return { seq: Number(m[1]), exp: m[2]!, kid: Number(m[3]), pub: m[4]!, line: line.trim() };
}

/** End of the certificate's last day (UTC), in ms. */
export const certEnd = (exp: string): number => Date.parse(`${exp}T00:00:00Z`) + 86_400_000;

/** The checks POST /admin/online-key makes before keeping a certificate. */
export function acceptCert(line: string, root: Buffer | null, cur: { kid: number; pub: string; seq: number }, now: number): OnlineCert {
  if (!root) throw new CxError('dup', 'no root key configured (set CX_ROOT_PUB)');
  if (line.length > limit('trust.cert')) throw new CxError('size', `cert: at most ${limit('trust.cert')} characters`);
  const c = readCert(line, root);
  if (!c) throw new CxError('bad', 'cert: not a key1 line signed by the root key (see /signing)');
  if (c.kid !== cur.kid || c.pub !== cur.pub)
    throw new CxError('bad', `cert: names online=${c.kid}:${c.pub.slice(0, 8)}…, the current key is ${cur.kid}:${cur.pub.slice(0, 8)}…`);
  if (c.seq <= cur.seq) throw new CxError('dup', `cert: seq ${c.seq} not above the last accepted ${cur.seq}`);
  if (certEnd(c.exp) <= now) throw new CxError('bad', `cert: expired ${c.exp}`);
  if (certEnd(c.exp) > now + limit('trust.cert_days') * 86_400_000) throw new CxError('bad', `cert: exp more than ${limit('trust.cert_days')} days ahead`);
  return c;
}
