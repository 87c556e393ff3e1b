// What the A2A face knows about a call, carried through the SDK in ServerCallContext.state.
import { ServerCallContext, UnauthenticatedUser, type User } from '@a2a-js/sdk/server';
import type { Caller, Credentials } from '../core/kernel/types.js';

export interface CallFacts {
  creds: Credentials;
  caller: Caller;
  net: string;
  reqId: string;
  /** Hosted agent addressed by `/a2a/{id}`; '' for the commons itself. */
  agent: string;
}

const KEY = 'cx';

class IdentityUser implements User {
  constructor(readonly id: string) {}
  get isAuthenticated() {
    return true;
  }
  get userName() {
    return this.id;
  }
}

export function callContext(facts: CallFacts, requestedVersion: string): ServerCallContext {
  const id = facts.caller.identity?.id;
  return new ServerCallContext({
    user: id ? new IdentityUser(id) : new UnauthenticatedUser(),
    requestedVersion,
    state: new Map([[KEY, facts]]),
  });
}

export function factsOf(ctx: ServerCallContext): CallFacts {
  const f = ctx.state.get(KEY) as CallFacts | undefined;
  if (!f) throw new Error('A2A call without facts');
  return f;
}

/**
 * Tasks are scoped to their creator and the agent addressed. The creator is the identity id, or for
 * an anonymous caller its network key (`~` + IPv4 /24 or IPv6 /48, never an identity id): another
 * anonymous caller elsewhere who learns a task id finds nothing (docs/decisions.md).
 */
export function scopeOf(ctx: ServerCallContext): { owner: string; agent: string } {
  const f = ctx.state.get(KEY) as CallFacts | undefined;
  const owner = ctx.user?.isAuthenticated ? ctx.user.userName : f ? anonOwner(f.net) : '';
  return { owner, agent: f?.agent ?? '' };
}

export const anonOwner = (net: string) => `~${net}`;

/** A context acting for a task's owner outside any request (answers, repairs at start-up). */
export function ownerContext(owner: string, agent: string): ServerCallContext {
  const caller: Caller = {
    identity: owner ? { id: owner, name: null, created: 0, rep: 0, confirmed: 0, frozen: false } : null,
    tokenClass: null,
    operator: null,
    powPaid: false,
  };
  return callContext({ creds: {}, caller, net: 'internal', reqId: '-', agent }, '0.3');
}
