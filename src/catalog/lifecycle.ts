// Order lifecycle: the one table of allowed moves, shared by webhooks, the Monero poller and the
// operator endpoint (see docs/decisions.md, "Order lifecycle").
import type { OrderStatus } from './store.js';

export const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  pending_payment: ['paid', 'cancelled'],
  paid: ['provisioning', 'cancelled'],
  provisioning: ['active', 'cancelled'],
  active: ['cancelled'],
  // Only the operator leaves cancelled, to accept a late payment.
  cancelled: ['paid'],
};

export const STATUS_TEXT: Record<OrderStatus, string> = {
  pending_payment: 'waiting for payment',
  paid: 'paid; the server will be provisioned',
  provisioning: 'the server is being set up',
  active: 'the server is running',
  cancelled: 'cancelled',
};
