// Background purge of expired drops: reads already refuse them; this removes their ciphertext.
import { limit } from '../limits.js';
import type { Core } from '../ops/types.js';

/** Starts the sweep (once now, then every `everyMs`); returns the function that stops it. */
export function startDropSweep(core: Core, everyMs = limit('drop.sweep') * 1000): () => void {
  const sweep = () =>
    core.store.drops.purgeExpired(core.now()).then(
      (n) => {
        if (n) core.log.info({ n }, 'expired drops purged');
      },
      (err: unknown) => core.log.error({ err }, 'drop sweep failed'),
    );
  void sweep();
  const t = setInterval(sweep, everyMs);
  t.unref();
  return () => clearInterval(t);
}
