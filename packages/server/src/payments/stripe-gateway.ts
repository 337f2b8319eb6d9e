/**
 * The Stripe adapter of the payment gateway port, on the official `stripe` SDK. Tests and the
 * offline demo point `payments.stripe.apiUrl` at the local Stripe double; the SDK is the same.
 */
import Stripe from 'stripe';
import {
  GatewayRefusedError,
  GatewayUnavailableError,
  WebhookEventInvalidError,
  WebhookSignatureError,
  type GatewayEvent,
  type GatewayIntent,
  type PaymentGateway,
  type PaymentStatus,
} from './payment-gateway.js';

export interface StripeGatewayOptions {
  readonly secretKey: string;
  readonly webhookSecret: string;
  readonly apiUrl: string;
  readonly timeoutMs: number;
}

const INTENT_STATUSES: Readonly<Record<string, PaymentStatus>> = {
  requires_payment_method: 'requires_payment_method',
  requires_confirmation: 'requires_payment_method',
  requires_action: 'requires_action',
  processing: 'processing',
  requires_capture: 'processing',
  canceled: 'canceled',
  succeeded: 'succeeded',
};

/** Events that move a payment, and the status each one means. */
const EVENT_STATUSES: Readonly<Record<string, PaymentStatus>> = {
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.processing': 'processing',
  'payment_intent.requires_action': 'requires_action',
  'payment_intent.payment_failed': 'failed',
  'payment_intent.canceled': 'canceled',
  'charge.dispute.created': 'disputed',
};

function toIntent(pi: Stripe.PaymentIntent): GatewayIntent {
  return {
    id: pi.id,
    amount: pi.amount,
    currency: pi.currency,
    status: INTENT_STATUSES[pi.status] ?? 'processing',
    clientSecret: pi.client_secret ?? null,
    metadata: { ...(pi.metadata ?? {}) },
    created: pi.created,
    failureMessage: pi.last_payment_error?.message ?? null,
  };
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(reason: string): never {
  throw new WebhookEventInvalidError(reason);
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** A charge's or dispute's `payment_intent`: an id, an expanded intent, or none. */
function intentRefOf(object: JsonObject): string | null {
  const ref = object['payment_intent'];
  if (ref === null || ref === undefined) return null;
  if (typeof ref === 'string') return ref;
  if (isObject(ref) && typeof ref['id'] === 'string') return ref['id'];
  return invalid('payment_intent is neither an id nor an intent');
}

/** The intent fields svc reads, checked before toIntent trusts them. */
function checkIntent(object: JsonObject): Stripe.PaymentIntent {
  const { id, amount, currency, status, created, metadata } = object;
  if (typeof id !== 'string' || id === '') invalid('the intent has no id');
  if (!isCount(amount) || typeof currency !== 'string' || typeof status !== 'string') invalid('the intent has no amount, currency or status');
  if (typeof created !== 'number' || (metadata !== undefined && metadata !== null && !isObject(metadata))) invalid('the intent has no created time, or ill-typed metadata');
  return object as unknown as Stripe.PaymentIntent;
}

/**
 * The verified event as the port's. A signature proves who sent the bytes, not what they hold:
 * every field read here is checked first, and a malformed event is WebhookEventInvalidError
 * (400), never a TypeError answered 500, which Stripe would retry for days.
 */
function toEvent(parsed: unknown): GatewayEvent {
  if (!isObject(parsed)) invalid('the event is not a JSON object');
  const { id, type, created, data } = parsed;
  if (typeof id !== 'string' || id === '') invalid('the event has no id');
  if (typeof type !== 'string' || type === '' || typeof created !== 'number') invalid('the event has no type or created time');
  if (!isObject(data) || !isObject(data['object'])) invalid('the event has no data.object');
  const object = data['object'];
  const base = { id, type, occurredAt: created };
  if (type.startsWith('payment_intent.')) {
    const intent = toIntent(checkIntent(object));
    return { ...base, intentId: intent.id, status: EVENT_STATUSES[type] ?? null, amountRefunded: 0, intent };
  }
  if (type === 'charge.refunded') {
    const { amount, amount_refunded: refunded } = object;
    if (!isCount(amount) || !isCount(refunded)) invalid('the charge has no amount or amount_refunded');
    const status: PaymentStatus = refunded >= amount ? 'refunded' : 'partially_refunded';
    return { ...base, intentId: intentRefOf(object), status, amountRefunded: refunded, intent: null };
  }
  if (type === 'charge.dispute.created') {
    return { ...base, intentId: intentRefOf(object), status: 'disputed', amountRefunded: 0, intent: null };
  }
  return { ...base, intentId: null, status: null, amountRefunded: 0, intent: null };
}

/**
 * Starts an SDK request with stack traces off. The SDK formats a stack trace of its caller on
 * every request, for its own error messages; svc turns every SDK error into the port's and never
 * shows a stack, so the capture would only cost: about 20 µs a call on a deep request stack, more
 * with source maps on (issue #17). The SDK takes it synchronously, before its first await, so
 * only that window runs without traces.
 */
function withoutCallSite<T>(run: () => Promise<T>): Promise<T> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return run();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Stripe's own errors become the port's: unreachable or 5xx → unavailable, the rest → refused. */
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await withoutCallSite(run);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) {
      const status = error.statusCode ?? 0;
      if (error instanceof Stripe.errors.StripeConnectionError || status === 0 || status >= 500 || status === 429) {
        throw new GatewayUnavailableError(`stripe: ${error.type}`);
      }
      throw new GatewayRefusedError(error.code ?? error.type);
    }
    throw new GatewayUnavailableError('stripe: request failed');
  }
}

export function createStripeGateway(options: StripeGatewayOptions): PaymentGateway {
  const api = new URL(options.apiUrl);
  const stripe = new Stripe(options.secretKey, {
    host: api.hostname,
    port: api.port || (api.protocol === 'http:' ? '80' : '443'),
    protocol: api.protocol === 'http:' ? 'http' : 'https',
    timeout: options.timeoutMs,
    // The client retries a 502 (issue #12); retrying inside one request would only hold it open.
    maxNetworkRetries: 0,
    telemetry: false,
  });
  return {
    name: 'stripe',
    async createIntent(input) {
      const pi = await call(() =>
        stripe.paymentIntents.create(
          {
            amount: input.amount,
            currency: input.currency,
            description: input.description,
            metadata: { ...input.metadata },
            automatic_payment_methods: { enabled: true },
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return toIntent(pi);
    },
    async retrieveIntent(id) {
      try {
        return await call(async () => toIntent(await stripe.paymentIntents.retrieve(id)));
      } catch (error) {
        if (error instanceof GatewayRefusedError) return null;
        throw error;
      }
    },
    async updateIntentAmount(id, amount, currency) {
      return call(async () => toIntent(await stripe.paymentIntents.update(id, { amount, currency })));
    },
    async cancelIntent(id) {
      return call(async () => toIntent(await stripe.paymentIntents.cancel(id)));
    },
    async *listIntents(since) {
      const pages = stripe.paymentIntents.list({ created: { gte: since }, limit: 100 });
      const iterator = pages[Symbol.asyncIterator]();
      for (;;) {
        const next = await call(() => iterator.next());
        if (next.done) return;
        yield toIntent(next.value);
      }
    },
    parseWebhook(rawBody, signature) {
      if (!signature) throw new WebhookSignatureError('missing signature');
      let event: unknown;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new WebhookSignatureError('bad signature');
        // Verified, then the SDK could not read it: not JSON, or a thin (v2) event notification.
        throw new WebhookEventInvalidError(error instanceof SyntaxError ? 'the event is not JSON' : 'the SDK refused the event');
      }
      return toEvent(event);
    },
  };
}
