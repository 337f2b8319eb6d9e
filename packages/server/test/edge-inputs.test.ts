/**
 * Inputs the fuzz suite's review found answered 500 or INTERNAL (issue #32 items 5 and 6), replayed
 * one by one: a correctly signed Stripe event that is not a readable event, and a GraphQL GET
 * whose operationName (or variables) parameter is present but empty.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentFixture, WEBHOOK_SECRET, type PaymentFixture } from './support/payment-fixture.js';
import { malformedStripeEvents, stripeSignature } from './support/stripe-event-inputs.js';

const DONOR = { name: 'Ann Donor', email: 'ann@example.test', gift: '25' };

describe('edge inputs found by fuzzing', () => {
  let f: PaymentFixture;
  const lines: string[] = [];
  beforeAll(async () => {
    f = await createPaymentFixture({ databaseUrl: null, logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } }, config: { log: { level: 'warn' } } });
  });
  afterAll(async () => {
    await f?.close();
  });

  /** Rows of the tables a webhook writes to. */
  async function stored(): Promise<{ events: number; submissions: number; status: string | undefined }> {
    const db = f.svc.context.database.db;
    const events = await db.selectFrom('svc_payment_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const payment = await db.selectFrom('svc_payments').select('status').executeTakeFirst();
    return { events: Number(events.n), submissions: await f.submissionCount('donation'), status: payment?.status };
  }

  describe('a signed Stripe event that is not a readable event', () => {
    let intentId: string;
    beforeAll(async () => {
      // A real checkpointed payment, so an event that slipped through would find it and store.
      f.double.autoDeliver(false);
      const created = await f.createIntent(DONOR);
      intentId = created.json<{ id: string }>().id;
      const integration = (await f.paymentConfig())['integration'];
      const checkpoint = await f.checkpoint('donation', { values: { ...DONOR, payment: intentId }, integration, paymentIntentId: intentId });
      expect(checkpoint.statusCode, checkpoint.body).toBe(200);
    });

    it('answers each with 400 PAYLOAD_INVALID, stores nothing, and logs why', async () => {
      const before = await stored();
      const answers: string[] = [];
      for (const [name, payload] of malformedStripeEvents(intentId)) {
        const logged = lines.length;
        const res = await f.svc.app.inject({
          method: 'POST',
          url: '/svc/payments/stripe/webhook',
          headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(payload, WEBHOOK_SECRET) },
          payload,
        });
        answers.push(`${name}: ${res.statusCode} ${res.body}`);
        expect(res.statusCode, name).toBe(400);
        expect(res.json(), name).toMatchObject({ success: false, code: 'PAYLOAD_INVALID', message: expect.stringContaining('webhook event') });
        expect(res.headers['x-request-id'], name).toBeDefined();
        const line = lines.slice(logged).find((l) => l.includes('signed event is malformed'));
        expect(line, `${name}: no log line`).toBeDefined();
        expect(JSON.parse(line as string)).toMatchObject({ level: 40, reason: expect.any(String) });
      }
      expect(await stored(), answers.join('\n')).toEqual(before);
    });

    it('still refuses a bad signature as WEBHOOK_SIGNATURE_INVALID, and takes a well-formed event', async () => {
      const payload = JSON.stringify({ id: 'evt_ok', object: 'event', type: 'customer.created', created: 2, data: { object: { id: 'cus_1', object: 'customer' } } });
      const forged = await f.svc.app.inject({
        method: 'POST',
        url: '/svc/payments/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(payload, 'whsec_wrong') },
        payload,
      });
      expect(forged.json()).toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID' });
      const taken = await f.svc.app.inject({
        method: 'POST',
        url: '/svc/payments/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(payload, WEBHOOK_SECRET) },
        payload,
      });
      expect(taken.statusCode, taken.body).toBe(200);
    });
  });

  describe('a GraphQL GET with an empty parameter', () => {
    it.each([
      '/graphql?query={__typename}&operationName=',
      '/graphql?query=query%20Q{__typename}&operationName=',
      '/graphql?query={__typename}&variables=',
      '/actions/graphql/api?query={__typename}&operationName=&variables=&extensions=',
    ])('treats it as absent: %s', async (url) => {
      const res = await f.svc.app.inject({ method: 'GET', url });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ data: { __typename: 'Query' } });
    });

    it('still refuses an operationName the document does not have', async () => {
      const res = await f.svc.app.inject({ method: 'GET', url: '/graphql?query=query%20Q{__typename}&operationName=R' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ errors: [{ extensions: { code: 'PAYLOAD_INVALID' } }] });
    });
  });
});
