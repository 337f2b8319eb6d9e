/**
 * `@svc/client/payments` against a real listening svc wired to the local Stripe double (issue #12):
 * the intent is made and re-priced through the client's own transport and CSRF, the checkpoint is
 * the session's submit body on another route, and the callback stores the paid submission once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeDouble, type StripeDouble } from '../../server/src/payments/stripe-double/stripe-double-server.js';
import { createClient, SvcClientError } from '../src/index.js';
import {
  checkpointPayment, createPaymentIntent, paymentCompletionUrl, paymentConfigOf, paymentFieldOf, paymentReturnUrl, updatePaymentAmount,
} from '../src/payment-requests.js';
import { createCookieJarFetch } from './support/cookie-jar-fetch.js';
import { probedClient, startLiveServer, submissionCount, type LiveServer } from './support/live-server.js';

const WEBHOOK_SECRET = 'whsec_test_client_payments_0123456789';
const DONOR = { name: 'Ann Donor', email: 'ann@example.test', gift: '25' };

let live: LiveServer;
let double: StripeDouble;
beforeAll(async () => {
  double = await startStripeDouble();
  live = await startLiveServer({
    config: {
      headless: { forms: { donation: { exposeManifest: true, allowSubmit: true } } },
      payments: {
        stripe: { publishableKey: double.publishableKey, secretKey: double.secretKey, webhookSecret: WEBHOOK_SECRET, apiUrl: double.url, jsUrl: double.jsUrl },
        reconcileIntervalMinutes: 0,
      },
    },
  });
  // Events are created but not posted: the callback alone must finish the payment here.
  double.autoDeliver(false);
});
afterAll(async () => {
  await live?.close();
  await double?.close();
});

async function donationSession() {
  const probed = probedClient(live.baseUrl);
  const session = await probed.client.session('donation');
  const field = paymentFieldOf(session.manifest);
  if (!field) throw new Error('the donation form has no payment field');
  return { ...probed, session, config: paymentConfigOf(field) };
}

describe('@svc/client payments', () => {
  it('finds the payment field and its Stripe config in the manifest', async () => {
    const { config } = await donationSession();
    expect(config).toMatchObject({ handle: 'payment', publishableKey: double.publishableKey, scriptUrl: double.jsUrl, currency: 'usd', amountFields: ['otherAmount', 'gift'] });
    expect(typeof config.integration).toBe('string');
  });

  it('creates an intent for the chosen amount with CSRF and the integration in the body, and re-prices it', async () => {
    const { session, config, probe } = await donationSession();
    for (const [handle, value] of Object.entries(DONOR)) session.setValue(handle, value);
    const intent = await createPaymentIntent(session, config);
    expect(intent).toMatchObject({ amount: 2500, currency: 'usd' });
    expect(intent.secret).toContain('_secret_');
    const [sent] = probe.matching('POST', '/svc/payments/stripe/payment-intents');
    expect(sent?.headers.get('x-csrf-token')).toBeTruthy();
    expect(JSON.parse(String(sent?.body))).toEqual({ values: DONOR, integration: config.integration, site: '' });

    session.setValue('gift', '50');
    expect(await updatePaymentAmount(session, config, intent.id)).toEqual({ id: intent.id, amount: 5000, currency: 'usd' });
    expect(double.intent(intent.id)?.amount).toBe(5000);

    session.setValue('gift', 'other');
    const refusal = await updatePaymentAmount(session, config, intent.id).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SvcClientError);
    expect(refusal).toMatchObject({ code: 'PAYMENT_AMOUNT_INVALID', status: 422, message: 'Choose an amount to pay' });
  });

  it('checks the form locally before a checkpoint, as submit() does, and asks the server nothing when it fails', async () => {
    const { session, config, probe } = await donationSession();
    for (const [handle, value] of Object.entries({ ...DONOR, email: 'not an email' })) session.setValue(handle, value);
    const intent = await createPaymentIntent(session, config);
    const local = await checkpointPayment(session, config, intent.id);
    expect(local).toMatchObject({ success: false, status: 'validation_failed' });
    expect(local?.errors.fields.email).toBeDefined();
    expect(probe.matching('POST', '/payments/stripe/checkpoint')).toHaveLength(0);
  });

  it('sends the submit body to the checkpoint and absorbs its 422 like a failed submit', async () => {
    const jar = createCookieJarFetch();
    const sent: Record<string, unknown>[] = [];
    const headers: Headers[] = [];
    // The server must refuse what local validation let through: the body is spoiled on its way out.
    const spoiling: typeof fetch = (input, init) => {
      if (!String(input).endsWith('/payments/stripe/checkpoint') || typeof init?.body !== 'string') return jar.fetch(input, init);
      const body = JSON.parse(init.body) as { values: Record<string, unknown> };
      sent.push(structuredClone(body));
      headers.push(new Headers(init.headers));
      return jar.fetch(input, { ...init, body: JSON.stringify({ ...body, values: { ...body.values, email: 'not an email' } }) });
    };
    const session = await createClient({ baseUrl: live.baseUrl, fetch: spoiling }).session('donation');
    const config = paymentConfigOf(paymentFieldOf(session.manifest)!);
    for (const [handle, value] of Object.entries(DONOR)) session.setValue(handle, value);
    const intent = await createPaymentIntent(session, config);

    const refusal = await checkpointPayment(session, config, intent.id);
    expect(refusal).toMatchObject({ success: false, status: 'validation_failed' });
    expect(refusal?.errors.fields.email).toBeDefined();
    expect(session.errors.fields.email).toEqual(refusal?.errors.fields.email);
    expect(sent[0]).toMatchObject({ intent: 'submit', integration: config.integration, paymentIntentId: intent.id, values: { ...DONOR, payment: intent.id } });
    expect(Object.keys(sent[0]?.meta as object)).toEqual(expect.arrayContaining(['honeypot', 'javascriptTest']));
    expect(headers[0]?.get('x-csrf-token')).toBeTruthy();
    expect(await submissionCount(live.svc, 'donation')).toBe(0);
  });

  it('refuses a checkpoint whose values give no amount with PAYMENT_AMOUNT_INVALID', async () => {
    const { session, config } = await donationSession();
    for (const [handle, value] of Object.entries({ ...DONOR, gift: 'other' })) session.setValue(handle, value);
    const intent = await createPaymentIntent(session, config);
    const refusal = await checkpointPayment(session, config, intent.id).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SvcClientError);
    expect(refusal).toMatchObject({ code: 'PAYMENT_AMOUNT_INVALID', message: 'Choose an amount to pay' });
  });

  it('checkpoints a valid form, and the callback after a successful payment stores exactly one submission', async () => {
    const { session, config, jar, client } = await donationSession();
    for (const [handle, value] of Object.entries(DONOR)) session.setValue(handle, value);
    const intent = await createPaymentIntent(session, config);
    expect(await checkpointPayment(session, config, intent.id)).toBeNull();
    expect(session.values.payment).toBe(intent.id);
    const before = await submissionCount(live.svc, 'donation');

    await double.confirm(intent.id, 'succeeds');
    const returnUrl = paymentReturnUrl(client, config, intent.id);
    expect(returnUrl.startsWith(`${live.baseUrl}/svc/payments/stripe/callback?`)).toBe(true);
    const landing = await jar.fetch(paymentCompletionUrl(returnUrl, intent.id), { redirect: 'manual' });
    expect(landing.status, await landing.clone().text()).toBeLessThan(400);
    await landing.text();
    expect(await submissionCount(live.svc, 'donation')).toBe(before + 1);

    // A second landing (a reload of the thank-you page) stores nothing more.
    await (await jar.fetch(paymentCompletionUrl(returnUrl, intent.id), { redirect: 'manual' })).text();
    expect(await submissionCount(live.svc, 'donation')).toBe(before + 1);
  });
});
