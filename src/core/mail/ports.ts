// Async port of mail; src/store/sqlite/mail.ts implements it. Rows hold ciphertext only.

export interface MailRow {
  rid: number;
  id: string;
  sender: string;
  recipient: string;
  nonce: Buffer;
  /** AES-256-GCM ciphertext||tag of {"s": subject, "b": body}. */
  ct: Buffer;
  size: number;
  created: number;
  readAt: number | null;
  reported: boolean;
}

export type NewMail = Omit<MailRow, 'rid' | 'readAt' | 'reported'>;

export interface MailReport {
  msg: string;
  reporter: string;
  sender: string;
  reason: string;
  created: number;
}

export interface MailRepo {
  /** 'full' when the recipient's inbox holds `max` messages; 'taken' on an id clash. */
  insert(m: NewMail, max: number): Promise<MailRow | 'full' | 'taken'>;
  /** A message in the recipient's inbox; null for unknown, deleted and foreign ids alike. */
  get(id: string, recipient: string): Promise<MailRow | null>;
  markRead(id: string, recipient: string, now: number): Promise<void>;
  inbox(recipient: string, before: number | null, n: number, unread: boolean): Promise<MailRow[]>;
  counts(recipient: string): Promise<{ total: number; unread: number }>;
  /** Leaves the inbox; the ciphertext stays while a report on it is open. */
  remove(id: string, recipient: string): Promise<boolean>;
  /** 'dup' when this recipient already reported it. */
  report(r: MailReport): Promise<'ok' | 'dup'>;
  /** Open reports, oldest first (for the review queue and tests). */
  openReports(n: number): Promise<Array<MailReport & { id: number }>>;
  /** Open reports filed at or after `since` (ms), oldest first, at most n; with whether the ciphertext is still held. */
  reviewQueue(since: number, n: number): Promise<Array<MailReport & { id: number; held: boolean; size: number }>>;
  /**
   * Closes open report `id` with `action` (purge | freeze | dismiss); 'decided' when it was not open,
   * null when unknown. `purge` also deletes the reported message's ciphertext (by its locator).
   */
  decideReport(id: number, action: ReviewAction, note: string, now: number): Promise<(MailReport & { id: number }) | 'decided' | null>;
}

export type ReviewAction = 'purge' | 'freeze' | 'dismiss';

/**
 * Mail the system writes on an identity's behalf (swarm mb: deliveries), with an id the writer
 * derives (a repeat is 'taken', not a second message); 'full' when the recipient's inbox is.
 * The composition root puts the mail domain's writer on the core (`core.systemMail`), so a
 * delivering domain gets the insert's answer without importing mail.
 */
export type SystemMail = (m: { id: string; from: string; to: string; subject: string; body: string }) => Promise<'ok' | 'full' | 'taken'>;
