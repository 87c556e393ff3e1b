// Which topic an endpoint publishes on, checked when it is created with its owner's rights then:
// the topic rules (src/core/platform/events/topic-names.ts), one check for lines from agents and from
// webhooks alike. `~<n>` is stored as the owner's `~<id>.<n>`.
import type { Identity } from '../platform/identity/ports.js';
import type { Core } from '../kernel/types.js';
import { mayPublish, parseTopic, TOPIC_FIELD } from '../platform/events/topic-names.js';

/** The topic field's description: the swarm tools' own, so a tool list describes `topic` once. */
export const TOPIC_FORMS = TOPIC_FIELD;

/** The canonical topic the endpoint publishes on, or `err bad` / `err auth` when the owner may not. */
export async function topicFor(core: Core, owner: Identity, topic: string): Promise<string> {
  const t = parseTopic(topic, owner.id);
  await mayPublish(core, t, owner);
  return t.name;
}
