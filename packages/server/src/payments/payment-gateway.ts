/**
 * The payment gateway port (DESIGN.md principle 6, issue #12). Services speak only this; Stripe is
 * one adapter (stripe-gateway.ts), so a second gateway is a new adapter, not a rewrite.
 */

/** Statuses svc keeps, in lifecycle order (payment-status.ts folds events over this order). */
export const PAYMENT_STATUSES = [
  'requires_payment_method',
  'requires_action',
  'processing',
  'failed',
  'canceled',
  'succeeded',
  'partially_refunded',
  'refunded',
  'disputed',
] as const;

export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export interface GatewayIntent {
  readonly id: string;
  /** Minor units. */
  readonly amount: number;
  readonly currency: string;
  readonly status: PaymentStatus;
  /** Handed to the payer's browser only, at creation; never stored or logged. */
  readonly clientSecret: string | null;
  readonly metadata: Readonly<Record<string, string>>;
  /** Unix seconds, the gateway's clock. */
  readonly created: number;
  /** Why the last attempt failed, in words a payer can read. */
  readonly failureMessage: string | null;
}

/** One verified gateway event, reduced to what svc keeps. */
export interface GatewayEvent {
  readonly id: string;
  readonly type: string;
  /** Unix seconds, the gateway's clock. */
  readonly occurredAt: number;
  readonly intentId: string | null;
  /** The status this event says the intent reached; null when the event says nothing of it. */
  readonly status: PaymentStatus | null;
  readonly amountRefunded: number;
  /** The intent as the event carried it, for payment_intent.* events. */
  readonly intent: GatewayIntent | null;
}

export interface CreateIntentInput {
  readonly amount: number;
  readonly currency: string;
  readonly description: string;
  readonly metadata: Readonly<Record<string, string>>;
  /** The same key twice creates one intent (a client retrying after a timeout). */
  readonly idempotencyKey: string;
}

export interface PaymentGateway {
  readonly name: 'stripe';
  createIntent(input: CreateIntentInput): Promise<GatewayIntent>;
  retrieveIntent(id: string): Promise<GatewayIntent | null>;
  updateIntentAmount(id: string, amount: number, currency: string): Promise<GatewayIntent>;
  cancelIntent(id: string): Promise<GatewayIntent>;
  /** Intents created at or after `since` (Unix seconds), newest first, every page. */
  listIntents(since: number): AsyncIterable<GatewayIntent>;
  /**
   * Verifies the signature over the raw body; throws WebhookSignatureError when it does not hold,
   * WebhookEventInvalidError when the signed event is not one svc can read.
   */
  parseWebhook(rawBody: Buffer, signature: string | undefined): GatewayEvent;
}

/** The gateway could not be reached or failed (HTTP 5xx, timeout): 502 PAYMENT_GATEWAY_UNAVAILABLE. */
export class GatewayUnavailableError extends Error {}

/** The gateway refused what was asked (an intent in the wrong state, an unknown id). */
export class GatewayRefusedError extends Error {}

export class WebhookSignatureError extends Error {}

/** A signed event svc cannot read (not an object, no id, no `data.object`, ill-typed fields). */
export class WebhookEventInvalidError extends Error {}
