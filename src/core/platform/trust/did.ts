// did:web documents (W3C DID core; did:web method): the server's statement keys at
// /.well-known/did.json and an identity's published key at /a/{id}/did.json. Each Ed25519 key is
// given twice: as a Multikey (`z6Mk…`, multicodec ed25519-pub 0xed01, base58btc) and as a JWK.

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58btc(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  while (n > 0n) {
    out = B58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

/** Multikey form of a raw Ed25519 public key. */
export const multikey = (pub: Buffer): string => 'z' + base58btc(Buffer.concat([Buffer.from([0xed, 0x01]), pub]));

/** The did:web of a base URL and optional path segments (a port is percent-encoded, spec of did:web). */
export function didWeb(baseUrl: string, ...path: string[]): string {
  const u = new URL(baseUrl);
  return ['did:web', encodeURIComponent(u.host), ...u.pathname.split('/').filter(Boolean), ...path].join(':');
}

export interface DidKey {
  /** Fragment (without #). */
  name: string;
  pub: Buffer;
}

export function didDocument(did: string, current: DidKey[], older: DidKey[] = []): object {
  const methods = (k: DidKey) => [
    { id: `${did}#${k.name}`, type: 'Multikey', controller: did, publicKeyMultibase: multikey(k.pub) },
    { id: `${did}#${k.name}-jwk`, type: 'JsonWebKey2020', controller: did, publicKeyJwk: { kty: 'OKP', crv: 'Ed25519', x: k.pub.toString('base64url') } },
  ];
  const cur = current.flatMap(methods);
  const old = older.flatMap(methods);
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id: did,
    verificationMethod: [...cur, ...old],
    authentication: cur.map((m) => m.id),
    // Older keys still vouch for what they signed before a rotation.
    assertionMethod: [...cur, ...old].map((m) => m.id),
  };
}
