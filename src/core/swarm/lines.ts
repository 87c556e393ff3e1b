// Topic lines: the one way any domain publishes a line on a topic (agents through swarm ops,
// inbound webhooks, operator announcements on g:sys, fn: sink outputs) and reads them back (feeds,
// exports). Lines live on the event bus under `ps:<topic>`, so their seq is the bus id: gapless
// and monotonic per topic. The swarm domain owns this file; its signatures are relied on elsewhere.
import type { Core } from '../ops/types.js';
import { CxError } from '../errors.js';
import { scrubFind } from '../safety/scrub.js';
import { hazardFind } from '../safety/hazards.js';

/** A line as stored: `text` is untrusted data, scrubbed and hazard-checked on the way in. */
export interface LinePayload {
  text: string;
  /** Publisher: an identity id, `sys` (operator), `in:<endpoint id>` (webhook) or `fn:<svc>@<ver>`. */
  by: string;
  /** Hops through fn: sinks (0 for a line published directly). */
  hop: number;
}

export interface Line extends LinePayload {
  topic: string;
  seq: number;
  /** Commit time, epoch ms. */
  time: number;
}

export const busTopic = (topic: string): string => `ps:${topic}`;

/**
 * Publishes one line after checking it like any published field: a secret is `err scrub`, a
 * hazard `err hazard <family>`. Callers that already ran the declared guards pay the check twice,
 * which is cheap next to the write. Rights, quotas and name rules are the caller's (swarm ops).
 */
export async function publishLine(
  core: Core,
  topic: string,
  text: string,
  opts: { by: string; hop?: number },
): Promise<Line> {
  const s = scrubFind(text);
  if (s) throw new CxError('scrub', `line carries a ${s.kind}`, 400);
  const h = hazardFind(text);
  if (h) throw new CxError('hazard', h.family, 400);
  const payload: LinePayload = { text, by: opts.by, hop: opts.hop ?? 0 };
  const e = await core.store.events.publish(busTopic(topic), payload);
  return { topic, seq: e.id, time: e.time, ...payload };
}

/** Lines of a topic after `since` (exclusive), oldest first, at most `n`. */
export async function readLines(core: Core, topic: string, since: number, n: number): Promise<Line[]> {
  const evs = await core.store.events.read(busTopic(topic), since, n);
  return evs.map((e) => ({ topic, seq: e.id, time: e.time, ...(e.payload as LinePayload) }));
}
