// The A2A face's raw routes (src/http/raw.ts): the JSON-RPC endpoints and the agent cards. Skills
// run through invoke, so each operation's own guards (shedding, freezes, quotas) apply.
import type { Core } from '../core/kernel/types.js';
import { type RawHandler, type RawRoute, rawGroup } from '../http/raw.js';

export interface A2aRawEnv<K extends string> {
  core: Core;
  handlers: Record<K, RawHandler>;
}

const route = (method: 'GET' | 'POST', path: string, purpose: string): RawRoute => ({ method, path, purpose, shed: 'core' });

export const a2aRpcRoutes = rawGroup(
  'a2a',
  'src/a2a/routes.ts',
  {
    commons: route('POST', '/a2a', 'A2A JSON-RPC of the commons'),
    // Some clients join the card's url and a path with a slash.
    commonsSlash: route('POST', '/a2a/', 'the same, with a trailing slash'),
    hosted: route('POST', '/a2a/:id', 'A2A JSON-RPC of a hosted agent'),
  },
  (env: A2aRawEnv<'commons' | 'commonsSlash' | 'hosted'>) => env.handlers,
);

export const a2aCardRoutes = rawGroup(
  'a2a',
  'src/a2a/routes.ts',
  {
    agent: route('GET', '/.well-known/agent.json', 'the agent card of the commons'),
    agentCard: route('GET', '/.well-known/agent-card.json', 'the same card (A2A 0.3 name)'),
    hostedCard: route('GET', '/a/:id/agent.json', 'the agent card of a hosted agent'),
  },
  (env: A2aRawEnv<'agent' | 'agentCard' | 'hostedCard'>) => env.handlers,
);
