// Operator routes of the catalog, behind the commons' ops (or admin) token: list orders to
// provision, move an order along the lifecycle, or add a note the buyer sees on the tracking page.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CxError, oneLine } from '../core/kernel/errors.js';
import { JSON_T, TEXT, wantsJson } from './http.js';
import { CATALOG_LIMITS } from './limits.js';
import type { Orders } from './orders.js';
import { type CatalogStore, type OrderStatus, STATUSES } from './store.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function registerAdmin(app: FastifyInstance, store: CatalogStore, orders: Orders, opsTokens: string[]): void {
  const allowed = opsTokens.filter(Boolean).map(digest);
  const auth = (req: FastifyRequest) => {
    const h = req.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)$/i.exec(h);
    // Compare digests: equal lengths, constant time.
    if (m && allowed.some((t) => timingSafeEqual(t, digest(m[1]!)))) return;
    throw new CxError('auth', 'ops token required', 401, { 'WWW-Authenticate': 'Bearer realm="catalog"' });
  };
  const statusOf = (v: unknown, name: string): OrderStatus | null => {
    if (v === undefined || v === '') return null;
    if (typeof v !== 'string' || !(STATUSES as readonly string[]).includes(v)) throw new CxError('bad', `${name}: must be ${STATUSES.join(', ')}`);
    return v as OrderStatus;
  };

  app.get('/api/admin/orders', async (req, reply) => {
    auth(req);
    const q = req.query as Record<string, unknown>;
    const status = statusOf(q.status, 'status');
    const n = q.n === undefined ? 50 : Number(q.n);
    if (!Number.isInteger(n) || n < 1 || n > CATALOG_LIMITS.admin_list_max) throw new CxError('bad', `n: 1 to ${CATALOG_LIMITS.admin_list_max}`);
    const rows = await store.list(status, n);
    reply.header('cache-control', 'no-store').type(JSON_T);
    return {
      orders: rows.map((o) => ({
        id: o.id,
        status: o.status,
        product: o.product,
        location: o.location,
        payment: o.payment,
        amount_eur: o.amount_cents / 100,
        email: o.email,
        provider_ref: o.provider_ref,
        created: new Date(o.created).toISOString(),
        updated: new Date(o.updated).toISOString(),
      })),
    };
  });

  app.post('/api/admin/orders/:id', async (req, reply) => {
    auth(req);
    const { id } = req.params as { id: string };
    const b = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    const status = statusOf(b.status, 'status');
    const rawNote = b.note;
    if (rawNote !== undefined && typeof rawNote !== 'string') throw new CxError('bad', 'note: must be a string');
    if (typeof rawNote === 'string' && rawNote.length > CATALOG_LIMITS.note_max)
      throw new CxError('bad', `note: at most ${CATALOG_LIMITS.note_max} characters`);
    const note = rawNote ? oneLine(rawNote, CATALOG_LIMITS.note_max) : null;
    const o = await orders.operatorSet(id, status, note);
    reply.header('cache-control', 'no-store');
    if (wantsJson(req)) return reply.type(JSON_T).send({ ok: true, id: o.id, status: o.status });
    return reply.type(TEXT).send(`ok ${o.id} ${o.status}\n`);
  });
}
