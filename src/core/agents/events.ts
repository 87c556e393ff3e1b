// Hand-off from the inbox operations to the A2A face: an answer completes the sender's task.
// The face registers one listener per core; the core never imports the face.
import type { Core } from '../kernel/types.js';

export interface InboundSettled {
  task: string;
  agent: string;
  sender: string;
  state: 'completed' | 'rejected';
  text: string;
}

type Listener = (e: InboundSettled) => Promise<void>;
const listeners = new WeakMap<Core, Listener>();

export function onInboundSettled(core: Core, fn: Listener): void {
  listeners.set(core, fn);
}

/** False when no face listens (the row stays unsynced and is repaired when one starts). */
export async function inboundSettled(core: Core, e: InboundSettled): Promise<boolean> {
  const fn = listeners.get(core);
  if (!fn) return false;
  await fn(e);
  return true;
}
