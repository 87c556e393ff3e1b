#!/usr/bin/env node
// e2e.mjs: client-side end-to-end encryption for drop and mail bodies (Node >= 20, no dependencies).
// The server only ever sees the sealed text. Construction cx-e2e-v1 (byte-identical in e2e.py,
// checked by /e2e-vectors.json), built from primitives both standard libraries have:
//   drop (symmetric): K = 32 random bytes, carried in the URL fragment (#k=<base64url K>), never sent.
//     (k_enc, k_mac) = HKDF-SHA256(ikm=K, salt="", info="cx-e2e-v1 drop", 64 bytes)
//   box (to a recipient's X25519 public key R): ephemeral X25519 key (e, E);
//     (k_enc, k_mac) = HKDF-SHA256(ikm=X25519(e, R), salt=E || R, info="cx-e2e-v1 box", 64 bytes)
//   seal: nonce N = 16 random bytes; keystream block i = HMAC-SHA256(k_enc, N || uint32be(i));
//     C = P xor keystream; T = HMAC-SHA256(k_mac, "cx-e2e-v1" || N || C) (32 bytes, encrypt-then-MAC)
//   text form: "cxe1d." + base64url(N || C || T) (drop), "cxe1b." + base64url(E || N || C || T) (box)
// Usage: node e2e.mjs keygen | box <recipient pub hex> | unbox <priv hex> | drop-seal | drop-open <K b64url>
//   (bodies on stdin, results on stdout)
import { createHmac, createPrivateKey, createPublicKey, diffieHellman, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { pathToFileURL } from 'node:url';

const TAG = Buffer.from('cx-e2e-v1');
const X25519_PKCS8 = Buffer.from('302e020100300506032b656e04220420', 'hex');
const X25519_SPKI = Buffer.from('302a300506032b656e032100', 'hex');

const xPriv = (raw) => createPrivateKey({ key: Buffer.concat([X25519_PKCS8, raw]), format: 'der', type: 'pkcs8' });
const xPub = (raw) => createPublicKey({ key: Buffer.concat([X25519_SPKI, raw]), format: 'der', type: 'spki' });
export const x25519Public = (priv) => Buffer.from(createPublicKey(xPriv(priv)).export({ format: 'der', type: 'spki' }).subarray(-32));
const x25519 = (priv, pub) => diffieHellman({ privateKey: xPriv(priv), publicKey: xPub(pub) });

function keys(ikm, salt, info) {
  const k = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from(info), 64));
  return { enc: k.subarray(0, 32), mac: k.subarray(32) };
}
function stream(kEnc, nonce, data) {
  const out = Buffer.alloc(data.length);
  for (let i = 0, off = 0; off < data.length; i++, off += 32) {
    const ctr = Buffer.alloc(4);
    ctr.writeUInt32BE(i);
    const block = createHmac('sha256', kEnc).update(nonce).update(ctr).digest();
    for (let j = 0; j < 32 && off + j < data.length; j++) out[off + j] = data[off + j] ^ block[j];
  }
  return out;
}
const mac = (kMac, nonce, ct) => createHmac('sha256', kMac).update(TAG).update(nonce).update(ct).digest();

function seal(k, plain, nonce) {
  const ct = stream(k.enc, nonce, plain);
  return Buffer.concat([nonce, ct, mac(k.mac, nonce, ct)]);
}
function open(k, sealed) {
  if (sealed.length < 48) throw new Error('cx-e2e: too short');
  const nonce = sealed.subarray(0, 16);
  const ct = sealed.subarray(16, sealed.length - 32);
  const tag = sealed.subarray(sealed.length - 32);
  if (!timingSafeEqual(tag, mac(k.mac, nonce, ct))) throw new Error('cx-e2e: authentication failed');
  return stream(k.enc, nonce, ct);
}

/** Seals a drop body with K (32 bytes); `nonce` only for test vectors. */
export function dropSeal(K, plain, nonce = randomBytes(16)) {
  return 'cxe1d.' + seal(keys(K, Buffer.alloc(0), 'cx-e2e-v1 drop'), Buffer.from(plain, 'utf8'), nonce).toString('base64url');
}
export function dropOpen(K, text) {
  if (!text.startsWith('cxe1d.')) throw new Error('cx-e2e: not a sealed drop');
  return open(keys(K, Buffer.alloc(0), 'cx-e2e-v1 drop'), Buffer.from(text.trim().slice(6), 'base64url')).toString('utf8');
}
/** Seals to a recipient's X25519 public key; `eph` and `nonce` only for test vectors. */
export function box(recipient, plain, eph = randomBytes(32), nonce = randomBytes(16)) {
  const E = x25519Public(eph);
  const k = keys(x25519(eph, recipient), Buffer.concat([E, recipient]), 'cx-e2e-v1 box');
  return 'cxe1b.' + Buffer.concat([E, seal(k, Buffer.from(plain, 'utf8'), nonce)]).toString('base64url');
}
export function unbox(priv, text) {
  if (!text.startsWith('cxe1b.')) throw new Error('cx-e2e: not a sealed box');
  const raw = Buffer.from(text.trim().slice(6), 'base64url');
  const E = raw.subarray(0, 32);
  const R = x25519Public(priv);
  const k = keys(x25519(priv, E), Buffer.concat([E, R]), 'cx-e2e-v1 box');
  return open(k, raw.subarray(32)).toString('utf8');
}

async function main([cmd, arg]) {
  const chunks = [];
  const input = async () => {
    for await (const c of process.stdin) chunks.push(c);
    return Buffer.concat(chunks).toString('utf8');
  };
  try {
    if (cmd === 'keygen') {
      const priv = randomBytes(32);
      process.stdout.write(`priv=${priv.toString('hex')}\npub=${x25519Public(priv).toString('hex')}\n`);
    } else if (cmd === 'box' && arg) process.stdout.write(box(Buffer.from(arg, 'hex'), await input()) + '\n');
    else if (cmd === 'unbox' && arg) process.stdout.write(unbox(Buffer.from(arg, 'hex'), await input()));
    else if (cmd === 'drop-seal') {
      const K = randomBytes(32);
      process.stdout.write(`k=${K.toString('base64url')}\n${dropSeal(K, await input())}\n`);
    } else if (cmd === 'drop-open' && arg) process.stdout.write(dropOpen(Buffer.from(arg.replace(/^#?k=/, ''), 'base64url'), await input()));
    else {
      process.stderr.write('usage: node e2e.mjs keygen | box <pub hex> | unbox <priv hex> | drop-seal | drop-open <k>\n');
      process.exit(1);
    }
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(3);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main(process.argv.slice(2));
