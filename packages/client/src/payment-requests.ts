/**
 * Card payments from the browser (issue #12, contract §8 and §12): a payment field's config from
 * the manifest and the three requests the official Stripe extension makes (create intent, update
 * amount, checkpoint), sent through the session's own client so CSRF, retries and SvcClientError
 * are the ones every other request uses. Published as `@svc/client/payments`, apart from the main
 * entry, so pages without payments do not download it.
 */
import { fieldTypeFromWire } from '@svc/core';
import { SvcClientError } from './client-error.js';
import type { FormSession } from './form-session.js';
import type { Manifest, ManifestField, SubmitResponse } from './manifest-types.js';
import type { SvcClient } from './svc-client.js';

/**
 * What a payment field's `frontend.config` tells a client; URLs are relative to the service.
 *
 * @example
 * const config: PaymentConfig = paymentConfigOf(manifest.fields.payment!);
 * if (config.publishableKey === null) showNotConfigured();
 */
export interface PaymentConfig {
  /** The payment field's handle; its value in `values` is the intent id. */
  readonly handle: string;
  /** null when the service has no Stripe keys: nothing can be paid. */
  readonly publishableKey: string | null;
  /** Where Stripe.js is loaded from (js.stripe.com, or the service's offline double). */
  readonly scriptUrl: string | null;
  /** The signed name of this form's payment field, sent with every payment request. */
  readonly integration: string | null;
  readonly intentUrl: string;
  /** Has `{paymentIntentId}` in it. */
  readonly amountUrlTemplate: string;
  readonly checkpointUrl: string;
  readonly callbackUrl: string;
  /** Handles of the fields the amount comes from; a change to one should update the intent. */
  readonly amountFields: readonly string[];
  readonly currency: string;
  /** Stripe Elements appearance: `stripe`, `night` or `flat`, and `tabs` / `accordion` layouts. */
  readonly theme: string;
  readonly layout: string;
  readonly floatingLabels: boolean;
}

/**
 * A payment intent as the service made it; `amount` is in minor units (2500 = $25.00).
 *
 * @example
 * const { id, secret }: PaymentIntent = await createPaymentIntent(form, config);
 */
export interface PaymentIntent {
  readonly id: string;
  /** The client secret Stripe.js needs (`stripe.elements({ clientSecret })`). */
  readonly secret: string;
  readonly amount: number;
  readonly currency: string;
}

/**
 * The form's payment field (a form has at most one), or null.
 *
 * @example
 * const field = paymentFieldOf(form.manifest); // manifest.fields.payment, wire type `stripe`
 */
export function paymentFieldOf(manifest: Manifest): ManifestField | null {
  return Object.values(manifest.fields).find((field) => fieldTypeFromWire(field.type) === 'payment') ?? null;
}

/**
 * @example
 * const config = paymentConfigOf(paymentFieldOf(manifest)!);
 * console.log(config.currency, config.amountFields); // 'usd', ['gift']
 */
export function paymentConfigOf(field: ManifestField): PaymentConfig {
  const config = field.frontend.config;
  const text = (name: string, fallback: string) => (typeof config[name] === 'string' ? (config[name] as string) : fallback);
  const nullable = (name: string) => (typeof config[name] === 'string' && config[name] !== '' ? (config[name] as string) : null);
  return {
    handle: field.handle,
    publishableKey: nullable('publishableKey'),
    scriptUrl: nullable('scriptUrl'),
    integration: nullable('integration'),
    intentUrl: text('intentUrl', '/svc/payments/stripe/payment-intents'),
    amountUrlTemplate: text('amountUrlTemplate', '/svc/payments/stripe/payment-intents/{paymentIntentId}/amount'),
    checkpointUrl: text('checkpointUrl', ''),
    callbackUrl: text('callbackUrl', '/svc/payments/stripe/callback'),
    amountFields: Array.isArray(config.amountFields) ? config.amountFields.filter((h): h is string => typeof h === 'string') : [],
    currency: text('currency', 'usd'),
    theme: text('theme', 'stripe'),
    layout: text('layout', 'tabs'),
    floatingLabels: config.floatingLabels === true,
  };
}

/** POSTs `{values, integration, site}` as the official extension does; the amount is the server's to compute. */
function postIntentRoute<T>(session: FormSession, config: PaymentConfig, url: string): Promise<T> {
  // Only the body names the integration: the extension's FF-STRIPE-INTEGRATION header would need a
  // CORS grant the service does not give, and the service reads the body first anyway.
  const body = JSON.stringify({ values: session.values, integration: config.integration, site: '' });
  return session.client
    .withCsrf((csrf) =>
      session.client.transport.json<T>(url, {
        method: 'POST',
        // One key per call: a retry after a lost answer replays it instead of making a second intent.
        idempotent: true,
        headers: { 'content-type': 'application/json', 'idempotency-key': globalThis.crypto.randomUUID(), ...(csrf ? { 'x-csrf-token': csrf.value } : {}) },
        body,
      }),
    )
    .then(({ body: answer }) => answer);
}

/**
 * Makes the intent for the session's payment field, for the amount its current values give (or the
 * smallest allowed until one is chosen). Throws SvcClientError (`PAYMENTS_NOT_CONFIGURED`,
 * `PAYMENT_GATEWAY_UNAVAILABLE`, …) when refused.
 *
 * @example
 * const intent = await createPaymentIntent(form, config);
 * const elements = stripe.elements({ clientSecret: intent.secret });
 */
export async function createPaymentIntent(session: FormSession, config: PaymentConfig): Promise<PaymentIntent> {
  const { id, secret, amount, currency } = await postIntentRoute<PaymentIntent>(session, config, config.intentUrl);
  return { id, secret, amount, currency };
}

/**
 * Asks the service to charge what the session's values now give. Throws SvcClientError
 * `PAYMENT_AMOUNT_INVALID` with a readable message ("Choose an amount to pay") when they give none.
 *
 * @example
 * const { amount } = await updatePaymentAmount(form, config, intent.id); // 5000 after choosing $50
 * await elements.fetchUpdates();
 */
export async function updatePaymentAmount(session: FormSession, config: PaymentConfig, intentId: string): Promise<Omit<PaymentIntent, 'secret'>> {
  const url = config.amountUrlTemplate.replace('{paymentIntentId}', encodeURIComponent(intentId));
  const { id, amount, currency } = await postIntentRoute<PaymentIntent>(session, config, url);
  return { id, amount, currency };
}

/**
 * The final submit before paying: the service validates the whole form as a submit and keeps it
 * until the payment completes. Resolves with null when it was accepted (go on and confirm the
 * payment), or with the refusal's submit object, to be shown like a failed submit. Files picked for
 * plain file inputs are uploaded first, since the checkpoint takes JSON only.
 *
 * @example
 * const refusal = await checkpointPayment(form, config, intent.id);
 * if (refusal) showErrors(refusal.errors.fields);
 * else await stripe.confirmPayment({ elements, confirmParams: { return_url }, redirect: 'if_required' });
 */
export async function checkpointPayment(session: FormSession, config: PaymentConfig, intentId: string): Promise<SubmitResponse | null> {
  if (session.cellFiles.size > 0) {
    throw new SvcClientError('FILES_UNSUPPORTED', 'Files in table cells cannot be sent with a payment; remove them or use a file field.');
  }
  for (const [handle, files] of [...session.files]) {
    for (const file of files) await session.upload(handle, file);
    session.setFiles(handle, []);
  }
  // contract §12: the payment field's value is its intent, as the official extension sets it.
  session.setValue(config.handle, intentId);
  return session.submitTo(config.checkpointUrl, { integration: config.integration, paymentIntentId: intentId });
}

/**
 * Where Stripe sends the payer after a 3-D Secure challenge: the service's callback, naming the
 * field (`integration`) and the intent (`stripe_token`, as the official extension does).
 *
 * @example
 * paymentReturnUrl(client, config, 'pi_123');
 * // 'https://forms.example.com/svc/payments/stripe/callback?integration=…&stripe_token=pi_123'
 */
export function paymentReturnUrl(client: Pick<SvcClient, 'transport'>, config: Pick<PaymentConfig, 'callbackUrl' | 'integration'>, intentId: string): string {
  const url = new URL(client.transport.url(config.callbackUrl));
  url.searchParams.set('integration', config.integration ?? '');
  url.searchParams.set('stripe_token', intentId);
  return url.toString();
}

/**
 * The return URL for a payment that succeeded without a redirect: the browser goes there itself,
 * with `payment_intent` added as Stripe adds it after a redirect, and the callback stores the
 * submission and shows (or redirects to) the outcome.
 *
 * @example
 * location.assign(paymentCompletionUrl(returnUrl, 'pi_123')); // …&stripe_token=pi_123&payment_intent=pi_123
 */
export function paymentCompletionUrl(returnUrl: string, intentId: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('payment_intent', intentId);
  return url.toString();
}
