// Monero through the operator's monero-wallet-rpc (JSON-RPC over HTTP, optional digest login).
// Each order gets its own integrated address (`make_integrated_address`), priced in XMR at the
// operator's rate at order time; our payment page shows address and amount. Payments are found
// by polling `get_bulk_payments` (see monero-poll.ts).
import { createHash, randomBytes } from 'node:crypto';
import type { MoneroConfig } from '../config.js';
import { CATALOG_LIMITS } from '../limits.js';
import { type PaymentAdapter, upstream } from './types.js';

const ATOMIC = 10n ** 12n;
/** Amounts are rounded up to 1e-6 XMR so people can type them. */
const STEP = 10n ** 6n;

/** EUR cents → XMR atomic units at `eurPerXmr`, rounded up. */
export function xmrAtomic(cents: number, eurPerXmr: number): number {
  const rateMicro = BigInt(Math.round(eurPerXmr * 1e6));
  const num = BigInt(cents) * ATOMIC * 10n ** 4n; // cents/100 EUR, rate in micro-EUR
  let atomic = (num + rateMicro - 1n) / rateMicro;
  atomic = ((atomic + STEP - 1n) / STEP) * STEP;
  return Number(atomic);
}

export function fmtXmr(atomic: number): string {
  const a = BigInt(atomic);
  const frac = (a % ATOMIC).toString().padStart(12, '0').replace(/0+$/, '');
  return `${a / ATOMIC}${frac ? '.' + frac : ''}`;
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** RFC 7616 digest response for the first challenge of a WWW-Authenticate header. */
export function digestHeader(www: string, user: string, pass: string, method: string, uri: string, cnonce = randomBytes(8).toString('hex')): string | null {
  const first = www.split(/,\s*(?=Digest\s)/i)[0] ?? '';
  if (!/^\s*Digest\s/i.test(first)) return null;
  const p: Record<string, string> = {};
  for (const m of first.replace(/^\s*Digest\s+/i, '').matchAll(/([a-z-]+)=(?:"([^"]*)"|([^,\s]+))/gi)) p[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? '';
  const algo = (p.algorithm ?? 'MD5').toUpperCase();
  const h = algo.startsWith('SHA-256') ? sha256 : algo.startsWith('MD5') ? md5 : null;
  if (!h || !p.nonce) return null;
  const nc = '00000001';
  let ha1 = h(`${user}:${p.realm ?? ''}:${pass}`);
  if (algo.endsWith('-SESS')) ha1 = h(`${ha1}:${p.nonce}:${cnonce}`);
  const ha2 = h(`${method}:${uri}`);
  const qop = p.qop
    ?.split(',')
    .map((q) => q.trim())
    .includes('auth')
    ? 'auth'
    : null;
  const response = qop ? h(`${ha1}:${p.nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : h(`${ha1}:${p.nonce}:${ha2}`);
  const parts = [
    `username="${user}"`,
    `realm="${p.realm ?? ''}"`,
    `nonce="${p.nonce}"`,
    `uri="${uri}"`,
    `algorithm=${p.algorithm ?? 'MD5'}`,
    `response="${response}"`,
    ...(p.opaque !== undefined ? [`opaque="${p.opaque}"`] : []),
    ...(qop ? [`qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`] : []),
  ];
  return `Digest ${parts.join(', ')}`;
}

export class MoneroRpc {
  constructor(private cfg: MoneroConfig) {}

  async call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const url = `${this.cfg.rpcUrl}/json_rpc`;
    const body = JSON.stringify({ jsonrpc: '2.0', id: '0', method, params });
    const send = (auth?: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
        body,
        signal: AbortSignal.timeout(CATALOG_LIMITS.provider_timeout_ms),
      });
    let res: Response;
    try {
      res = await send();
      if (res.status === 401 && this.cfg.rpcUser) {
        const auth = digestHeader(res.headers.get('www-authenticate') ?? '', this.cfg.rpcUser, this.cfg.rpcPassword ?? '', 'POST', new URL(url).pathname);
        await res.body?.cancel();
        if (auth) res = await send(auth);
      }
    } catch {
      throw upstream('monero wallet', 'did not answer');
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw upstream('monero wallet', `answered ${res.status}`);
    }
    const j = (await res.json().catch(() => null)) as { result?: T; error?: { code?: number } } | null;
    if (!j || j.error || j.result === undefined) throw upstream('monero wallet', `${method} failed${j?.error?.code !== undefined ? ` (${j.error.code})` : ''}`);
    return j.result;
  }
}

export function moneroAdapter(cfg: MoneroConfig, rpc: MoneroRpc): PaymentAdapter {
  return {
    method: 'monero',
    missing: () => [...(cfg.rpcUrl ? [] : ['MONERO_WALLET_RPC_URL']), ...(cfg.eurPerXmr ? [] : ['MONERO_EUR_PER_XMR'])],
    async createCheckout({ order }) {
      const r = await rpc.call<{ integrated_address?: unknown; payment_id?: unknown }>('make_integrated_address', {});
      if (
        typeof r.integrated_address !== 'string' ||
        !/^[1-9A-HJ-NP-Za-km-z]{90,110}$/.test(r.integrated_address) ||
        typeof r.payment_id !== 'string' ||
        !/^[0-9a-f]{16}$/.test(r.payment_id)
      ) {
        throw upstream('monero wallet', 'returned no integrated address');
      }
      return {
        provider_ref: r.payment_id,
        checkout_url: null,
        xmr_address: r.integrated_address,
        xmr_atomic: xmrAtomic(order.amount_cents, cfg.eurPerXmr!),
        xmr_rate: String(cfg.eurPerXmr),
      };
    },
  };
}
