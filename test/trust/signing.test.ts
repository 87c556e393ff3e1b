// The signing scheme of /signing: the published vectors recompute, verify under openssl and
// @noble/ed25519, and a signature of one type never verifies as another; statement lines and
// root certificates parse and check.
import * as ed from '@noble/ed25519';
import { describe, expect, it } from 'vitest';
import { acceptCert, readCert } from '../../src/core/platform/trust/cert.js';
import {
  b64u,
  parseStatementLine,
  privateKeyOf,
  rawPublic,
  signedBytes,
  signStatement,
  statementLine,
  STATEMENT_TYPES,
  verifyStatement,
} from '../../src/core/platform/trust/sign.js';
import { VECTORS } from '../../src/core/platform/trust/vectors.js';
import { bothVerify, canonical } from './verify-helpers.js';

const seed = Buffer.from(VECTORS.seed, 'hex');
const key = privateKeyOf(seed);

describe('test vectors (src/core/platform/trust/vectors.json, shown on /signing)', () => {
  it('cover every statement type and recompute byte for byte', () => {
    expect(VECTORS.vectors.map((v) => v.type).sort()).toEqual([...STATEMENT_TYPES].sort());
    expect(rawPublic(seed).toString('hex')).toBe(VECTORS.pub);
    for (const v of VECTORS.vectors) {
      expect(signedBytes(v.type, v.payload).toString('hex')).toBe(v.signed_hex);
      expect(canonical(v.type, v.payload).toString('hex')).toBe(v.signed_hex);
      expect(b64u(signStatement(key, v.type, v.payload))).toBe(v.sig);
    }
  });

  it('verify with openssl pkeyutl -rawin and with @noble/ed25519; noble signs the same bytes', async () => {
    for (const v of VECTORS.vectors) {
      const sig = Buffer.from(v.sig, 'base64url');
      expect(await bothVerify(VECTORS.pub, v.type, v.payload, sig)).toEqual([true, true]);
      expect(b64u(await ed.signAsync(new Uint8Array(canonical(v.type, v.payload)), new Uint8Array(seed)))).toBe(v.sig);
    }
  });

  it('a signature of one type is rejected as every other type (node, openssl, noble)', async () => {
    for (const v of VECTORS.vectors) {
      const sig = Buffer.from(v.sig, 'base64url');
      for (const other of STATEMENT_TYPES.filter((t) => t !== v.type)) {
        expect(verifyStatement(Buffer.from(VECTORS.pub, 'hex'), other, v.payload, sig)).toBe(false);
        expect(await bothVerify(VECTORS.pub, other, v.payload, sig)).toEqual([false, false]);
      }
      // Without the domain prefix (a bare Ed25519 signature of the payload) it does not verify either.
      expect(await ed.verifyAsync(new Uint8Array(sig), new Uint8Array(Buffer.from(v.payload)), new Uint8Array(Buffer.from(VECTORS.pub, 'hex')))).toBe(false);
    }
  });

  it('type/payload boundary is unambiguous: moving bytes between type and payload breaks the signature', () => {
    const sig = signStatement(key, 'att1', 'x');
    expect(verifyStatement(rawPublic(seed), 'att1', 'x', sig)).toBe(true);
    expect(() => signedBytes('att1\u0000x', '')).toThrow();
    expect(verifyStatement(rawPublic(seed), 'att', '1x', sig)).toBe(false);
  });

  it('one changed payload byte fails', () => {
    const v = VECTORS.vectors[0]!;
    const bad = v.payload.replace('upgrade', 'upgradE');
    expect(verifyStatement(Buffer.from(VECTORS.pub, 'hex'), v.type, bad, Buffer.from(v.sig, 'base64url'))).toBe(false);
  });
});

describe('statement lines', () => {
  it('round-trip; the payload may contain "sig=" without ambiguity', () => {
    const payload = 'text="a sig=zzz kid=9"';
    const line = statementLine('ann1', 3, signStatement(key, 'ann1', payload), payload);
    const p = parseStatementLine(line)!;
    expect(p).toMatchObject({ type: 'ann1', kid: 3, payload });
    expect(verifyStatement(rawPublic(seed), p.type, p.payload, p.sig)).toBe(true);
    expect(parseStatementLine(line + '\nann1 more')).toBeNull();
    expect(parseStatementLine('ann1 kid=3 sig=short payload')).toBeNull();
  });
});

describe('root certificates (key1)', () => {
  const rootSeed = Buffer.alloc(32, 7);
  const root = privateKeyOf(rootSeed);
  const rootPub = rawPublic(rootSeed);
  const online = rawPublic(Buffer.alloc(32, 9)).toString('hex');
  const now = Date.parse('2026-11-24T12:00:00Z');
  const cert = (payload: string, k = root) => statementLine('key1', 0, signStatement(k, 'key1', payload), payload);

  it('a root-signed line names the online key; it fits in 256 characters', () => {
    const line = cert(`seq=12 exp=2027-06-30 online=123:${online}`);
    expect(line.length).toBeLessThanOrEqual(256);
    expect(readCert(line, rootPub)).toMatchObject({ seq: 12, exp: '2027-06-30', kid: 123, pub: online });
    expect(acceptCert(line, rootPub, { kid: 123, pub: online, seq: 11 }, now).seq).toBe(12);
  });

  it('refuses another signer, another key, a replayed seq, an expired or too distant exp, no root', () => {
    const ok = `seq=2 exp=2027-01-01 online=4:${online}`;
    const cur = { kid: 4, pub: online, seq: 1 };
    expect(() => acceptCert(cert(ok, privateKeyOf(Buffer.alloc(32, 8))), rootPub, cur, now)).toThrow(/not a key1 line signed by the root/);
    expect(() => acceptCert(cert(ok), rootPub, { ...cur, kid: 5 }, now)).toThrow(/current key/);
    expect(() => acceptCert(cert(ok), rootPub, { ...cur, seq: 2 }, now)).toThrow(/seq 2 not above/);
    expect(() => acceptCert(cert(`seq=2 exp=2026-11-23 online=4:${online}`), rootPub, cur, now)).toThrow(/expired/);
    expect(() => acceptCert(cert(`seq=2 exp=2029-01-01 online=4:${online}`), rootPub, cur, now)).toThrow(/days ahead/);
    expect(() => acceptCert(cert(ok), null, cur, now)).toThrow(/no root key/);
    expect(readCert(cert(`seq=2 exp=2027-02-31 online=4:${online}`), rootPub)).toBeNull();
    // A key1 signature does not certify when presented as another type's line.
    const line = cert(ok).replace(/^key1/, 'att1');
    expect(readCert(line, rootPub)).toBeNull();
  });
});
