/**
 * The Stripe double's memory: PaymentIntents, their charges and refunds, and the event every
 * state change creates. Pure logic without I/O, so the HTTP routes and the test helpers of the
 * double share one path. Shapes follow Stripe's API reference, trimmed to the fields svc, Stripe.js
 * and the Freeform Stripe extension read; errors carry Stripe's own types and codes.
 */
import { randomInt } from 'node:crypto';
import {
  assertKnownParams, readBoolean, readChoice, readCurrency, readHttpUrl, readHash, readInteger, readRangeFilter, readString,
  readStringList, readStringMap, type FormParams,
} from './stripe-double-form-body.js';

export type StripeIntentStatus =
  'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'succeeded' | 'canceled';

export interface StripePaymentError { readonly code: string; readonly message: string; readonly type: 'card_error' }

export interface StripeNextAction { readonly type: 'redirect_to_url'; readonly redirect_to_url: { readonly url: string; readonly return_url: string } }

export interface StripePaymentIntent {
  readonly id: string; readonly object: 'payment_intent'; readonly created: number; readonly livemode: false;
  readonly amount: number; readonly amount_received: number; readonly currency: string; readonly description: string | null;
  readonly status: StripeIntentStatus; readonly client_secret: string; readonly metadata: Readonly<Record<string, string>>;
  readonly last_payment_error: StripePaymentError | null; readonly next_action: StripeNextAction | null;
  readonly payment_method: string | null; readonly latest_charge: string | null;
  readonly canceled_at: number | null; readonly cancellation_reason: string | null;
  readonly automatic_payment_methods: { readonly enabled: boolean } | null; readonly payment_method_types: readonly string[];
}

export interface StripeCharge {
  readonly id: string; readonly object: 'charge'; readonly created: number; readonly status: 'succeeded';
  readonly amount: number; readonly amount_refunded: number; readonly refunded: boolean; readonly currency: string;
  readonly payment_intent: string;
}

export interface StripeRefund {
  readonly id: string; readonly object: 'refund'; readonly created: number; readonly status: 'succeeded';
  readonly amount: number; readonly currency: string; readonly charge: string; readonly payment_intent: string;
}

export type StripeEventType =
  | 'payment_intent.created' | 'payment_intent.requires_action' | 'payment_intent.succeeded'
  | 'payment_intent.payment_failed' | 'payment_intent.canceled' | 'charge.succeeded' | 'charge.refunded' | 'refund.created';

export interface StripeEvent {
  /** Ids sort in creation order (`evt_<sequence><random>`), so a receiver can order events. */
  readonly id: string; readonly object: 'event'; readonly api_version: string; readonly created: number;
  readonly livemode: false; readonly pending_webhooks: number; readonly type: StripeEventType;
  readonly data: { readonly object: StripePaymentIntent | StripeCharge | StripeRefund };
}

export interface StripeList<T> { readonly object: 'list'; readonly data: readonly T[]; readonly has_more: boolean; readonly url: string }

export interface StripeErrorBody {
  readonly type: 'invalid_request_error' | 'card_error' | 'api_error' | 'idempotency_error';
  readonly message: string; readonly code?: string; readonly param?: string; readonly decline_code?: string;
  readonly payment_intent?: StripePaymentIntent;
}

/** A refusal api.stripe.com would give: the HTTP status and the `error` member of the body. */
export class StripeDoubleError extends Error {
  constructor(readonly status: number, readonly error: StripeErrorBody) {
    super(error.message);
    this.name = 'StripeDoubleError';
  }
}

export type StripeTestCard = 'succeeds' | 'requires_action' | 'declined';

/** Stripe's test PaymentMethods (docs.stripe.com/testing) and what confirming with each does. */
export const TEST_PAYMENT_METHODS: ReadonlyMap<string, StripeTestCard> = new Map<string, StripeTestCard>([
  ['pm_card_visa', 'succeeds'], ['pm_card_authenticationRequired', 'requires_action'], ['pm_card_chargeDeclined', 'declined'],
]);

export interface StripeLedgerOptions {
  readonly apiVersion: string;
  /** The 3-D Secure page of an intent, on the double's own origin. */
  readonly actionUrl: (intentId: string, returnUrl: string) => string;
  /** Told of every new event once it is stored. */
  readonly onEvent: (event: StripeEvent) => void;
  readonly nowSeconds?: () => number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** `seq` orders intents created in the same second; `returnUrl` is kept while 3-D Secure is pending. */
interface IntentRecord { readonly seq: number; readonly intent: Mutable<StripePaymentIntent>; returnUrl: string | null }

const CONFIRMABLE: readonly StripeIntentStatus[] = ['requires_payment_method', 'requires_confirmation'];
const UPDATABLE: readonly StripeIntentStatus[] = [...CONFIRMABLE, 'requires_action'];
const DECLINED: StripePaymentError = { code: 'card_declined', message: 'Your card was declined.', type: 'card_error' };
const AUTH_FAILED: StripePaymentError = { code: 'payment_intent_authentication_failure', message: 'We are unable to authenticate your payment method.', type: 'card_error' };

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const randomAlnum = (length: number): string => Array.from({ length }, () => ALNUM[randomInt(ALNUM.length)]).join('');

export const raise = (error: Error): never => {
  throw error;
};

const invalid = (message: string, extra: Partial<StripeErrorBody> = {}) =>
  new StripeDoubleError(400, { type: 'invalid_request_error', message, ...extra });

export const missingResource = (kind: string, id: string, param: string) =>
  new StripeDoubleError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param });

function unexpectedState(intent: StripePaymentIntent, action: string, allowed: readonly StripeIntentStatus[]): StripeDoubleError {
  const message = `You cannot ${action} this PaymentIntent because it has a status of ${intent.status}. The statuses that allow it are: ${allowed.join(', ')}.`;
  return invalid(message, { code: 'payment_intent_unexpected_state', payment_intent: structuredClone(intent) });
}

export type StripeLedger = ReturnType<typeof createStripeLedger>;

export function createStripeLedger(options: StripeLedgerOptions) {
  const intents = new Map<string, IntentRecord>();
  const charges = new Map<string, Mutable<StripeCharge>>();
  const events: StripeEvent[] = [];
  let seq = 0;
  let lastCreated = 0;
  const nowSeconds = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  // Event `created` never goes backwards, even if the wall clock does.
  const clock = () => (lastCreated = Math.max(lastCreated, nowSeconds()));

  const emit = (type: StripeEventType, object: StripePaymentIntent | StripeCharge | StripeRefund) => {
    seq += 1;
    const id = `evt_${seq.toString(36).padStart(8, '0')}${randomAlnum(16)}`;
    const event: StripeEvent = { id, object: 'event', api_version: options.apiVersion, created: clock(), livemode: false, pending_webhooks: 1, type, data: { object: structuredClone(object) } };
    events.push(event);
    options.onEvent(event);
  };

  const find = (id: string, param = 'intent'): IntentRecord => intents.get(id) ?? raise(missingResource('payment_intent', id, param));

  const succeed = (record: IntentRecord, paymentMethod: string) => {
    const { intent } = record;
    const charge: Mutable<StripeCharge> = { id: `ch_${randomAlnum(24)}`, object: 'charge', amount: intent.amount, amount_refunded: 0, refunded: false, currency: intent.currency, payment_intent: intent.id, created: clock(), status: 'succeeded' };
    charges.set(charge.id, charge);
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, payment_method: paymentMethod, latest_charge: charge.id, last_payment_error: null, next_action: null });
    record.returnUrl = null;
    emit('charge.succeeded', charge);
    emit('payment_intent.succeeded', intent);
  };

  const fail = (record: IntentRecord, error: StripePaymentError) => {
    Object.assign(record.intent, { status: 'requires_payment_method', last_payment_error: error, payment_method: null, next_action: null });
    record.returnUrl = null;
    emit('payment_intent.payment_failed', record.intent);
  };

  return {
    create(params: FormParams): StripePaymentIntent {
      assertKnownParams(params, ['amount', 'currency', 'description', 'metadata', 'automatic_payment_methods', 'payment_method_types', 'expand']);
      const amount = readInteger(params, 'amount', true) as number;
      const currency = readCurrency(params, true) as string;
      const metadata = readStringMap(params, 'metadata');
      const types = readStringList(params, 'payment_method_types');
      const unsupported = types?.find((t) => t !== 'card');
      if (unsupported !== undefined) throw invalid(`The payment method type "${unsupported}" is invalid.`, { code: 'parameter_invalid', param: 'payment_method_types' });
      const enabled = readBoolean(readHash(params, 'automatic_payment_methods')?.['enabled'], 'automatic_payment_methods[enabled]');
      const id = `pi_${randomAlnum(24)}`;
      const intent: Mutable<StripePaymentIntent> = {
        id, object: 'payment_intent', amount, amount_received: 0, currency, description: readString(params, 'description') || null,
        status: 'requires_payment_method', client_secret: `${id}_secret_${randomAlnum(24)}`,
        metadata: metadata === 'clear' || metadata === undefined ? {} : { ...metadata }, created: nowSeconds(), livemode: false,
        last_payment_error: null, next_action: null, payment_method: null, latest_charge: null, canceled_at: null, cancellation_reason: null,
        // Recent API versions turn automatic payment methods on unless types are listed.
        automatic_payment_methods: types ? null : { enabled: enabled ?? true },
        payment_method_types: types ? [...types] : ['card'],
      };
      intents.set(id, { seq: intents.size, intent, returnUrl: null });
      emit('payment_intent.created', intent);
      return structuredClone(intent);
    },

    retrieve: (id: string): StripePaymentIntent => structuredClone(find(id).intent),

    update(id: string, params: FormParams): StripePaymentIntent {
      assertKnownParams(params, ['amount', 'currency', 'description', 'metadata', 'expand']);
      const { intent } = find(id);
      if (!UPDATABLE.includes(intent.status)) throw unexpectedState(intent, 'update', UPDATABLE);
      const [amount, currency, description] = [readInteger(params, 'amount', false), readCurrency(params, false), readString(params, 'description')];
      const metadata = readStringMap(params, 'metadata');
      if (amount !== undefined) intent.amount = amount;
      if (currency !== undefined) intent.currency = currency;
      if (description !== undefined) intent.description = description || null;
      if (metadata === 'clear') intent.metadata = {};
      else if (metadata !== undefined) {
        const merged = { ...intent.metadata, ...metadata };
        // Stripe: setting a key to "" removes it.
        intent.metadata = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== ''));
      }
      return structuredClone(intent);
    },

    list(params: FormParams): StripeList<StripePaymentIntent> {
      assertKnownParams(params, ['limit', 'starting_after', 'ending_before', 'created', 'expand']);
      const limit = readInteger(params, 'limit', false, 100) ?? 10;
      const matches = readRangeFilter(params, 'created');
      const newerFirst = (a: IntentRecord, b: IntentRecord) => b.intent.created - a.intent.created || b.seq - a.seq;
      let rows = [...intents.values()].filter((r) => matches(r.intent.created)).sort(newerFirst);
      const cursor = (param: string) => {
        const id = readString(params, param);
        return id === undefined ? undefined : find(id, param);
      };
      const [after, before] = [cursor('starting_after'), cursor('ending_before')];
      if (after) rows = rows.filter((r) => newerFirst(r, after) > 0);
      // ending_before pages towards newer intents: the `limit` closest to the cursor.
      if (before) rows = rows.filter((r) => newerFirst(r, before) < 0);
      const page = before ? rows.slice(-limit) : rows.slice(0, limit);
      return { object: 'list', data: page.map((r) => structuredClone(r.intent)), has_more: rows.length > limit, url: '/v1/payment_intents' };
    },

    cancel(id: string, params: FormParams): StripePaymentIntent {
      assertKnownParams(params, ['cancellation_reason', 'expand']);
      const reason = readChoice(params, 'cancellation_reason', ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned']);
      const record = find(id);
      const intent = record.intent;
      if (intent.status === 'succeeded' || intent.status === 'canceled') throw unexpectedState(intent, 'cancel', ['requires_payment_method', 'requires_confirmation', 'requires_action', 'processing']);
      Object.assign(intent, { status: 'canceled', canceled_at: clock(), cancellation_reason: reason ?? null, next_action: null });
      record.returnUrl = null;
      emit('payment_intent.canceled', intent);
      return structuredClone(intent);
    },

    /** Throws a 402 card error after recording a decline, as Stripe answers one. */
    confirm(id: string, params: FormParams): StripePaymentIntent {
      assertKnownParams(params, ['payment_method', 'return_url', 'expand']);
      const record = find(id);
      const { intent } = record;
      if (!CONFIRMABLE.includes(intent.status)) throw unexpectedState(intent, 'confirm', CONFIRMABLE);
      const method = readString(params, 'payment_method');
      if (method === undefined) throw invalid("You cannot confirm this PaymentIntent because it's missing a payment method.", { code: 'payment_intent_unexpected_state', param: 'payment_method' });
      const card = TEST_PAYMENT_METHODS.get(method);
      if (!card) throw missingResource('PaymentMethod', method, 'payment_method');
      const returnUrl = readHttpUrl(params, 'return_url');
      const paymentMethod = `pm_${randomAlnum(24)}`;
      if (card === 'succeeds') succeed(record, paymentMethod);
      else if (card === 'requires_action') {
        if (returnUrl === undefined) throw invalid('This payment method requires a redirect: provide a return_url.', { code: 'parameter_missing', param: 'return_url' });
        const next: StripeNextAction = { type: 'redirect_to_url', redirect_to_url: { url: options.actionUrl(id, returnUrl), return_url: returnUrl } };
        Object.assign(intent, { status: 'requires_action', payment_method: paymentMethod, next_action: next, last_payment_error: null });
        record.returnUrl = returnUrl;
        emit('payment_intent.requires_action', intent);
      } else {
        fail(record, DECLINED);
        throw new StripeDoubleError(402, { ...DECLINED, decline_code: 'generic_decline', payment_intent: structuredClone(intent) });
      }
      return structuredClone(intent);
    },

    /** Finish a 3-D Secure challenge of an intent in requires_action. */
    completeAction(id: string, outcome: 'succeeded' | 'failed'): StripePaymentIntent {
      const record = find(id);
      if (record.intent.status !== 'requires_action') throw unexpectedState(record.intent, 'authenticate', ['requires_action']);
      if (outcome === 'succeeded') succeed(record, record.intent.payment_method ?? `pm_${randomAlnum(24)}`);
      else fail(record, AUTH_FAILED);
      return structuredClone(record.intent);
    },

    refund(params: FormParams): StripeRefund {
      assertKnownParams(params, ['payment_intent', 'charge', 'amount', 'reason', 'metadata', 'expand']);
      readChoice(params, 'reason', ['duplicate', 'fraudulent', 'requested_by_customer']);
      readStringMap(params, 'metadata');
      const chargeId = readString(params, 'charge');
      const intentId = readString(params, 'payment_intent');
      if (intentId === undefined && chargeId === undefined) throw invalid('One of the following params should be provided for this request: payment_intent or charge.', { code: 'parameter_missing', param: 'payment_intent' });
      const charge = chargeId !== undefined ? charges.get(chargeId) : charges.get(find(intentId as string).intent.latest_charge ?? '');
      if (chargeId !== undefined && !charge) throw missingResource('charge', chargeId, 'charge');
      if (!charge) throw invalid(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`, { code: 'charge_not_refundable', param: 'payment_intent' });
      const remaining = charge.amount - charge.amount_refunded;
      if (remaining === 0) throw invalid(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
      const amount = readInteger(params, 'amount', false) ?? remaining;
      if (amount > remaining) throw invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`, { code: 'amount_too_large', param: 'amount' });
      charge.amount_refunded += amount;
      charge.refunded = charge.amount_refunded === charge.amount;
      const refund: StripeRefund = { id: `re_${randomAlnum(24)}`, object: 'refund', amount, charge: charge.id, currency: charge.currency, payment_intent: charge.payment_intent, status: 'succeeded', created: clock() };
      emit('charge.refunded', charge);
      emit('refund.created', refund);
      return refund;
    },

    charge: (id: string): StripeCharge | undefined => structuredClone(charges.get(id)),
    clientSecretOf: (id: string): string | undefined => intents.get(id)?.intent.client_secret,
    /** The return_url of an intent waiting for 3-D Secure, as confirm recorded it. */
    returnUrlOf: (id: string): string | null => intents.get(id)?.returnUrl ?? null,
    intents: (): StripePaymentIntent[] => [...intents.values()].map((r) => structuredClone(r.intent)),
    events: (): StripeEvent[] => structuredClone(events),
    event: (id: string): StripeEvent | undefined => structuredClone(events.find((e) => e.id === id)),
    /** Forget everything but the event sequence, so event ids stay unique across resets. */
    reset(): void {
      intents.clear();
      charges.clear();
      events.length = 0;
    },
  };
}
