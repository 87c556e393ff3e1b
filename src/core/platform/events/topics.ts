// Topic contracts: the events one domain writes and another follows, named here (in the platform,
// which every domain may import) so that the writer and the follower share a shape without
// importing each other.
//   ps:<topic>     topic lines. Any domain writes one (swarm ops, inbound webhooks, the operator's
//                  announcements on g:sys); the swarm module follows the prefix and queues the
//                  deliveries of its subscriptions; feeds, exports and /status read them back.
//   inbox.<kind>   operator inbox items. Any domain writes one (mail reports, notices, proposals,
//                  disputes); the admin domain copies them into its inbox rows when the inbox is read.
//   origin         who brought a piece of published content in (root, network). The writer of a KB
//                  entry, a task or a topic line writes one; the admin module follows the topic
//                  and keeps the row (GET /admin/origin), catching up from the bus when read.
import { CxError } from '../../kernel/errors.js';
import { limit } from '../../kernel/limits.js';
import { hazardFind } from '../../kernel/safety/hazards.js';
import { scrubFind } from '../../kernel/safety/scrub.js';
import type { Core } from '../../kernel/types.js';
import type { BusEvent, EventDraft } from './ports.js';

// ---- ps:<topic>: topic lines ----

/** The bus prefix of topic lines: a line of topic `t` is an event of `ps:t`, its seq the event id. */
export const LINE_PREFIX = 'ps:';

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

export const busTopic = (topic: string): string => LINE_PREFIX + topic;

/** One line of text: control characters (newlines too) become spaces, then at most swarm.line chars. */
export const flatLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, limit('swarm.line'));

/**
 * The event of one line, checked like any published field: a secret is `err scrub`, a hazard
 * `err hazard <family>`. Control characters become spaces and the text is cut at swarm.line chars.
 * Rights, quotas and name rules are the writer's; `topic` is a canonical name (topic-names.ts).
 */
export function lineDraft(topic: string, text: string, opts: { by: string; hop?: number }): EventDraft & { payload: LinePayload } {
  const flat = flatLine(text);
  const s = scrubFind(flat);
  if (s) throw new CxError('scrub', `line carries a ${s.kind}`, 400);
  const h = hazardFind(flat);
  if (h) throw new CxError('hazard', h.family, 400);
  return { topic: busTopic(topic), payload: { text: flat, by: opts.by, hop: opts.hop ?? 0 } };
}

/** A stored `ps:` event as a line. */
export const lineOf = (e: BusEvent): Line => ({ topic: e.topic.slice(LINE_PREFIX.length), seq: e.id, time: e.time, ...(e.payload as LinePayload) });

/**
 * Publishes one line in its own transaction (lineDraft's checks first); resolves once it is stored.
 * Deliveries to its subscriptions are queued by the swarm module, which follows `ps:` (and catches
 * up at start and with every sweep what it did not see).
 */
export async function publishLine(core: Core, topic: string, text: string, opts: { by: string; hop?: number }): Promise<Line> {
  const d = lineDraft(topic, text, opts);
  const e = await core.store.events.publish(d.topic, d.payload);
  return { topic, seq: e.id, time: e.time, ...d.payload };
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

// ---- inbox.<kind>: operator inbox items ----

/** What a domain publishes on `inbox.<kind>`: `ref` names the item; a later event for the same ref updates it. */
export interface InboxEvent {
  ref: string;
  scope?: string;
  title?: string;
  support_w?: number;
  groups?: number;
  url?: string;
  status?: string;
}

export const INBOX_PREFIX = 'inbox.';
const INBOX_KIND = /^[a-z][a-z0-9_]{0,23}$/;

export function inboxTopic(kind: string): string {
  if (!INBOX_KIND.test(kind)) throw new Error(`inbox kind must match ${INBOX_KIND}`);
  return INBOX_PREFIX + kind;
}

/** An inbox event to carry in a write's `emit` (stored in the write's own transaction). */
export const inboxDraft = (kind: string, item: InboxEvent): EventDraft => ({ topic: inboxTopic(kind), payload: item });

/** Publishes an inbox item (or an update of one) in its own transaction. */
export async function postInbox(core: Core, kind: string, item: InboxEvent): Promise<void> {
  await core.store.events.publish(inboxTopic(kind), item);
}
