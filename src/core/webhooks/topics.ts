// Which topics an endpoint may publish on, checked when it is created (its owner's rights then).
// Conservative on purpose, until the swarm domain's name rules are the one check (the lead unifies
// them): `g:<n>` (global; L1 and up; never g:sys, the operator's), `~<n>` (the owner's own, kept as
// `~<owner>.<n>`), `s:<slug>.<n>` (members of the space only), `r:<room>.<n>` (a room: its name, at
// least 8 characters, is what grants access). <n>: 1-48 of a-z 0-9 _ -, starting with a letter or digit.
import { CxError } from '../errors.js';
import { levelOf } from '../identity/levels.js';
import type { Identity } from '../identity/ports.js';
import type { Core } from '../ops/types.js';

const N = '[a-z0-9][a-z0-9_-]{0,47}';
const FORMS: ReadonlyArray<[RegExp, 'g' | '~' | 's' | 'r']> = [
  [new RegExp(`^g:(${N})$`), 'g'],
  [new RegExp(`^~(${N})$`), '~'],
  [new RegExp(`^s:([a-z0-9][a-z0-9-]{1,31})\\.(${N})$`), 's'],
  [new RegExp(`^r:([A-Za-z0-9_-]{8,64})\\.(${N})$`), 'r'],
];

export const TOPIC_FORMS = 'g:<n>, ~<n>, s:<slug>.<n> or r:<room>.<n>';
const TOPIC_HELP = `${TOPIC_FORMS}; <n> is 1-48 of a-z 0-9 _ -`;

/** The canonical topic the endpoint publishes on, or `err bad` / `err auth` when the owner may not. */
export async function topicFor(core: Core, owner: Identity, topic: string): Promise<string> {
  for (const [re, form] of FORMS) {
    const m = re.exec(topic);
    if (!m) continue;
    switch (form) {
      case 'g':
        if (m[1] === 'sys') throw new CxError('auth', 'g:sys is the operator\'s topic', 403);
        if (levelOf(owner, core.now()) < 1) throw new CxError('auth', 'g: topics need trust level L1 (see /limits)', 403);
        return topic;
      case '~':
        return `~${owner.id}.${m[1]}`;
      case 's':
        if (!(await core.store.spaces.isMember(m[1]!, owner.id))) throw new CxError('auth', `s: topics are for members of space ${m[1]}`, 403);
        return topic;
      case 'r':
        return topic;
    }
  }
  throw new CxError('bad', `topic: want ${TOPIC_HELP}`);
}
