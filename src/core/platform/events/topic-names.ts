// Topic names and who may read and publish them (docs/decisions.md "Swarm topics"): the rules of
// the ps:<topic> contract (topics.ts) that every writer of lines keeps (swarm ops, inbound webhooks),
// so they live in the platform; src/core/swarm/topics.ts re-exports them.
//   g:<n>          global: anyone reads; publishing needs trust level swarm.g_level; g:sys is the
//                  operator's announcement topic (lines come only from publishLine by 'sys').
//   ~<n>           the caller's own, short for ~<id>.<n> (the canonical name): only its owner
//                  reads, follows, subscribes and publishes.
//   s:<slug>.<n>   a space's: its members only (the space must exist).
//   r:<room>.<n>   a room: the room name (16-64 chars) is the key; anyone holding it reads, and
//                  any identity holding it publishes.
// <n>: a-z 0-9 _ -, starting with a letter or digit, at most swarm.name chars (no dots, so
// ~<id>.<n> and s:<slug>.<n> split unambiguously). Rights live in the ops; publishLine trusts its caller.
import { CxError, notFound } from '../../kernel/errors.js';
import type { Identity } from '../identity/ports.js';
import { levelOf } from '../identity/levels.js';
import { limit, nameRule } from '../../kernel/limits.js';
import type { Core } from '../../kernel/types.js';
import { SLUG_RE } from '../slug.js';
import { hint } from '../../kernel/hints.js';

export type TopicForm = 'g' | '~' | 's' | 'r';

export interface Topic {
  /** Canonical name (what lines, feeds and subscriptions carry). */
  name: string;
  form: TopicForm;
  /** g: empty; ~: the owner id; s: the slug; r: the room name. */
  scope: string;
  n: string;
}

const N = `[a-z0-9][a-z0-9_-]{0,${limit('swarm.name') - 1}}`;
const ROOM = `[A-Za-z0-9_-]{${limit('swarm.room_min')},${limit('swarm.room_max')}}`;
const G_RE = new RegExp(`^g:(${N})$`);
const OWN_RE = new RegExp(`^~(${N})$`);
const OWN_ID_RE = new RegExp(`^~(a[0-9a-z]{6})\\.(${N})$`);
const S_RE = new RegExp(`^s:([a-z0-9-]+)\\.(${N})$`);
const R_RE = new RegExp(`^r:(${ROOM})\\.(${N})$`);

/** The naming rule, as /help and /limits publish it (NAME_RULES in src/core/kernel/limits.ts). */
export const TOPIC_RULES = nameRule('topic');
/** A topic field's description: short, as the tools/list token budget (test/mcp/toolsets.test.ts)
 *  asks, with the room's length so MCP clients see it before the error does; every tool taking a
 *  topic uses it, so a tool list describes the field once. */
export const TOPIC_FIELD = `g:<n> ~<n> s:<slug>.<n> r:<room, ${limit('swarm.room_min')}+ chars>.<n>`;

/** Parses a topic name; `~<n>` needs the caller (`me`). Throws `400 err bad topic: …`. */
export function parseTopic(raw: string, me: string | null): Topic {
  let m: RegExpExecArray | null;
  if ((m = G_RE.exec(raw))) return { name: raw, form: 'g', scope: '', n: m[1]! };
  if ((m = OWN_ID_RE.exec(raw))) return { name: raw, form: '~', scope: m[1]!, n: m[2]! };
  if ((m = OWN_RE.exec(raw))) {
    if (!me) throw new CxError('auth', "~<n> topics are the caller's own: send your token (or name it ~<id>.<n>)", 401);
    return { name: `~${me}.${m[1]!}`, form: '~', scope: me, n: m[1]! };
  }
  if ((m = S_RE.exec(raw)) && SLUG_RE.test(m[1]!)) return { name: raw, form: 's', scope: m[1]!, n: m[2]! };
  if ((m = R_RE.exec(raw))) return { name: raw, form: 'r', scope: m[1]!, n: m[2]! };
  throw new CxError('bad', `topic: want ${TOPIC_RULES}`);
}

export const SYS_TOPIC = 'g:sys';

async function spaceMember(core: Core, t: Topic, who: Identity | null): Promise<void> {
  if (!(await core.store.spaces.bySlug(t.scope))) throw notFound(`no space ${t.scope}`);
  if (!who) throw new CxError('auth', `s: topics are for members of ${t.scope}: send your token`, 401);
  if (!(await core.store.spaces.isMember(t.scope, who.id)))
    throw new CxError('auth', [`s: topics are for members of ${t.scope} (`, hint('space.join', { slug: t.scope }), ')'], 403);
}

/** Reading, following or subscribing. A foreign ~ topic reads as unknown (404), like any private row. */
export async function mayRead(core: Core, t: Topic, who: Identity | null): Promise<void> {
  if (t.form === 'g' || t.form === 'r') return;
  if (t.form === '~') {
    if (who?.id !== t.scope) throw notFound();
    return;
  }
  await spaceMember(core, t, who);
}

/** Publishing (an identity: ops need a token). */
export async function mayPublish(core: Core, t: Topic, who: Identity): Promise<void> {
  if (t.form === 'g') {
    if (t.name === SYS_TOPIC) throw new CxError('auth', "g:sys is the operator's announcement topic: read-only", 403);
    const need = limit('swarm.g_level');
    if (levelOf(who, core.now()) < need)
      throw new CxError('auth', `g: topics need trust level L${need} to publish (see /limits); use ~, s: or r: topics meanwhile`, 403);
    return;
  }
  await mayRead(core, t, who);
}
