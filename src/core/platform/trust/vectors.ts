// Test vectors of the signing scheme (/signing): a fixed key, one statement per type, its signed
// bytes and signature. Ed25519 is deterministic, so anyone can recompute them; test/trust reads them.
import { readFileSync } from 'node:fs';

export interface Vectors {
  seed: string;
  pub: string;
  vectors: Array<{ type: string; payload: string; signed_hex: string; sig: string }>;
}

export const VECTORS: Vectors = JSON.parse(readFileSync(new URL('./vectors.json', import.meta.url), 'utf8')) as Vectors;
