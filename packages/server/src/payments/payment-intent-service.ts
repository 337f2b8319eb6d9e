/**
 * Creating a payment intent and keeping its amount current (issue #12). The amount is always
 * computed here from the form definition and the posted values; a client never names one.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_MIN_AMOUNT, SvcError, toMinorUnits } from '@svc/core';
import { GatewayRefusedError } from './payment-gateway.js';
import { amountForRaw, gatewayOf, resolveIntegration, type PaidField, type PaymentContext } from './payment-context.js';
import { findPayment, insertPayment, updatePaymentAmount, type PaymentRow } from './payment-repository.js';
import { browserBindingHash } from '../security/browser-binding.js';

const INTENT_ID = /^[A-Za-z0-9_]{3,255}$/;

/** Whether `value` has the shape of a payment intent id (the callback's query and posted ids alike). */
export function isIntentId(value: unknown): value is string {
  return typeof value === 'string' && INTENT_ID.test(value);
}

/**
 * A posted payment intent id, checked for shape. Here, beside the intents, so the payment routes
 * and the classic post both read it without the classic room importing a route module.
 */
export function intentIdOf(value: unknown): string {
  if (!isIntentId(value)) throw new SvcError('PAYLOAD_INVALID', '`paymentIntentId` must be a payment intent id.');
  return value;
}

export interface IntentAnswer {
  readonly id: string;
  readonly secret: string;
  readonly amount: number;
  readonly currency: string;
}

/** Until an amount is chosen the intent carries the smallest one the field allows; checkpoint checks the real one. */
function openingAmount(field: PaidField): number {
  return toMinorUnits(field.amount ?? field.minAmount ?? DEFAULT_MIN_AMOUNT, field.currency);
}

/**
 * Only the browser that created an intent may re-price or checkpoint it (issue #32): its id shows
 * in return URLs and Referers, and a checkpoint names the values the paid submission stores. A
 * payment made by a client without the binding cookie (CSRF turned off) has no owner to check.
 */
export function assertPaymentOwner(payment: PaymentRow, browser: string | undefined): void {
  if (payment.ownerHash !== null && payment.ownerHash !== browserBindingHash(browser)) {
    throw new SvcError('PAYMENT_NOT_OWNED', 'This payment was started by another browser.');
  }
}

export async function createPaymentIntent(
  ctx: PaymentContext,
  input: { integration: unknown; values: Readonly<Record<string, unknown>>; idempotencyKey?: string; browser?: string },
): Promise<IntentAnswer> {
  const { form, field, token } = resolveIntegration(ctx, input.integration);
  const gateway = gatewayOf(ctx);
  const computed = amountForRaw(form, field, input.values);
  const amount = computed.ok ? computed.minor : openingAmount(field);
  const description = (field.description ?? '{form}').replaceAll('{form}', form.name);
  const intent = await gateway.createIntent({
    amount,
    currency: field.currency,
    description,
    metadata: { integration: token, form: form.handle, field: field.handle as string },
    idempotencyKey: input.idempotencyKey ?? randomUUID(),
  });
  await insertPayment(ctx.db, {
    intentId: intent.id,
    gateway: gateway.name,
    formId: form.id,
    fieldHandle: field.handle as string,
    amount: intent.amount,
    currency: intent.currency,
    status: intent.status,
    at: ctx.now().toISOString(),
    ownerHash: browserBindingHash(input.browser),
  });
  if (!intent.clientSecret) throw new SvcError('PAYMENT_GATEWAY_UNAVAILABLE');
  return { id: intent.id, secret: intent.clientSecret, amount: intent.amount, currency: intent.currency };
}

export async function updatePaymentIntentAmount(
  ctx: PaymentContext,
  input: { intentId: string; integration: unknown; values: Readonly<Record<string, unknown>>; browser?: string },
): Promise<{ id: string; amount: number; currency: string }> {
  const { form, field } = resolveIntegration(ctx, input.integration);
  const payment = await findPayment(ctx.db, input.intentId);
  if (!payment || payment.formId !== form.id || payment.fieldHandle !== field.handle) throw new SvcError('PAYMENT_NOT_OWNED');
  assertPaymentOwner(payment, input.browser);
  const computed = amountForRaw(form, field, input.values);
  if (!computed.ok) throw new SvcError('PAYMENT_AMOUNT_INVALID', computed.message);
  if (payment.finalisedAt !== null) throw new SvcError('PAYMENT_UNVERIFIED', 'This payment is already complete.');
  if (payment.amount === computed.minor) return { id: payment.intentId, amount: payment.amount, currency: payment.currency };
  try {
    const intent = await gatewayOf(ctx).updateIntentAmount(payment.intentId, computed.minor, field.currency);
    await updatePaymentAmount(ctx.db, payment.intentId, intent.amount, ctx.now().toISOString());
    return { id: intent.id, amount: intent.amount, currency: intent.currency };
  } catch (error) {
    // The gateway refuses to change an intent that is paid or cancelled.
    if (error instanceof GatewayRefusedError) throw new SvcError('PAYMENT_UNVERIFIED', 'This payment can no longer be changed.');
    throw error;
  }
}
