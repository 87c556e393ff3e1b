// POST /in/{id}: one provider delivery. A valid one publishes ONE summary line on the endpoint's
// topic; a valid one that publishes nothing (replay, over rate, filtered, hazardous) is dropped
// quietly: both answer the same (the face replies 204). An unknown id and a bad signature are one
// and the same `err notfound`, reached by the same work (src/core/webhooks/secret.ts).
import { CxError, notFound } from '../kernel/errors.js';
import { limit } from '../kernel/limits.js';
import type { Core } from '../kernel/types.js';
import { publishLine } from '../platform/events/topics.js';
import { HOOK_ID } from './endpoints.js';
import { genericLine } from './generic.js';
import { githubLine } from './github.js';
import { gitlabLine } from './gitlab.js';
import type { DeliveryRule, WebhookRow } from './ports.js';
import { deliveryKey, dummyRow, header, openSecret, providerOf, verify, type Headers } from './secret.js';
import { finish } from './summary.js';

export type Outcome = 'published' | 'replay' | 'rate' | 'filtered' | 'hazard';

export interface Delivery {
  id: string;
  headers: Headers;
  body: Buffer;
}

const HOUR = 3_600_000;
const rule = (): DeliveryRule => ({ perMin: limit('in.rate_min'), perDay: limit('in.rate_day'), keepMs: limit('in.replay_h') * HOUR });

/** The payload as JSON (GitHub may also send it form-encoded as `payload=`); undefined when it is not. */
function payloadOf(h: Headers, body: Buffer): unknown {
  let text = body.toString('utf8');
  if (header(h, 'content-type').toLowerCase().startsWith('application/x-www-form-urlencoded')) text = new URLSearchParams(text).get('payload') ?? '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function summaryOf(row: Pick<WebhookRow, 'provider'>, event: string, h: Headers, body: Buffer): string {
  const p = payloadOf(h, body);
  switch (row.provider) {
    case 'github':
      return githubLine(event, p);
    case 'gitlab':
      return gitlabLine(event, p);
    case 'generic':
      return genericLine(event, p, body);
  }
}

const lastPurge = new WeakMap<Core, number>();
async function purgeSometimes(core: Core, now: number): Promise<void> {
  if (now - (lastPurge.get(core) ?? 0) < 60_000) return;
  lastPurge.set(core, now);
  await core.store.webhooks.purge(now - Math.max(rule().keepMs, 24 * HOUR));
}

export async function receive(core: Core, d: Delivery): Promise<Outcome> {
  const now = core.now();
  // A write freeze or a maintenance window is refused before this is called (the route declares
  // freeze: 'write', src/rest/webhooks.ts), before any lookup.
  const row = HOOK_ID.test(d.id) ? await core.store.webhooks.get(d.id) : null;
  // Unknown ids cost one AES open and the provider's check against a dummy secret, like known ones.
  const secret = openSecret(core, row ?? dummyRow(core));
  const provider = row?.provider ?? providerOf(d.headers);
  const v = verify(provider, secret ?? '-', d.headers, d.body, now, limit('in.tolerance'));
  if (!row || secret === null || !v.ok) {
    if (row && secret === null) core.log.error({ hook: row.id }, 'webhook secret failed authentication');
    throw notFound();
  }
  const hooks = core.store.webhooks;
  // ping (GitHub's hello on creation) always passes, so the owner sees the endpoint works.
  if (row.events && v.event !== 'ping' && !row.events.split(',').includes(v.event)) {
    await hooks.tally(row.id, 'dropped', now);
    return 'filtered';
  }
  // Replays are judged on signed content (the MAC, or GitLab's body), never on delivery-id headers.
  const key = deliveryKey(provider, v.signed);
  const claim = await hooks.claim(row.id, key, now, rule());
  void purgeSometimes(core, now).catch((err: unknown) => core.log.warn({ err }, 'webhook delivery purge failed'));
  if (claim === 'replay' || claim === 'rate') return claim;
  if (claim === 'gone') return 'filtered';
  const { line, redacted } = finish(summaryOf(row, v.event, d.headers, d.body));
  try {
    await publishLine(core, row.topic, line, { by: `in:${row.id}`, hop: 0 });
  } catch (err) {
    // publishLine runs the hazard check; a hazard, or a secret the redaction missed, is dropped. Anything else: the key is
    // let go, so the provider's redelivery can publish, and the failure is the caller's 500.
    if (err instanceof CxError && (err.code === 'scrub' || err.code === 'hazard')) {
      await hooks.tally(row.id, 'dropped', now);
      return 'hazard';
    }
    await hooks.release(row.id, key);
    throw err;
  }
  await hooks.tally(row.id, 'ok', now);
  if (redacted) core.log.info({ hook: row.id, redacted }, 'webhook summary had secrets redacted');
  return 'published';
}
