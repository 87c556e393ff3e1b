// Independent verifiers of server signatures: openssl (pkeyutl -rawin) and @noble/ed25519, both fed
// the canonical bytes of /signing built by hand here (not by the server's code).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ed from '@noble/ed25519';

/** "cx-sig-v1" 0x00 type 0x00 payload, written out independently of src/core/platform/trust/sign.ts. */
export function canonical(type: string, payload: string | Uint8Array): Buffer {
  return Buffer.concat([
    Buffer.from('cx-sig-v1\u0000' + type + '\u0000', 'latin1'),
    typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.from(payload),
  ]);
}

export function opensslVerify(pubHex: string, msg: Buffer, sig: Buffer): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'cx-ossl-'));
  try {
    const der = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(pubHex, 'hex')]);
    const pem = `-----BEGIN PUBLIC KEY-----\n${der.toString('base64')}\n-----END PUBLIC KEY-----\n`;
    writeFileSync(join(dir, 'pub.pem'), pem);
    writeFileSync(join(dir, 'msg'), msg);
    writeFileSync(join(dir, 'sig'), sig);
    try {
      const out = execFileSync(
        'openssl',
        ['pkeyutl', '-verify', '-pubin', '-inkey', join(dir, 'pub.pem'), '-rawin', '-in', join(dir, 'msg'), '-sigfile', join(dir, 'sig')],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      return /Signature Verified Successfully/.test(out.toString());
    } catch {
      return false;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function nobleVerify(pubHex: string, msg: Buffer, sig: Buffer): Promise<boolean> {
  return ed.verifyAsync(new Uint8Array(sig), new Uint8Array(msg), new Uint8Array(Buffer.from(pubHex, 'hex'))).catch(() => false);
}

/** Both verifiers, for brevity in tests: [openssl, noble]. */
export async function bothVerify(pubHex: string, type: string, payload: string | Uint8Array, sig: Buffer): Promise<[boolean, boolean]> {
  const msg = canonical(type, payload);
  return [opensslVerify(pubHex, msg, sig), await nobleVerify(pubHex, msg, sig)];
}
