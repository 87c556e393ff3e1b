// Monero payments are confirmed by polling the wallet (no webhook exists): every MONERO_POLL_S,
// `get_bulk_payments` for the payment ids of pending Monero orders; an order is paid once the
// payments to its integrated address that have MONERO_CONFIRMATIONS confirmations cover its
// amount. Unpaid orders are cancelled after MONERO_ORDER_TTL_H (with the amount seen, if any).
import type { FastifyBaseLogger } from 'fastify';
import type { MoneroConfig } from './config.js';
import { CATALOG_LIMITS } from './limits.js';
import type { Orders } from './orders.js';
import { fmtXmr, type MoneroRpc } from './pay/monero.js';
import type { CatalogStore } from './store.js';

interface Payment {
  payment_id: string;
  amount: number;
  block_height: number;
  tx_hash: string;
}

export interface Poller {
  pollOnce(): Promise<void>;
  /** Stops the timer and waits for a poll in flight (before the store closes). */
  stop(): Promise<void>;
}

export function startMoneroPoller(cfg: MoneroConfig, rpc: MoneroRpc, store: CatalogStore, orders: Orders, now: () => number, log: FastifyBaseLogger): Poller {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  async function pollOnce(): Promise<void> {
    const pending = await store.pendingMonero(CATALOG_LIMITS.monero_poll_batch);
    if (!pending.length) return;
    const { height } = await rpc.call<{ height: number }>('get_height');
    const r = await rpc.call<{ payments?: Payment[] }>('get_bulk_payments', {
      payment_ids: pending.map((o) => o.provider_ref),
      min_block_height: 0,
    });
    const seen = new Map<string, { confirmed: number; all: number; txs: string[] }>();
    for (const p of r.payments ?? []) {
      if (typeof p?.payment_id !== 'string' || typeof p.amount !== 'number') continue;
      const s = seen.get(p.payment_id) ?? { confirmed: 0, all: 0, txs: [] };
      s.all += p.amount;
      // block_height 0 means still in the pool; the tip block itself counts as one confirmation.
      if (p.block_height > 0 && height - p.block_height >= cfg.confirmations) {
        s.confirmed += p.amount;
        s.txs.push(String(p.tx_hash).slice(0, 12));
      }
      seen.set(p.payment_id, s);
    }
    const ttlMs = cfg.ttlH * 3600_000;
    for (const o of pending) {
      const s = seen.get(o.provider_ref!);
      if (s && o.xmr_atomic !== null && s.confirmed >= o.xmr_atomic) {
        await orders.paid(o, `monero payment confirmed: ${fmtXmr(s.confirmed)} XMR, tx ${s.txs.join(' ')}`);
      } else if (now() - o.created > ttlMs) {
        const got = s ? `; received ${fmtXmr(s.all)} of ${fmtXmr(o.xmr_atomic ?? 0)} XMR, write to the operator for a refund` : '';
        await orders.failed(o, `no full Monero payment within ${cfg.ttlH} h${got}`);
      }
    }
  }

  const loop = () => {
    if (stopped) return;
    running = pollOnce()
      .catch((err) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'monero poll failed'))
      .finally(() => {
        if (!stopped) {
          timer = setTimeout(loop, cfg.pollS * 1000);
          timer.unref();
        }
      });
  };
  timer = setTimeout(loop, cfg.pollS * 1000);
  timer.unref();

  return {
    pollOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
