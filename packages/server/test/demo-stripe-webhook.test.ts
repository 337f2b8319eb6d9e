/**
 * The demo's Stripe webhook secret (issue #31 item 8): without Stripe keys the demo runs the
 * offline Stripe double, and a configured `payments.stripe.webhookSecret` is the one both sides
 * use, so an owner can sign events with it and see them accepted.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Stripe from 'stripe';
import { createTestApp, type TestApp } from './support/test-app.js';

const OWN_SECRET = 'whsec_owner_demo_0123456789abcdefghijklmnop';
const DONOR = { name: 'Ann Donor', email: 'ann@example.test', gift: '25' };

describe('the demo with a configured Stripe webhook secret', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({
      demo: true,
      config: {
        headless: { forms: { donation: { exposeManifest: true, allowSubmit: true } } },
        payments: { stripe: { webhookSecret: OWN_SECRET }, reconcileIntervalMinutes: 0 },
      },
    });
    // Listening points the double's deliveries at this app (payments-feature.ts).
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const webhook = (payload: string, signature: string) =>
    svc.app.inject({ method: 'POST', url: '/svc/payments/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload });

  it('accepts an event the owner signed with the configured secret, and refuses one signed with another', async () => {
    const payload = JSON.stringify({ id: 'evt_owner_1', object: 'event', type: 'customer.created', created: 1, data: { object: { id: 'cus_1', object: 'customer' } } });
    const own = await webhook(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: OWN_SECRET }));
    expect(own.statusCode, own.body).toBe(200);
    const other = await webhook(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else_0123456789abcdef' }));
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID' });
  });

  it("still verifies the double's own deliveries: a paid donation becomes one submission through the webhook", async () => {
    const config = (await svc.manifest('donation'))['fields'] as Record<string, { type: string; frontend: { config: Record<string, unknown> } }>;
    const payment = Object.values(config).find((field) => field.type === 'stripe')?.frontend.config ?? {};
    const integration = String(payment['integration']);
    const { token, cookie } = await svc.csrf();
    const headers = { 'content-type': 'application/json', 'x-csrf-token': token, cookie };
    const created = await svc.app.inject({ method: 'POST', url: '/svc/payments/stripe/payment-intents', headers: { ...headers, 'ff-stripe-integration': integration }, payload: JSON.stringify({ values: DONOR, integration, site: '' }) });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: string }>();
    const held = await svc.app.inject({
      method: 'POST',
      url: '/svc/api/forms/donation/payments/stripe/checkpoint',
      headers,
      payload: JSON.stringify({ intent: 'submit', context: {}, values: { ...DONOR, payment: id }, integration, paymentIntentId: id, meta: await svc.meta('donation') }),
    });
    expect(held.statusCode, held.body).toBe(200);
    // The customer pays at the double (its API beside the fake Stripe.js the manifest names).
    const double = new URL(String(payment['scriptUrl']));
    const stripe = new Stripe('sk_test_svc_double', { host: double.hostname, port: Number(double.port), protocol: 'http', maxNetworkRetries: 0 });
    await stripe.paymentIntents.confirm(id, { payment_method: 'pm_card_visa' });
    // Only the webhook stores it here (no return callback is made), and only if its signature verified.
    const db = svc.context.database.db;
    await vi.waitFor(
      async () => {
        const row = await db.selectFrom('svc_payments').select(['status', 'submission_id']).where('intent_id', '=', id).executeTakeFirst();
        expect(row).toMatchObject({ status: 'succeeded' });
        expect(row?.submission_id).not.toBeNull();
      },
      { timeout: 10_000, interval: 50 },
    );
  });
});
