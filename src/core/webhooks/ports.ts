// Async port of inbound webhook endpoints; src/store/sqlite/webhooks.ts implements it. Rows hold the
// endpoint's secret sealed only (src/core/webhooks/secret.ts), never in clear.

export type Provider = 'github' | 'gitlab' | 'generic';

export interface WebhookRow {
  id: string;
  owner: string;
  provider: Provider;
  /** The topic lines are published on (canonical name). */
  topic: string;
  /** Event filter: comma-separated event names, '' for every event. */
  events: string;
  nonce: Buffer;
  /** AES-256-GCM ciphertext||tag of the secret. */
  ct: Buffer;
  created: number;
  /** Time of the last delivery that passed the signature check (accepted or dropped). */
  last: number | null;
  /** Deliveries that published a line. */
  ok: number;
  /** Deliveries with a valid signature that published nothing (replay, over rate, filtered, hazard). */
  dropped: number;
}

export type NewWebhook = Omit<WebhookRow, 'last' | 'ok' | 'dropped'>;

/** What `claim` enforces for one endpoint. */
export interface DeliveryRule {
  /** Accepted deliveries per rolling minute. */
  perMin: number;
  /** Accepted deliveries per rolling day. */
  perDay: number;
  /** How long a delivery key is kept (replays within it are recognized); at least a day, so the day count is exact. */
  keepMs: number;
}

export type Claim = 'ok' | 'replay' | 'rate' | 'gone';

export interface WebhookRepo {
  /** Inserts unless the owner already holds `max` endpoints; 'taken' when the id exists (draw again). */
  insert(row: NewWebhook, max: number): Promise<WebhookRow | 'full' | 'taken'>;
  /** An endpoint by id, whoever owns it (deliveries are not authenticated by owner). */
  get(id: string): Promise<WebhookRow | null>;
  /** The owner's endpoints, oldest first. */
  list(owner: string): Promise<WebhookRow[]>;
  count(owner: string): Promise<number>;
  /** Deletes the owner's endpoint and its delivery keys; false for unknown and foreign ids alike. */
  remove(id: string, owner: string): Promise<boolean>;
  /**
   * One atomic decision for a delivery that passed its signature check: 'replay' when `key` is
   * kept for the endpoint, 'rate' when the minute or day count is reached (the key is then not
   * kept, so a later redelivery can pass), else the key is kept at `now` and 'ok'. 'gone': no such
   * endpoint (deleted meanwhile). 'replay' and 'rate' count as dropped.
   */
  claim(id: string, key: Buffer, now: number, rule: DeliveryRule): Promise<Claim>;
  /** Forgets a claimed key (the line could not be published: a redelivery may try again). */
  release(id: string, key: Buffer): Promise<void>;
  /** Counts an outcome decided after the claim (or without one: filtered). */
  tally(id: string, outcome: 'ok' | 'dropped', now: number): Promise<void>;
  /** Deletes delivery keys kept since before `before`; how many. */
  purge(before: number): Promise<number>;
}
