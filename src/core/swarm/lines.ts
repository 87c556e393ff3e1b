// Topic lines: the one way any domain publishes a line on a topic (agents through swarm ops,
// inbound webhooks, operator announcements on g:sys, fn: sink outputs) and reads them back (feeds,
// exports). Lines live on the event bus under `ps:<topic>`, so their seq is the bus id: gapless
// and monotonic per topic. The swarm domain owns this file; its signatures are relied on elsewhere.
// Retention: swarm.keep_h and swarm.keep_rows per topic (src/core/swarm/sweep.ts), within the bus's.
import type { Core } from '../kernel/types.js';
import { CxError } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import { scrubFind } from '../kernel/safety/scrub.js';
import { hazardFind } from '../kernel/safety/hazards.js';
import { afterPublish } from './deliver.js';

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

/** One line of text: control characters (newlines too) become spaces, then at most swarm.line chars. */
export const flatLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, limit('swarm.line'));

/**
 * Publishes one line after checking it like any published field: a secret is `err scrub`, a
 * hazard `err hazard <family>`. Callers that already ran the declared guards pay the check twice,
 * which is cheap next to the write. Rights, quotas and name rules are the caller's (swarm ops);
 * `topic` is a canonical name (src/core/swarm/topics.ts). Control characters become spaces and
 * the text is cut at swarm.line chars (the ops refuse both instead). Resolves once the line is
 * stored and its subscriptions' deliveries are queued (a crash in between is caught up at start).
 */
export async function publishLine(core: Core, topic: string, text: string, opts: { by: string; hop?: number }): Promise<Line> {
  const flat = flatLine(text);
  const s = scrubFind(flat);
  if (s) throw new CxError('scrub', `line carries a ${s.kind}`, 400);
  const h = hazardFind(flat);
  if (h) throw new CxError('hazard', h.family, 400);
  const payload: LinePayload = { text: flat, by: opts.by, hop: opts.hop ?? 0 };
  const e = await core.store.events.publish(busTopic(topic), payload);
  const line: Line = { topic, seq: e.id, time: e.time, ...payload };
  await afterPublish(core, line);
  return line;
}

/** Lines of a topic after `since` (exclusive), oldest first, at most `n`. */
export async function readLines(core: Core, topic: string, since: number, n: number): Promise<Line[]> {
  const evs = await core.store.events.read(busTopic(topic), since, n);
  return evs.map((e) => ({ topic, seq: e.id, time: e.time, ...(e.payload as LinePayload) }));
}

/** The newest seq of a topic (0 when it has none). */
export async function headOf(core: Core, topic: string): Promise<number> {
  return core.store.events.head(busTopic(topic));
}
