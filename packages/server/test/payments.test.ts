/**
 * Card payments (issue #12, contract §8): the intent routes, the checkpoint, the signed webhook and
 * the return callback against the local Stripe double, through the real `stripe` SDK, on SQLite and
 * PostgreSQL. Whatever arrives first makes exactly one submission; nothing else makes any.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { describeEachDialect } from './support/dialects.js';
import { createPaymentFixture, WEBHOOK_SECRET, type PaymentFixture } from './support/payment-fixture.js';
import { findSubmission } from '../src/submissions/submission-repository.js';

const DONOR = { name: 'Ann Donor', email: 'ann@example.test', gift: '25' };

describeEachDialect('payments', (target) => {
  let f: PaymentFixture;
  beforeAll(async () => {
    f = await createPaymentFixture({ databaseUrl: target.url() });
  });
  afterAll(async () => {
    await f?.close();
  });

  /** Create an intent, checkpoint it with `values`, and return its id. */
  async function checkpointed(values: Record<string, unknown> = DONOR): Promise<string> {
    const created = await f.createIntent(values);
    expect(created.statusCode).toBe(201);
    const { id } = created.json<{ id: string }>();
    const integration = (await f.paymentConfig())['integration'];
    const res = await f.checkpoint('donation', { values: { ...values, payment: id }, integration, paymentIntentId: id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { paymentIntentId: id } });
    return id;
  }

  async function paymentRow(intentId: string) {
    return f.svc.context.database.db.selectFrom('svc_payments').selectAll().where('intent_id', '=', intentId).executeTakeFirst();
  }

  describe('the manifest', () => {
    it('gives the payment field what the official Stripe extension reads, and no secret', async () => {
      const config = await f.paymentConfig();
      expect(config).toMatchObject({
        publishableKey: f.double.publishableKey,
        intentUrl: '/svc/payments/stripe/payment-intents',
        amountUrlTemplate: '/svc/payments/stripe/payment-intents/{paymentIntentId}/amount',
        checkpointUrl: '/svc/api/forms/donation/payments/stripe/checkpoint',
        amountFields: ['otherAmount', 'gift'],
        currency: 'usd',
      });
      expect(typeof config['integration']).toBe('string');
      const res = await f.svc.app.inject({ method: 'GET', url: '/svc/api/forms/donation/manifest' });
      expect(res.body).not.toContain(f.double.secretKey);
      expect(res.body).not.toContain(WEBHOOK_SECRET);
      const data = res.json<{ data: { fields: Record<string, { type: string; frontend: { extension: string } }>; endpoints: Record<string, unknown> } }>().data;
      expect(data.fields['payment']).toMatchObject({ type: 'stripe', frontend: { extension: 'payment.stripe' } });
      expect(data.endpoints['payments']).toMatchObject({ checkpoint: { url: '/svc/api/forms/donation/payments/stripe/checkpoint' } });
    });
  });

  describe('creating and updating an intent', () => {
    it('answers 201 with the id and client secret, computing the amount on the server and signing the intent', async () => {
      const res = await f.createIntent({ ...DONOR, gift: '50', amount: 1 });
      expect(res.statusCode).toBe(201);
      const body = res.json<{ id: string; secret: string; amount: number; currency: string }>();
      expect(body.secret).toMatch(new RegExp(`^${body.id}_secret_`));
      expect(body).toMatchObject({ amount: 5000, currency: 'usd' });
      const intent = f.double.intent(body.id);
      expect(intent?.amount).toBe(5000);
      expect(intent?.metadata['integration']).toBe((await f.paymentConfig())['integration']);
    });

    it('takes the integration from the FF-STRIPE-INTEGRATION header alone', async () => {
      const integration = (await f.paymentConfig())['integration'] as string;
      const { token, cookie } = await f.svc.csrf();
      const res = await f.svc.app.inject({
        method: 'POST',
        url: '/svc/payments/stripe/payment-intents',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie, 'ff-stripe-integration': integration },
        payload: JSON.stringify({ values: DONOR }),
      });
      expect(res.statusCode).toBe(201);
    });

    it('refuses a forged integration with PAYMENT_NOT_OWNED and creates nothing at the gateway', async () => {
      const before = f.double.intents().length;
      const config = await f.paymentConfig();
      const forged = String(config['integration']).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
      const res = await f.createIntent(DONOR, { integration: forged, headers: { 'ff-stripe-integration': forged } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'PAYMENT_NOT_OWNED' });
      expect(f.double.intents().length).toBe(before);
    });

    it('refuses a request without the CSRF token', async () => {
      const integration = (await f.paymentConfig())['integration'] as string;
      const res = await f.svc.app.inject({
        method: 'POST',
        url: '/svc/payments/stripe/payment-intents',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ values: DONOR, integration }),
      });
      expect(res.json()).toMatchObject({ code: 'CSRF_INVALID' });
    });

    it('updates the amount from the amount fields, without a client secret in the answer', async () => {
      const { id } = (await f.createIntent(DONOR)).json<{ id: string }>();
      const integration = (await f.paymentConfig())['integration'] as string;
      const update = async (values: Record<string, unknown>) => {
        const { token, cookie } = await f.browser();
        return f.svc.app.inject({
          method: 'POST',
          url: `/svc/payments/stripe/payment-intents/${id}/amount`,
          headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie, 'ff-stripe-integration': integration },
          payload: JSON.stringify({ values, integration, site: '' }),
        });
      };
      const other = await update({ ...DONOR, gift: 'other', otherAmount: '7.50' });
      expect(other.statusCode).toBe(200);
      expect(other.json()).toEqual({ success: true, id, amount: 750, currency: 'usd' });
      expect(f.double.intent(id)?.amount).toBe(750);
      // A hidden "other amount" is not the amount: the select is.
      expect((await update({ ...DONOR, gift: '10', otherAmount: '99' })).json()).toMatchObject({ amount: 1000 });
      const missing = await update({ ...DONOR, gift: 'other' });
      expect(missing.statusCode).toBe(422);
      expect(missing.json()).toMatchObject({ code: 'PAYMENT_AMOUNT_INVALID', message: 'Choose an amount to pay' });
      expect((await update({ ...DONOR, gift: 'other', otherAmount: '4000000' })).statusCode).toBe(422);
    });

    it('answers 502 PAYMENT_GATEWAY_UNAVAILABLE when Stripe fails or hangs, and a retry stores one payment', async () => {
      f.double.failNext(1, 500);
      const failed = await f.createIntent(DONOR, { headers: { 'idempotency-key': 'retry-once-1' } });
      expect(failed.statusCode).toBe(502);
      expect(failed.json()).toMatchObject({ code: 'PAYMENT_GATEWAY_UNAVAILABLE' });
      f.double.failNext(1, 'hang');
      const hung = await f.createIntent(DONOR, { headers: { 'idempotency-key': 'retry-once-2' } });
      expect(hung.statusCode).toBe(502);
      const retried = await f.createIntent(DONOR, { headers: { 'idempotency-key': 'retry-once-1' } });
      const again = await f.createIntent(DONOR, { headers: { 'idempotency-key': 'retry-once-1' } });
      expect(retried.statusCode).toBe(201);
      expect(again.json<{ id: string }>().id).toBe(retried.json<{ id: string }>().id);
      const rows = await f.svc.context.database.db.selectFrom('svc_payments').select('id').where('intent_id', '=', retried.json<{ id: string }>().id).execute();
      expect(rows).toHaveLength(1);
      expect(retried.body).not.toContain(f.double.secretKey);
    });
  });

  describe('the checkpoint', () => {
    it('answers 422 with the submit object when the form is invalid, and holds nothing', async () => {
      const { id } = (await f.createIntent(DONOR)).json<{ id: string }>();
      const integration = (await f.paymentConfig())['integration'];
      const res = await f.checkpoint('donation', { values: { gift: '25', payment: id }, integration, paymentIntentId: id });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ success: false, status: 'validation_failed', errors: { fields: { name: ['This field is required'] } } });
      const held = await f.svc.context.database.db.selectFrom('svc_payment_checkpoints').select('intent_id').where('intent_id', '=', id).execute();
      expect(held).toHaveLength(0);
    });

    it("refuses another form's integration or an intent it did not create with PAYMENT_NOT_OWNED", async () => {
      const { id } = (await f.createIntent(DONOR)).json<{ id: string }>();
      const integration = (await f.paymentConfig())['integration'];
      const elsewhere = await f.checkpoint('contact', { values: {}, integration, paymentIntentId: id });
      expect(elsewhere.json()).toMatchObject({ code: 'PAYMENT_NOT_OWNED' });
      const foreign = await f.stripe.paymentIntents.create({ amount: 2500, currency: 'usd', metadata: { integration: String(integration) } });
      const stranger = await f.checkpoint('donation', { values: { ...DONOR, payment: foreign.id }, integration, paymentIntentId: foreign.id });
      expect(stranger.statusCode).toBe(403);
      expect(stranger.json()).toMatchObject({ code: 'PAYMENT_NOT_OWNED' });
    });

    it('lets only the browser that created an intent checkpoint or re-price it: another answers 403 PAYMENT_NOT_OWNED and the paid submission keeps the payer\'s values', async () => {
      const before = await f.submissionCount('donation');
      const id = await checkpointed();
      const integration = String((await f.paymentConfig())['integration']);
      // The intent id leaks through return URLs and Referers; the other client has its own cookie.
      const other = await f.svc.csrf();
      const mallory = { ...DONOR, name: 'Mallory', email: 'mallory@example.test' };
      const replaced = await f.checkpoint('donation', { values: { ...mallory, payment: id }, integration, paymentIntentId: id }, { cookie: other.cookie, 'x-csrf-token': other.token });
      expect(replaced.statusCode, replaced.body).toBe(403);
      expect(replaced.json()).toMatchObject({ success: false, code: 'PAYMENT_NOT_OWNED' });
      const repriced = await f.svc.app.inject({
        method: 'POST',
        url: `/svc/payments/stripe/payment-intents/${id}/amount`,
        headers: { 'content-type': 'application/json', 'x-csrf-token': other.token, cookie: other.cookie },
        payload: JSON.stringify({ values: { ...DONOR, gift: '10' }, integration }),
      });
      expect(repriced.statusCode).toBe(403);
      expect(repriced.json()).toMatchObject({ code: 'PAYMENT_NOT_OWNED' });
      expect(f.double.intent(id)?.amount).toBe(2500);

      await f.double.confirm(id, 'succeeds');
      await f.double.settled();
      expect(await f.submissionCount('donation')).toBe(before + 1);
      const row = await paymentRow(id);
      const stored = await findSubmission(f.svc.context.database.db, Number(row?.submission_id), f.svc.context.sealer);
      expect(stored?.values).toMatchObject({ name: 'Ann Donor', email: 'ann@example.test' });
    });

    it('refuses an intent whose amount was changed at the gateway with PAYMENT_UNVERIFIED', async () => {
      const { id } = (await f.createIntent(DONOR)).json<{ id: string }>();
      await f.stripe.paymentIntents.update(id, { amount: 100 });
      const integration = (await f.paymentConfig())['integration'];
      const res = await f.checkpoint('donation', { values: { ...DONOR, payment: id }, integration, paymentIntentId: id });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'PAYMENT_UNVERIFIED' });
    });

    it('is the only way in: a plain submit of a paid form is refused on its payment field', async () => {
      const res = await f.svc.submit('donation', { intent: 'submit', values: DONOR });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ errors: { fields: { payment: ['Complete the payment to submit this form'] } } });
    });
  });

  describe('finishing a paid checkpoint', () => {
    it('turns a succeeded intent into exactly one submission with its payment record, by webhook then callback', async () => {
      const before = await f.submissionCount('donation');
      const id = await checkpointed();
      await f.double.confirm(id, 'succeeds');
      await f.double.settled();
      expect(await f.submissionCount('donation')).toBe(before + 1);
      const integration = String((await f.paymentConfig())['integration']);
      const back = await f.callback({ integration, stripe_token: id, payment_intent: id });
      expect(back.statusCode).toBe(200);
      expect(back.body).toContain('Thank you for your donation!');
      expect(await f.submissionCount('donation')).toBe(before + 1);
      const row = await paymentRow(id);
      expect(row).toMatchObject({ status: 'succeeded', amount: 2500, currency: 'usd' });
      expect(row?.submission_id).not.toBeNull();
      const stored = await f.svc.context.database.db.selectFrom('svc_payment_checkpoints').select('intent_id').where('intent_id', '=', id).execute();
      expect(stored).toHaveLength(0);
    });

    it('makes exactly one submission when the webhook and the callback race, many times over', async () => {
      f.double.autoDeliver(false);
      try {
        const integration = String((await f.paymentConfig())['integration']);
        for (let round = 0; round < 8; round++) {
          const before = await f.submissionCount('donation');
          const id = await checkpointed({ ...DONOR, name: `Racer ${round}` });
          await f.double.confirm(id, 'succeeds');
          const success = f.double.events().filter((e) => e.type === 'payment_intent.succeeded' && (e.data.object as { id: string }).id === id);
          const statuses = await Promise.all([
            f.callback({ integration, stripe_token: id }),
            f.double.deliver(success.map((e) => e.id)),
            f.callback({ integration, token: id }),
            f.double.deliver(success.map((e) => e.id)),
          ]);
          expect(statuses[0].statusCode, statuses[0].body).toBe(200);
          expect(statuses[2].statusCode, statuses[2].body).toBe(200);
          expect(await f.submissionCount('donation')).toBe(before + 1);
        }
      } finally {
        f.double.autoDeliver(true);
      }
    });

    it('redirects a declined payment to the failure page and stores nothing, keeping the checkpoint', async () => {
      const before = await f.submissionCount('donation');
      const id = await checkpointed();
      await f.double.confirm(id, 'declined').catch(() => undefined);
      await f.double.settled();
      const integration = String((await f.paymentConfig())['integration']);
      const back = await f.callback({ integration, stripe_token: id, payment_intent: id, redirect_status: 'failed' });
      expect(back.statusCode).toBe(402);
      expect(back.body).toContain('Your card was declined.');
      expect(await f.submissionCount('donation')).toBe(before);
      const held = await f.svc.context.database.db.selectFrom('svc_payment_checkpoints').select('intent_id').where('intent_id', '=', id).execute();
      expect(held).toHaveLength(1);
    });

    it('finishes a 3-D Secure payment through the return callback after the challenge', async () => {
      f.double.autoDeliver(false);
      try {
        const before = await f.submissionCount('donation');
        const id = await checkpointed();
        await f.double.confirm(id, 'requires_action');
        await f.double.completeAction(id, 'succeeded');
        const integration = String((await f.paymentConfig())['integration']);
        const back = await f.callback({ integration, stripe_token: id, payment_intent: id, payment_intent_client_secret: 'x', redirect_status: 'succeeded' });
        expect(back.statusCode).toBe(200);
        expect(await f.submissionCount('donation')).toBe(before + 1);
      } finally {
        f.double.autoDeliver(true);
      }
    });

    it('refuses a webhook with a bad signature with 400 and changes nothing', async () => {
      const id = await checkpointed();
      const payload = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'payment_intent.succeeded', created: 1, data: { object: { id, object: 'payment_intent', amount: 2500, currency: 'usd', status: 'succeeded', metadata: {} } } });
      const before = await f.submissionCount('donation');
      for (const signature of [undefined, 't=1,v1=00', Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' })]) {
        const res = await f.svc.app.inject({
          method: 'POST',
          url: '/svc/payments/stripe/webhook',
          headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID' });
      }
      expect(await f.submissionCount('donation')).toBe(before);
      expect((await paymentRow(id))?.status).toBe('requires_payment_method');
    });

    it('answers 2xx to authentic events it does not handle, and replays and late events cannot regress a status', async () => {
      f.double.autoDeliver(false);
      try {
        const id = await checkpointed();
        await f.double.confirm(id, 'requires_action');
        await f.double.completeAction(id, 'succeeded');
        const events = f.double.events().filter((e) => (e.data.object as { id?: string; payment_intent?: string }).id === id || (e.data.object as { payment_intent?: string }).payment_intent === id);
        const succeeded = events.filter((e) => e.type === 'payment_intent.succeeded').map((e) => e.id);
        const older = events.filter((e) => e.type !== 'payment_intent.succeeded').map((e) => e.id);
        // The success first, then everything older, then the success again.
        await f.double.deliver([...succeeded, ...older, ...succeeded]);
        expect((await paymentRow(id))?.status).toBe('succeeded');
        const unrelated = JSON.stringify({ id: 'evt_unrelated_1', object: 'event', type: 'customer.created', created: 2, data: { object: { id: 'cus_1', object: 'customer' } } });
        const res = await f.svc.app.inject({
          method: 'POST',
          url: '/svc/payments/stripe/webhook',
          headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: unrelated, secret: WEBHOOK_SECRET }) },
          payload: unrelated,
        });
        expect(res.statusCode).toBe(200);
      } finally {
        f.double.autoDeliver(true);
      }
    });

    it('folds events of one payment delivered all at once into the latest status', async () => {
      f.double.autoDeliver(false);
      try {
        const id = await checkpointed({ ...DONOR, name: 'Concurrent Events' });
        await f.double.confirm(id, 'succeeds');
        await f.double.refund(id);
        const mine = f.double.events().filter((e) => JSON.stringify(e.data.object).includes(id)).map((e) => e.id);
        await Promise.all(mine.map((eventId) => f.double.resend(eventId)));
        expect((await paymentRow(id))?.status).toBe('refunded');
      } finally {
        f.double.autoDeliver(true);
      }
    });

    it('records a refund that arrives by webhook, and shows the payment in the admin API and exports', async () => {
      const id = await checkpointed({ ...DONOR, name: 'Refunded Donor' });
      await f.double.confirm(id, 'succeeds');
      await f.double.settled();
      await f.double.refund(id);
      await f.double.settled();
      const row = await paymentRow(id);
      expect(row).toMatchObject({ status: 'refunded', amount_refunded: 2500 });
      const { exportChunks } = await import('../src/exports/export-stream.js');
      const form = f.svc.context.forms.get('donation');
      let csv = '';
      for await (const chunk of exportChunks({ db: f.svc.context.database.db, uploads: f.svc.context.uploads, sealer: f.svc.context.sealer }, form!, { format: 'csv', bom: false, filter: {}, sort: 'newest' } as never)) csv += chunk;
      expect(csv.split('\r\n')[0]).toContain('paymentStatus,paymentAmount,paymentCurrency,paymentIntent');
      expect(csv).toContain(`refunded,25.00,usd,${id}`);
    });
  });

  describe('reconciling', () => {
    it('cancels intents nobody paid once payments.cancelUnpaidAfterHours have passed, and leaves paid ones alone', async () => {
      const { id: unpaid } = (await f.createIntent(DONOR)).json<{ id: string }>();
      const paid = await checkpointed({ ...DONOR, name: 'Paid Before Cancel' });
      await f.double.confirm(paid, 'succeeds');
      await f.double.settled();
      const { reconcilePayments } = await import('../src/payments/payment-reconcile.js');
      const later = { ...f.svc.context.payments, now: () => new Date(Date.now() + 25 * 3_600_000) };
      const report = await reconcilePayments(later, { since: new Date(Date.now() - 3_600_000) });
      expect(report.cancelled).toBeGreaterThanOrEqual(1);
      expect(f.double.intent(unpaid)?.status).toBe('canceled');
      expect((await paymentRow(unpaid))?.status).toBe('canceled');
      expect(f.double.intent(paid)?.status).toBe('succeeded');
      expect((await paymentRow(paid))?.status).toBe('succeeded');
    });

    it('finishes a paid intent whose webhook and callback never came, once', async () => {
      f.double.autoDeliver(false);
      try {
        const before = await f.submissionCount('donation');
        const id = await checkpointed({ ...DONOR, name: 'Lost Webhook' });
        await f.double.confirm(id, 'succeeds');
        const { reconcilePayments } = await import('../src/payments/payment-reconcile.js');
        const first = await reconcilePayments(f.svc.context.payments, { since: new Date(Date.now() - 3_600_000) });
        expect(first.finalised).toBe(1);
        expect(await f.submissionCount('donation')).toBe(before + 1);
        const second = await reconcilePayments(f.svc.context.payments, { since: new Date(Date.now() - 3_600_000) });
        expect(second.finalised).toBe(0);
        expect(second.alreadyDone).toBeGreaterThanOrEqual(1);
        expect(await f.submissionCount('donation')).toBe(before + 1);
      } finally {
        f.double.autoDeliver(true);
      }
    });
  });
});

describe('payments keep their secrets', () => {
  it('never writes the secret key, the webhook secret or a client secret to a response or the log', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => lines.push(line) };
    const f = await createPaymentFixture({ databaseUrl: null, logger: { level: 'trace', stream }, config: { log: { level: 'trace' } } });
    try {
      const answers: string[] = [];
      const created = await f.createIntent(DONOR);
      answers.push(created.body);
      const { id, secret } = created.json<{ id: string; secret: string }>();
      const integration = String((await f.paymentConfig())['integration']);
      answers.push((await f.checkpoint('donation', { values: { ...DONOR, payment: id }, integration, paymentIntentId: id })).body);
      f.double.failNext(1, 500);
      answers.push((await f.createIntent(DONOR)).body);
      await f.double.confirm(id, 'succeeds');
      await f.double.settled();
      answers.push((await f.callback({ integration, stripe_token: id })).body);
      const log = lines.join('');
      expect(log.length).toBeGreaterThan(0);
      for (const secretText of [f.double.secretKey, WEBHOOK_SECRET, secret]) {
        expect(log).not.toContain(secretText);
        for (const answer of answers.slice(1)) expect(answer).not.toContain(secretText);
      }
      // The one answer that carries the client secret is the intent creation, to the payer's browser.
      expect(answers[0]).not.toContain(f.double.secretKey);
    } finally {
      await f.close();
    }
  });
});
