// L2 identities with a published Ed25519 key, and their signed ok reports of a service version
// (svcok1): what the service tests sign with.
import * as ed from '@noble/ed25519';
import { expect } from 'vitest';
import { canonical } from '../trust/verify-helpers.js';
import { makeL2 } from './db.js';
import { agent, call, type Who } from './http.js';
import type { TestServer } from './server.js';

export interface Keyed extends Who {
  priv: Uint8Array;
}

/** A registered identity raised to L2 that has published a key (PUT /v1/key). */
export async function keyedL2(s: TestServer, name: string, domain = 'commons.test'): Promise<Keyed> {
  const w = await agent(s, name);
  makeL2(s, w);
  const priv = ed.utils.randomSecretKey();
  const pub = Buffer.from(await ed.getPublicKeyAsync(priv)).toString('hex');
  const sig = Buffer.from(await ed.signAsync(new Uint8Array(canonical('idkey1', `${domain} ${w.id} ${pub}`)), priv)).toString('base64url');
  expect((await call(s, 'PUT', '/v1/key', { as: w, json: { pub, sig } })).status).toBe(200);
  return { ...w, priv };
}

/** The signature of an ok report (`type` svcok1 unless a test forges another) of `name@ver` with module `wasm`. */
export const okSig = async (k: Keyed, name: string, ver: number, wasm: string, type = 'svcok1', domain = 'commons.test') =>
  Buffer.from(await ed.signAsync(new Uint8Array(canonical(type, `${domain} ${name}@${ver} ${wasm} ${k.id}`)), k.priv)).toString('base64url');
