// The catalog's storage port: async, so the order logic never sees better-sqlite3 and a
// server database could replace it behind the same interface (src/catalog/sqlite.ts implements it).

export const STATUSES = ['pending_payment', 'paid', 'provisioning', 'active', 'cancelled'] as const;
export type OrderStatus = (typeof STATUSES)[number];
export const PAYMENTS = ['stripe', 'btcpay', 'monero', 'quote'] as const;
export type PaymentMethod = (typeof PAYMENTS)[number];

export interface Order {
  id: string;
  token_hash: string;
  product: string;
  product_name: string;
  billing_period: string;
  location: string;
  payment: PaymentMethod;
  email: string | null;
  amount_cents: number;
  status: OrderStatus;
  provider_ref: string | null;
  checkout_url: string | null;
  xmr_address: string | null;
  xmr_atomic: number | null;
  xmr_rate: string | null;
  net: string;
  created: number;
  updated: number;
}

export interface OrderEvent {
  at: number;
  status: OrderStatus | null;
  note: string;
}

export interface CheckoutInfo {
  provider_ref: string;
  checkout_url: string | null;
  xmr_address?: string;
  xmr_atomic?: number;
  xmr_rate?: string;
}

export interface CatalogStore {
  /** Inserts the order and its first timeline event in one transaction. */
  create(order: Order, note: string): Promise<void>;
  byTokenHash(hash: string): Promise<Order | null>;
  byId(id: string): Promise<Order | null>;
  byProviderRef(payment: PaymentMethod, ref: string): Promise<Order | null>;
  setCheckout(id: string, info: CheckoutInfo, at: number): Promise<void>;
  /**
   * Moves the order to `to` only when its status is one of `from` (compare-and-set), and logs
   * the event; returns false when the status did not allow it.
   */
  transition(id: string, from: readonly OrderStatus[], to: OrderStatus, note: string, at: number): Promise<boolean>;
  /** A timeline note without a status change. */
  note(id: string, note: string, at: number): Promise<void>;
  events(id: string): Promise<OrderEvent[]>;
  list(status: OrderStatus | null, limit: number): Promise<Order[]>;
  /** Pending Monero orders with an address, oldest first. */
  pendingMonero(limit: number): Promise<Order[]>;
  /** Throws when the database cannot be read. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
