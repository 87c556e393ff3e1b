// Identity operations: PoW challenge, registration, whoami, url-class tokens.
import { iso } from '../../kernel/text.js';
import { z } from 'zod';
import { CxError } from '../../kernel/errors.js';
import { limit } from '../../kernel/limits.js';
import { defineOp } from '../../kernel/types.js';
import type { AnyOperation } from '../../kernel/types.js';
import { levelOf } from './levels.js';
import { hashToken, newId, newToken, URL_PREFIX, USER_PREFIX } from './tokens.js';
import { grantStart } from '../ledger/ledger.js';
import { hint, next } from '../../kernel/hints.js';

export const challengeOp = defineOp({
  name: 'id.challenge',
  title: 'Get a proof-of-work challenge',
  summary:
    'Issue a sealed PoW challenge for registration (for=reg) or an anonymous write (for=w); its bits are the live difficulty for your network (they rise with the registration rate, /limits).',
  input: z.object({ for: z.enum(['reg', 'w']).default('reg').describe('reg: registration; w: anonymous write') }).strict(),
  output: z.object({ challenge: z.string(), bits: z.number().int(), exp: z.string(), for: z.enum(['reg', 'w']) }),
  auth: 'anon',
  readOnly: false,
  idempotent: false,
  quota: ['challenge'],
  rest: { method: 'POST', path: '/v1/challenge' },
  async run(ctx, input) {
    return ctx.core.pow.challenge(input.for, ctx.net);
  },
  text: (c, ctx) =>
    `challenge ${c.challenge} bits=${c.bits} exp=${c.exp} for=${c.for}\n` +
    next(
      ctx,
      `find a nonce so that sha256("${c.challenge}:<nonce>") has ${c.bits} leading zero bits, then `,
      c.for === 'reg'
        ? hint('id.register', { pow: '<challenge>:<nonce>' })
        : ctx.face === 'rest'
          ? 'send X-PoW: <challenge>:<nonce> with the write'
          : 'give pow "<challenge>:<nonce>" with the write',
    ),
});

export const registerOp = defineOp({
  name: 'id.register',
  title: 'Register an identity',
  summary: 'Spend a solved for=reg PoW proof to create an identity and get its bearer token (shown once).',
  input: z
    .object({
      pow: z.string().min(1).max(200).describe('<challenge>:<nonce> from POST /v1/challenge?for=reg'),
      name: z
        .string()
        .min(1)
        .max(limit('name.max'))
        .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, _ . - only')
        .optional(),
    })
    .strict(),
  output: z.object({ id: z.string(), token: z.string(), lvl: z.string(), name: z.string().nullable() }),
  auth: 'anon',
  readOnly: false,
  idempotent: false,
  quota: ['reg'],
  scrub: ['name'],
  freeze: 'reg',
  rest: { method: 'POST', path: '/v1/register', status: 201, headerInputs: { 'x-pow': 'pow' } },
  async run(ctx, input) {
    const { core } = ctx;
    await core.registrationPolicy(ctx); // the operator's policy for the caller's ASN, before the proof is spent
    await core.pow.redeem(input.pow, 'reg');
    const token = newToken(USER_PREFIX, core.random);
    for (let attempt = 0; ; attempt++) {
      const id = newId('a', core.random);
      if (await core.store.identities.byId(id)) {
        if (attempt > 5) throw new CxError('busy', 'id space contention, retry', 503);
        continue;
      }
      await core.store.identities.create({ id, name: input.name ?? null, created: core.now(), rep: 0, confirmed: 0, frozen: false }, hashToken(token));
      await grantStart(core, id); // starting credits (limit credits.start), from the mint
      // Raises the difficulty under a flood (pow-rate.ts). The identity exists already: a count that
      // could not be written must not cost the caller the token shown once.
      await core.pow.noteRegistration(ctx.net).catch((err: unknown) => core.log.warn({ err }, 'registration not counted for the PoW rate'));
      core.log.info({ id, net: ctx.net }, 'registered');
      return { id, token, lvl: 'L0', name: input.name ?? null };
    }
  },
  text: (r, ctx) =>
    `ok ${r.id} token=${r.token} lvl=${r.lvl}\n${next(ctx, `keep the token; send Authorization: Bearer ${r.token} on writes; `, hint('id.me'))}`,
});

export const meOp = defineOp({
  name: 'id.me',
  title: 'Who am I',
  summary: 'Show the calling identity: id, level, reputation, age.',
  input: z.object({}).strict(),
  output: z.object({
    id: z.string(),
    name: z.string().nullable(),
    lvl: z.string(),
    rep: z.number(),
    confirmed: z.number(),
    since: z.string(),
    token_class: z.string(),
  }),
  auth: 'token',
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/v1/me' },
  async run(ctx) {
    const i = ctx.caller.identity!;
    return {
      id: i.id,
      name: i.name,
      lvl: `L${levelOf(i, ctx.core.now())}`,
      rep: i.rep,
      confirmed: i.confirmed,
      since: iso(i.created),
      token_class: ctx.caller.tokenClass ?? 'user',
    };
  },
  text: (m, ctx) =>
    `me ${m.id}${m.name ? ` name=${m.name}` : ''} lvl=${m.lvl} rep=${m.rep} confirmed=${m.confirmed} since=${m.since} token=${m.token_class}\n${next(ctx, hint('sys.limits', undefined, 'for your quotas'))}`,
});

export const urlTokenOp = defineOp({
  name: 'id.url_token',
  title: 'Issue a url-class token',
  summary: 'Issue a url-class token for clients that cannot set headers (POST /mcp/t/{token}).',
  input: z.object({}).strict(),
  output: z.object({ token: z.string(), mcp: z.string() }),
  auth: 'token',
  readOnly: false,
  freeze: 'write',
  idempotent: false,
  quota: ['write'],
  rest: { method: 'POST', path: '/v1/token/url', status: 201 },
  async run(ctx) {
    if (ctx.caller.tokenClass !== 'user') throw new CxError('auth', 'a user token is needed to issue url tokens', 403);
    const token = newToken(URL_PREFIX, ctx.core.random);
    await ctx.core.store.identities.addToken(ctx.caller.identity!.id, hashToken(token), 'url', ctx.core.now());
    return { token, mcp: `${ctx.core.config.baseUrl}/mcp/t/${token}` };
  },
  text: (r) => `ok url-token ${r.token} mcp=${r.mcp}\nnext: treat the url as a secret; it grants your identity's writes`,
});

export const identityOps: AnyOperation[] = [challengeOp, registerOp, meOp, urlTokenOp];
