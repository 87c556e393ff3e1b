// A secret's fingerprint: 16 hex characters (64 bits) of SHA-256 over a label and the secret. It
// tells keys apart (src/core/platform/secrets/prints.ts), never gives one away.
import { createHash } from 'node:crypto';

export const printOf = (value: string): string => createHash('sha256').update('cx-key-print\0').update(value).digest('hex').slice(0, 16);

/** The signing ring prints as its current kid and key: a rotation makes a new print. */
export const ringPrint = (ring: { kid: number; seed: string }): string => `kid${ring.kid}:${printOf(ring.seed)}`;
