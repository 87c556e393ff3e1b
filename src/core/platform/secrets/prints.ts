// Fingerprints of the secrets every replica must share, recorded in the store (KeyPrintRepo) at the
// first start and compared at every start: a replica given other keys (its own data directory, a
// stale secrets file) refuses to start with one line naming the key, instead of answering 400 to
// another replica's proofs or 404 to its drops. A fingerprint is a truncated SHA-256 under a label:
// it tells keys apart, never gives one away. The signing ring prints as its current kid and key, so
// a rotation (npm run key:rotate, POST /admin/key/rotate) records the new print.
import type { Config } from '../../../config.js';
import { keepRing } from '../trust/keys.js';
import { printOf, ringPrint } from './fingerprint.js';
import type { KeyPrintRepo } from './ports.js';

export const PRINTED = ['seal', 'drops', 'workspace', 'signing', 'operator-tokens'] as const;
export type Printed = (typeof PRINTED)[number];

/** The prints of this process's secrets (the signing ring is made here when it does not exist yet). */
export function printsOf(config: Config): Record<Printed, string> {
  const t = config.operatorTokens;
  return {
    seal: printOf(config.sealKey.toString('hex')),
    drops: printOf(config.dropKey.toString('hex')),
    workspace: printOf(config.workspaceKey.toString('hex')),
    signing: ringPrint(keepRing(config.keys)),
    // The effective tokens (CX_<CLASS>_TOKEN over the kept ones): an operator token must work on every replica.
    'operator-tokens': printOf(JSON.stringify([t.admin, t.ops, t.poll, t.check])),
  };
}

const HOW: Record<Printed, string> = {
  seal: 'CX_SECRET_SEAL',
  drops: 'CX_SECRET_DROPS',
  workspace: 'CX_SECRET_WORKSPACE',
  signing: 'CX_SECRET_SIGNING',
  'operator-tokens': 'CX_SECRET_OPERATOR_TOKENS or CX_<CLASS>_TOKEN',
};

/**
 * Records the prints on a store that has none and checks them against what is recorded. Throws one
 * line naming the first key that differs and what to do.
 */
export async function checkKeyPrints(repo: KeyPrintRepo, config: Config, now: number): Promise<void> {
  const mine = printsOf(config);
  const kept = await repo.keep(mine, now);
  for (const name of PRINTED) {
    const k = kept[name];
    if (k === undefined || k === mine[name]) continue;
    const what =
      name === 'signing'
        ? `signing key ring ${mine[name].split(':')[0]} (fingerprint ${mine[name]}) is not the one recorded in the database (${k})`
        : `key ${name} (fingerprint ${mine[name]}) differs from the one recorded in the database (${k})`;
    throw new Error(
      `${what}: start this replica with the same secrets as the others (${config.databaseUrl ? 'CX_SECRETS_FILE or ' : ''}${HOW[name]}, or the data directory they were made in${name === 'signing' ? ', after the last npm run key:rotate' : ''}); to make this process's keys the recorded ones instead (what the old ones sealed becomes unreadable), run npm run key:rotate -- --record`,
    );
  }
}
