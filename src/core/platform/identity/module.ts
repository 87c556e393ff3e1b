import { limit } from '../../kernel/limits.js';
import type { Module } from '../../kernel/module.js';
import { startSweep } from '../sweep.js';
import { identityOps } from './ops.js';

export const identityModule: Module = {
  name: 'identity',
  ops: identityOps,
  toolsets: [{ name: 'id', about: 'identity: challenge, register, me, url token (always mounted)' }],
  // Spent proofs past their expiry, registration-count buckets past pow.window.
  start: (core) =>
    startSweep(core, {
      what: 'expired PoW proofs and registration counts purged',
      everyMs: 60_000,
      run: async () => (await core.store.proofs.purgeExpired(core.now())) + (await core.store.powRates.purge(core.now() - limit('pow.window') * 1000)),
    }),
};
