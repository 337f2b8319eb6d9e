/**
 * What a payment field tells a client (issue #12, contract §12): the `frontend.config` keys the
 * official Stripe extension reads, and the routes block. Never a secret: the publishable key and
 * the signed integration name are public by design.
 */
import type { Field, Form, PaymentField } from '@svc/core';

export interface PaymentManifestOptions {
  readonly publishableKey: string | null;
  /** Where <svc-form> loads Stripe.js from (`payments.stripe.jsUrl`). */
  readonly jsUrl: string;
  integration(form: Form, field: Field): string;
}

export const PAYMENT_ROUTES = {
  intents: '/svc/payments/stripe/payment-intents',
  amount: '/svc/payments/stripe/payment-intents/{paymentIntentId}/amount',
  webhook: '/svc/payments/stripe/webhook',
  callback: '/svc/payments/stripe/callback',
  checkpoint: (handle: string) => `/svc/api/forms/${handle}/payments/stripe/checkpoint`,
} as const;

/** The payment field of a form, if it has one (a form has at most one: `svc forms check`). */
export function paymentFieldOf(form: Form): (Field & PaymentField) | null {
  return (form.fields.find((f) => f.type === 'payment') as (Field & PaymentField) | undefined) ?? null;
}

export function paymentFrontendConfig(form: Form, field: Field & PaymentField, options: PaymentManifestOptions | null): Record<string, unknown> {
  return {
    gateway: field.gateway,
    publishableKey: options?.publishableKey ?? null,
    scriptUrl: options?.jsUrl ?? null,
    integration: options ? options.integration(form, field) : null,
    intentUrl: PAYMENT_ROUTES.intents,
    amountUrlTemplate: PAYMENT_ROUTES.amount,
    checkpointUrl: PAYMENT_ROUTES.checkpoint(form.handle),
    callbackUrl: PAYMENT_ROUTES.callback,
    amountFields: field.amountFields ?? [],
    currency: field.currency,
    theme: field.theme ?? 'stripe',
    layout: field.layout ?? 'tabs',
    floatingLabels: field.floatingLabels ?? false,
  };
}

/** The `endpoints.payments` block of a form with a payment field. */
export function paymentEndpoints(form: Form) {
  return {
    gateway: 'stripe',
    intent: { method: 'POST', url: PAYMENT_ROUTES.intents },
    amount: { method: 'POST', url: PAYMENT_ROUTES.amount },
    checkpoint: { method: 'POST', url: PAYMENT_ROUTES.checkpoint(form.handle) },
    callback: { method: 'GET', url: PAYMENT_ROUTES.callback },
  };
}
