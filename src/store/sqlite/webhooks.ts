// SQLite implementation of the WebhookRepo port: endpoints (secrets sealed by the core) and the
// delivery keys that serve both replay detection and the per-endpoint rate counts.
import type { Claim, DeliveryRule, NewWebhook, WebhookRepo, WebhookRow } from '../../core/webhooks/ports.js';
import type { Db } from './db.js';
import { isUnique } from './workspace.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

export function sqliteWebhooks(db: Db): WebhookRepo {
  const cnt = db.prepare('SELECT count(*) AS n FROM webhooks WHERE owner = ?');
  const ins = db.prepare(
    'INSERT INTO webhooks (id, owner, provider, topic, events, nonce, ct, created) VALUES (@id, @owner, @provider, @topic, @events, @nonce, @ct, @created) RETURNING *',
  );
  const sel = db.prepare('SELECT * FROM webhooks WHERE id = ?');
  const mine = db.prepare('SELECT * FROM webhooks WHERE owner = ? ORDER BY created, id');
  const del = db.prepare('DELETE FROM webhooks WHERE id = ? AND owner = ?');
  const exists = db.prepare('SELECT 1 AS x FROM webhooks WHERE id = ?');
  const keptAt = db.prepare('SELECT at FROM webhook_deliveries WHERE hook = ? AND key = ?');
  const since = db.prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE hook = ? AND at > ?');
  const keep = db.prepare('INSERT INTO webhook_deliveries (hook, key, at) VALUES (?, ?, ?) ON CONFLICT (hook, key) DO UPDATE SET at = excluded.at');
  const forget = db.prepare('DELETE FROM webhook_deliveries WHERE hook = ? AND key = ?');
  const expire = db.prepare('DELETE FROM webhook_deliveries WHERE hook = ? AND at <= ?');
  const purge = db.prepare('DELETE FROM webhook_deliveries WHERE at < ?');
  const okStmt = db.prepare('UPDATE webhooks SET ok = ok + 1, last = ? WHERE id = ?');
  const dropStmt = db.prepare('UPDATE webhooks SET dropped = dropped + 1, last = ? WHERE id = ?');

  const insert = db.transaction((row: NewWebhook, max: number): WebhookRow | 'full' | 'taken' => {
    if ((cnt.get(row.owner) as { n: number }).n >= max) return 'full';
    try {
      return ins.get(row) as WebhookRow;
    } catch (e) {
      if (isUnique(e)) return 'taken';
      throw e;
    }
  });

  const claim = db.transaction((id: string, key: Buffer, now: number, rule: DeliveryRule): Claim => {
    if (!exists.get(id)) return 'gone';
    const keepMs = Math.max(rule.keepMs, DAY);
    // Keys past their keeping time are forgotten here too, so the counts below see only the window.
    expire.run(id, now - keepMs);
    const at = keptAt.get(id, key) as { at: number } | undefined;
    if (at && at.at > now - rule.keepMs) {
      dropStmt.run(now, id);
      return 'replay';
    }
    const perMin = (since.get(id, now - MINUTE) as { n: number }).n;
    const perDay = (since.get(id, now - DAY) as { n: number }).n;
    if (perMin >= rule.perMin || perDay >= rule.perDay) {
      dropStmt.run(now, id);
      return 'rate';
    }
    keep.run(id, key, now);
    return 'ok';
  });

  return {
    async insert(row, max) {
      return insert(row, max);
    },
    async get(id) {
      return (sel.get(id) as WebhookRow | undefined) ?? null;
    },
    async list(owner) {
      return mine.all(owner) as WebhookRow[];
    },
    async count(owner) {
      return (cnt.get(owner) as { n: number }).n;
    },
    async remove(id, owner) {
      return del.run(id, owner).changes === 1;
    },
    async claim(id, key, now, rule) {
      return claim.immediate(id, key, now, rule);
    },
    async release(id, key) {
      forget.run(id, key);
    },
    async tally(id, outcome, now) {
      (outcome === 'ok' ? okStmt : dropStmt).run(now, id);
    },
    async purge(before) {
      return purge.run(before).changes;
    },
  };
}
