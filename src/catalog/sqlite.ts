// SQLite adapter of the catalog store: its own file (catalog.db in the data directory), WAL,
// numbered migrations from src/catalog/migrations applied at start-up.
import { statSync } from 'node:fs';
import { LIMIT, openDb } from '../store/sqlite/db.js';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CatalogStore, CheckoutInfo, Order, OrderEvent, OrderStatus, PaymentMethod } from './store.js';

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

export function openCatalogStore(dataDir: string, sync: 'normal' | 'full' = 'normal'): CatalogStore {
  const file = join(dataDir, 'catalog.db');
  const db = openDb(file, sync, migrationsDir);
  const opened = statSync(file);

  const insert = db.prepare(`INSERT INTO orders (id, token_hash, product, product_name, billing_period, location, payment, email,
    amount_cents, status, provider_ref, checkout_url, xmr_address, xmr_atomic, xmr_rate, net, created, updated)
    VALUES (@id, @token_hash, @product, @product_name, @billing_period, @location, @payment, @email, @amount_cents, @status,
    @provider_ref, @checkout_url, @xmr_address, @xmr_atomic, @xmr_rate, @net, @created, @updated)`);
  const addEvent = db.prepare('INSERT INTO order_events (order_id, at, status, note) VALUES (?, ?, ?, ?)');
  const byToken = db.prepare('SELECT * FROM orders WHERE token_hash = ?');
  const byId = db.prepare('SELECT * FROM orders WHERE id = ?');
  const byRef = db.prepare('SELECT * FROM orders WHERE payment = ? AND provider_ref = ?');
  const setCheckout = db.prepare(`UPDATE orders SET provider_ref = ?, checkout_url = ?, xmr_address = ?, xmr_atomic = ?, xmr_rate = ?,
    updated = ? WHERE id = ?`);
  const touch = db.prepare('UPDATE orders SET updated = ? WHERE id = ?');
  const events = db.prepare('SELECT at, status, note FROM order_events WHERE order_id = ? ORDER BY id');
  const listAll = db.prepare(`SELECT * FROM orders ORDER BY created DESC ${LIMIT}`);
  const listBy = db.prepare(`SELECT * FROM orders WHERE status = ? ORDER BY created DESC ${LIMIT}`);
  const pendingMonero = db.prepare(
    `SELECT * FROM orders WHERE status = 'pending_payment' AND payment = 'monero' AND provider_ref IS NOT NULL ORDER BY created ${LIMIT}`,
  );
  const ping = db.prepare('SELECT count(*) AS n FROM schema_migrations');

  const transition = db.transaction((id: string, from: readonly OrderStatus[], to: OrderStatus, note: string, at: number): boolean => {
    const marks = from.map(() => '?').join(',');
    const r = db.prepare(`UPDATE orders SET status = ?, updated = ? WHERE id = ? AND status IN (${marks})`).run(to, at, id, ...from);
    if (r.changes === 0) return false;
    addEvent.run(id, at, to, note);
    return true;
  });
  const create = db.transaction((o: Order, note: string) => {
    insert.run(o);
    addEvent.run(o.id, o.created, o.status, note);
  });
  const noteTx = db.transaction((id: string, note: string, at: number) => {
    addEvent.run(id, at, null, note);
    touch.run(at, id);
  });

  return {
    async create(o, note) {
      create(o, note);
    },
    async byTokenHash(h) {
      return (byToken.get(h) as Order | undefined) ?? null;
    },
    async byId(id) {
      return (byId.get(id) as Order | undefined) ?? null;
    },
    async byProviderRef(p: PaymentMethod, ref: string) {
      return (byRef.get(p, ref) as Order | undefined) ?? null;
    },
    async setCheckout(id: string, c: CheckoutInfo, at: number) {
      setCheckout.run(c.provider_ref, c.checkout_url, c.xmr_address ?? null, c.xmr_atomic ?? null, c.xmr_rate ?? null, at, id);
    },
    async transition(id, from, to, note, at) {
      return transition(id, from, to, note, at);
    },
    async note(id, note, at) {
      noteTx(id, note, at);
    },
    async events(id): Promise<OrderEvent[]> {
      return events.all(id) as OrderEvent[];
    },
    async list(status, limit) {
      return (status ? listBy.all(status, limit) : listAll.all(limit)) as Order[];
    },
    async pendingMonero(limit) {
      return pendingMonero.all(limit) as Order[];
    },
    // A query alone is answered from the page cache even when the file under the open handle was
    // deleted, replaced or overwritten (writes would then be lost): check the file itself too.
    async ping() {
      ping.get();
      const st = await stat(file);
      if (st.ino !== opened.ino || st.dev !== opened.dev) throw new Error('catalog.db was replaced or removed');
      const fh = await open(file, 'r');
      try {
        const head = Buffer.alloc(16);
        await fh.read(head, 0, 16, 0);
        if (head.toString('latin1') !== 'SQLite format 3\u0000') throw new Error('catalog.db is not an SQLite file any more');
      } finally {
        await fh.close();
      }
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
