// Turns credentials into a caller and checks an operation's auth class.
import type { OperatorClass } from '../../../config.js';
import { CxError } from '../../kernel/errors.js';
import type { Hint, Step } from '../../kernel/hints.js';
import type { AuthClass, Caller, Core, Credentials } from '../../kernel/types.js';
import { hashToken, sameSecret, URL_PREFIX, USER_PREFIX } from './tokens.js';

const OPERATOR: OperatorClass[] = ['admin', 'ops', 'poll', 'check'];

export const anonCaller = (): Caller => ({ identity: null, tokenClass: null, operator: null, powPaid: false });

/** Challenge header for 401s: both schemes, with a fresh stateless PoW challenge. */
export function wwwAuthenticate(core: Core, purpose: 'reg' | 'w'): string {
  const c = core.pow.issue(purpose);
  const base = core.config.baseUrl;
  return `Bearer realm="commons", PoW realm="commons" challenge="${c.challenge}" bits="${c.bits}" for="${c.for}" register="${base}/v1/register"`;
}

/** How to get a token, as steps each face words (REST: `POST /v1/challenge?for=reg, solve it, POST /v1/register`). */
export const CHALLENGE_REG: Hint = { op: 'id.challenge', input: { for: 'reg' }, query: ['for'] };
export const REGISTER_STEPS: readonly Step[] = [CHALLENGE_REG, ', solve it, ', { op: 'id.register' }];

export function authError(core: Core, detail: string | readonly Step[], purpose: 'reg' | 'w' = 'reg'): CxError {
  return new CxError('auth', detail, 401, { 'WWW-Authenticate': wwwAuthenticate(core, purpose) });
}

export async function resolveCaller(core: Core, creds: Credentials): Promise<Caller> {
  const caller = anonCaller();
  if (creds.urlToken !== undefined) {
    const id = creds.urlToken.startsWith(URL_PREFIX) ? await core.store.identities.byToken(hashToken(creds.urlToken), 'url') : null;
    if (!id) throw authError(core, 'unknown url token');
    return { ...caller, identity: id, tokenClass: 'url' };
  }
  const b = creds.bearer;
  if (b === undefined || b === '') return caller;
  if (b.startsWith(USER_PREFIX)) {
    const id = await core.store.identities.byToken(hashToken(b), 'user');
    if (!id) throw authError(core, 'unknown token');
    return { ...caller, identity: id, tokenClass: 'user' };
  }
  for (const cls of OPERATOR) if (sameSecret(b, core.config.operatorTokens[cls])) return { ...caller, operator: cls };
  throw authError(core, 'unknown token');
}

/** Callers already resolved for one request's credentials (see `resolvedOnce`). */
const resolved = new WeakMap<Credentials, Caller>();

/**
 * Credentials of ONE request whose caller a face has already resolved (the MCP transport checks a
 * token before it serves a call): a fresh object the guard pipeline then takes the caller from,
 * instead of looking the token up a second time. Never for credentials that outlive a request (a
 * session's): a token revoked or an identity frozen meanwhile must be seen by the next call.
 */
export function resolvedOnce(creds: Credentials, caller: Caller): Credentials {
  const once = { ...creds };
  resolved.set(once, caller);
  return once;
}

/** The caller of `creds`: the one resolved for this request already, else looked up. */
export const callerOf = (core: Core, creds: Credentials): Promise<Caller> | Caller => resolved.get(creds) ?? resolveCaller(core, creds);

/** Admin satisfies every operator class; the others only their own. */
export async function authorize(core: Core, auth: AuthClass, caller: Caller, creds: Credentials): Promise<void> {
  switch (auth) {
    case 'anon':
      return;
    case 'token':
      if (!caller.identity) throw authError(core, ['token required: ', ...REGISTER_STEPS]);
      if (caller.identity.frozen) throw new CxError('auth', 'identity frozen', 403);
      return;
    case 'pow':
      if (caller.identity) {
        if (caller.identity.frozen) throw new CxError('auth', 'identity frozen', 403);
        return;
      }
      if (!creds.pow) throw authError(core, ['token or X-PoW proof required: ', { op: 'id.challenge', input: { for: 'w' }, query: ['for'] }], 'w');
      await core.pow.redeem(creds.pow, 'w');
      caller.powPaid = true;
      return;
    default:
      if (caller.operator === auth || caller.operator === 'admin') return;
      throw new CxError('auth', auth === 'admin' ? 'admin' : `admin: ${auth} token required`, 401);
  }
}
