// A module: one domain (or platform service) as the composition root sees it. Adding a domain is its
// own folder with a module.ts, and one line in src/compose/modules.ts.
import type { AnyOperation, Core } from './types.js';

/** Stops what `start` began; awaited at close. */
export type Stop = () => void | Promise<void>;

export interface Module {
  /** The folder's name, for logs and the architecture document. */
  name: string;
  /** Its operations, in the order the faces list them. */
  ops: readonly AnyOperation[];
  /** Start-up work before the listener opens (re-signing, sample data); modules run it in list order. */
  init?(core: Core): Promise<void>;
  /** Background work (sweeps, job workers, deliveries), started after every init, stopped at close in reverse list order. */
  start?(core: Core): Stop;
}
