// One interface for every payment provider: what is missing to use it, and how to open a checkout.
import { CxError } from '../../core/kernel/errors.js';
import type { CheckoutInfo, Order, PaymentMethod } from '../store.js';

export interface CheckoutRequest {
  order: Order;
  /** Our tracking page (the private link): where providers send the buyer back. */
  trackingUrl: string;
  /** Human description of what is bought, for the provider's checkout page. */
  description: string;
}

export interface PaymentAdapter {
  readonly method: Exclude<PaymentMethod, 'quote'>;
  /** Environment variables still missing to create checkouts; empty when ready. */
  missing(): string[];
  /** Opens a checkout at the provider; checkout_url null means our own payment page (Monero). */
  createCheckout(req: CheckoutRequest): Promise<CheckoutInfo>;
}

/** The provider did not answer as expected: 502, one line, no provider body echoed. */
export function upstream(provider: string, what: string): CxError {
  return new CxError('upstream', `${provider} ${what}`, 502);
}

/** 503 naming the variables an operator must set. */
export function unconfigured(what: string, missing: string[]): CxError {
  return new CxError('unavailable', `${what} not configured: set ${missing.join(', ')}`, 503);
}
