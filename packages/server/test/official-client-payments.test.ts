/**
 * Card payments as the official Freeform Stripe extension makes them (contract §8, §12; issue #12):
 * from a page on another origin, the intent and amount requests carry `FF-STRIPE-INTEGRATION`
 * (so the browser preflights them), the checkpoint takes the submit body plus `integration` and
 * `paymentIntentId`, and the page ends on the brand-swapped callback with `stripe_token`. The
 * donation form runs against the local Stripe double, which plays Stripe.js's part.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCookieJarFetch } from '../../client/test/support/cookie-jar-fetch.js';
import { submissionCount } from '../../client/test/support/live-server.js';
import { startStripeDouble, type StripeDouble } from '../src/payments/stripe-double/stripe-double-server.js';
import { createOfficialClient, REACT_CLIENT, type OfficialForm } from './support/official-client.js';
import { createBrowserFetch } from './support/official-client-recorder.js';
import { useOfficialServer } from './support/official-client-server.js';
import { StripeExtensionWidget } from './support/official-client-stripe.js';

const PAGE_URL = 'http://localhost:5173/give';
const WEBHOOK_SECRET = 'whsec_test_official_client_payments_0123';
const DONOR = { name: 'Ann Donor', email: 'ann@example.test' };

let double: StripeDouble;
beforeAll(async () => {
  double = await startStripeDouble();
});
const server = useOfficialServer(PAGE_URL, () => ({
  headless: { forms: { donation: { exposeManifest: true, allowSubmit: true } } },
  payments: {
    stripe: { publishableKey: double.publishableKey, secretKey: double.secretKey, webhookSecret: WEBHOOK_SECRET, apiUrl: double.url, jsUrl: double.jsUrl },
    reconcileIntervalMinutes: 0,
  },
}));
beforeAll(() => {
  double.setWebhook({ url: `${server.live.baseUrl}/svc/payments/stripe/webhook`, secret: WEBHOOK_SECRET });
});
afterAll(async () => {
  await double?.close();
});

/** A page on http://localhost:5173 in its own browser: the browser adds Origin, the jar keeps cookies. */
async function openDonation(): Promise<OfficialForm> {
  const client = createOfficialClient({ baseUrl: server.live.baseUrl, fetch: createBrowserFetch(PAGE_URL, createCookieJarFetch().fetch), pageUrl: PAGE_URL });
  return client.open('donation');
}

function paymentRow(intentId: string) {
  return server.live.svc.context.database.db.selectFrom('svc_payments').selectAll().where('intent_id', '=', intentId).executeTakeFirst();
}

describe('official client: the Stripe extension against svc', () => {
  it('mounts, re-prices, checkpoints and pays $50 through the callback; one submission with its payment', async () => {
    double.autoDeliver(false); // the callback alone must finish it here
    try {
      const form = await openDonation();
      form.set(DONOR);
      const widget = await StripeExtensionWidget.mount(form, 'payment', double);
      expect(widget.message).toBeNull();
      const intentId = widget.paymentIntentId!;
      expect(form.state.values.payment).toBe(intentId);
      // The browser asked first, and svc granted the extension's headers to the page's origin.
      expect(widget.preflights[0]).toBe('/svc/payments/stripe/payment-intents content-type,ff-stripe-integration,x-csrf-token 204');

      const config = form.manifest.fields.payment!.frontend!.config as Record<string, unknown>;
      const [create] = form.client.recorder.matching('POST', '/payment-intents');
      expect(create!.headers).toMatchObject({ 'ff-stripe-integration': config.integration, 'x-csrf-token': expect.any(String) });
      expect(create!.json).toEqual({ values: expect.objectContaining({ gift: '25' }), integration: config.integration, site: '' });
      expect([create!.status, create!.answer]).toEqual([201, expect.objectContaining({ id: intentId, secret: expect.stringMatching(/^pi_.+_secret_/) })]);
      expect(double.intent(intentId)!.amount).toBe(2500);

      form.set({ gift: '50' });
      await widget.amountFieldChanged();
      expect(widget.amountError).toBeNull();
      const amount = form.client.recorder.matching('POST', '/amount').at(-1)!;
      expect(amount.answer).not.toHaveProperty('client_secret'); // to the extension one means "re-enter the card"
      expect(double.intent(intentId)!.amount).toBe(5000);

      const before = await submissionCount(server.live.svc, 'donation');
      const outcome = await widget.beforeSubmit('submit', 'succeeds');
      expect(outcome).toEqual({ kind: 'navigate', url: expect.stringContaining('/svc/payments/stripe/callback?') });
      const checkpoint = form.client.recorder.matching('POST', '/payments/stripe/checkpoint').at(-1)!;
      expect(checkpoint.headers).not.toHaveProperty('ff-stripe-integration');
      expect(checkpoint.json).toMatchObject({
        values: { ...DONOR, gift: '50', payment: intentId },
        intent: 'submit',
        context: { sourceUrl: PAGE_URL },
        meta: { client: REACT_CLIENT, honeypot: expect.any(Object) },
        integration: config.integration,
        paymentIntentId: intentId,
      });
      expect(checkpoint.status).toBe(200);
      // Nothing is stored before the page reaches the callback.
      expect(await submissionCount(server.live.svc, 'donation')).toBe(before);

      const url = new URL((outcome as { url: string }).url);
      expect(Object.fromEntries(url.searchParams)).toEqual({ integration: config.integration, stripe_token: intentId, payment_intent: intentId });
      const landed = await widget.navigate(url.toString());
      expect(landed.status).toBe(200);
      expect(await landed.text()).toContain('Thank you for your donation!');
      expect(await submissionCount(server.live.svc, 'donation')).toBe(before + 1);
      expect(await paymentRow(intentId)).toMatchObject({ amount: 5000, currency: 'usd', status: 'succeeded' });
      // The page reloaded: the callback again finds it done.
      expect((await widget.navigate(url.toString())).status).toBe(200);
      expect(await submissionCount(server.live.svc, 'donation')).toBe(before + 1);
    } finally {
      double.autoDeliver(true);
    }
  });

  it('next, back, validate and saveDraft never charge; only the submit intent runs the payment', async () => {
    const form = await openDonation();
    const widget = await StripeExtensionWidget.mount(form, 'payment', double);
    const calls = form.client.recorder.calls.length;
    for (const intent of ['next', 'back', 'validate', 'saveDraft'] as const) expect(await widget.beforeSubmit(intent, 'succeeds')).toEqual({ kind: 'skipped' });
    expect(form.client.recorder.calls.length).toBe(calls);
    expect(double.intent(widget.paymentIntentId!)!.status).toBe('requires_payment_method');
  });

  it('a form the checkpoint refuses becomes the message the extension shows, and the card is not charged', async () => {
    const form = await openDonation();
    form.set({ name: 'Ann Donor' }); // no email
    const widget = await StripeExtensionWidget.mount(form, 'payment', double);
    const outcome = await widget.beforeSubmit('submit', 'succeeds');
    expect(form.client.recorder.matching('POST', '/payments/stripe/checkpoint').at(-1)!.status).toBe(422);
    expect(outcome).toEqual({ kind: 'error', message: 'Please correct the errors below. Email for the receipt: This field is required.' });
    expect(double.intent(widget.paymentIntentId!)!.status).toBe('requires_payment_method');
  });

  it("a declined card ends with Stripe's message and nothing stored", async () => {
    const form = await openDonation();
    form.set(DONOR);
    const widget = await StripeExtensionWidget.mount(form, 'payment', double);
    const before = await submissionCount(server.live.svc, 'donation');
    const outcome = await widget.beforeSubmit('submit', 'declined');
    expect(outcome).toEqual({ kind: 'error', message: expect.stringMatching(/declined/i) });
    await double.settled();
    expect(await submissionCount(server.live.svc, 'donation')).toBe(before);
  });

  it("after 3-D Secure, Stripe's return to the callback (and the webhook racing it) stores exactly one submission", async () => {
    const form = await openDonation();
    form.set({ ...DONOR, gift: '10' });
    const widget = await StripeExtensionWidget.mount(form, 'payment', double);
    const before = await submissionCount(server.live.svc, 'donation');
    const outcome = await widget.beforeSubmit('submit', 'requires_action');
    if (outcome.kind !== 'challenge') throw new Error(`expected a challenge, got ${JSON.stringify(outcome)}`);
    const paid = await double.completeAction(outcome.intentId, 'succeeded');
    const back = StripeExtensionWidget.challengeReturn(outcome, paid.client_secret, 'succeeded');
    const landed = await widget.navigate(back);
    expect(landed.status).toBe(200);
    await double.settled();
    expect(await submissionCount(server.live.svc, 'donation')).toBe(before + 1);
    expect(await paymentRow(outcome.intentId)).toMatchObject({ amount: 1000, status: 'succeeded' });
  });

  it('a failed challenge returns to the callback, which says so and stores nothing', async () => {
    const form = await openDonation();
    form.set(DONOR);
    const widget = await StripeExtensionWidget.mount(form, 'payment', double);
    const before = await submissionCount(server.live.svc, 'donation');
    const outcome = await widget.beforeSubmit('submit', 'requires_action');
    if (outcome.kind !== 'challenge') throw new Error(`expected a challenge, got ${JSON.stringify(outcome)}`);
    const failed = await double.completeAction(outcome.intentId, 'failed');
    const landed = await widget.navigate(StripeExtensionWidget.challengeReturn(outcome, failed.client_secret, 'failed'));
    expect(landed.status).toBe(402);
    expect(await landed.text()).toContain('Nothing was submitted');
    await double.settled();
    expect(await submissionCount(server.live.svc, 'donation')).toBe(before);
  });
});
