// Faces are fastify plugins of the shared host. They are registered without encapsulation (what
// fastify-plugin does with this symbol) so their hooks (close, ready) and routes live on the host.
import type { FastifyInstance } from 'fastify';

export type Face<T> = ((app: FastifyInstance, opts: T) => Promise<void>) & { [k: symbol]: unknown };

export function face<T>(name: string, fn: (app: FastifyInstance, opts: T) => Promise<void>): Face<T> {
  const f = fn as Face<T>;
  f[Symbol.for('skip-override')] = true;
  f[Symbol.for('fastify.display-name')] = name;
  return f;
}
