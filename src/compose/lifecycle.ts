// The start/stop loop of the module list: every module's start-up work in list order, then each
// module's subscriptions (Module.subscribes) and background work; at close, newest first, each
// module stops listening, then its background work stops.
import type { Module, Stop } from '../core/kernel/module.js';
import type { Core } from '../core/kernel/types.js';
import { MODULES } from './modules.js';

export async function initModules(core: Core, modules: readonly Module[] = MODULES): Promise<void> {
  for (const m of modules) await m.init?.(core);
}

/** Starts every module; the stop it returns stops them in reverse list order. */
export function startModules(core: Core, modules: readonly Module[] = MODULES): Stop {
  const stops: Stop[] = [];
  for (const m of modules) {
    // Listening starts before the module's start, whose first sweep reconciles what came before.
    const offs = (m.subscribes ?? []).map((s) =>
      core.store.events.on(s.topics, (e) => {
        s.on(core, e).catch((err: unknown) => core.log.warn({ err, topic: e.topic, seq: e.id }, `${m.name}: ${s.failed}`));
      }),
    );
    const stop = m.start?.(core);
    if (offs.length || stop)
      stops.push(async () => {
        for (const off of offs) off();
        await stop?.();
      });
  }
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
