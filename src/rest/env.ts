// What the REST face's raw route handlers are bound with (src/http/raw.ts).
import type { AnyOperation, Core } from '../core/kernel/types.js';

export interface RestEnv {
  core: Core;
  ops: readonly AnyOperation[];
}
