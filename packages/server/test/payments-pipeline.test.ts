/**
 * A paid submission runs the normal pipeline after its payment (issue #12): the title format, the
 * files the checkpoint named (claimed then, not before), the outbox's webhook with the payment in
 * its body, the admin API's view of the payment, and the field's own success and failure URLs.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { describeEachDialect } from './support/dialects.js';
import { createPaymentFixture, type PaymentFixture } from './support/payment-fixture.js';
import { startHttpReceiver, type HttpReceiver } from './support/http-receiver.js';
import { multipartBody } from './support/multipart-body.js';
import { tinyPng } from './support/sample-files.js';

const ADMIN_KEY = 'svc_payments_pipeline_admin_key_0123456789';

function ticketForm(webhookUrl: string): string {
  return `name: Ticket
settings:
  submissionTitleFormat: "Ticket for {{ holder }}"
  spam: { honeypot: false, javascriptTest: false }
  notifications:
    webhooks:
      - url: ${webhookUrl}
fields:
  - { type: text, handle: holder, label: Ticket holder, required: true }
  - { type: file, handle: photo, label: Photo, dragAndDrop: true, fileKinds: [image] }
  - type: payment
    handle: pay
    label: Card
    required: true
    gateway: stripe
    currency: eur
    amount: 42.5
    successUrl: https://tickets.example.test/thanks
    failureUrl: https://tickets.example.test/sorry
`;
}

describeEachDialect('a paid submission through the pipeline', (target) => {
  let f: PaymentFixture;
  let receiver: HttpReceiver;
  let formsDir: string;
  beforeAll(async () => {
    receiver = await startHttpReceiver();
    formsDir = mkdtempSync(join(tmpdir(), 'svc-pay-forms-'));
    writeFileSync(join(formsDir, 'ticket.yaml'), ticketForm(receiver.url('/hook')));
    f = await createPaymentFixture({
      databaseUrl: target.url(),
      config: {
        forms: { dir: formsDir, watch: false },
        headless: { forms: { ticket: { exposeManifest: true, allowSubmit: true } } },
        notifications: { webhookSecret: 'whsec_pipeline0123456789abcdefghij' },
        outbound: { allowedHosts: ['127.0.0.1'] },
        deliveries: { pollMs: 100 },
        admin: { keys: [{ name: 'test', sha256: createHash('sha256').update(ADMIN_KEY).digest('hex'), scopes: ['read'], forms: ['*'] }] },
      },
    });
  });
  afterAll(async () => {
    await f?.close();
    await receiver?.close();
    if (formsDir) rmSync(formsDir, { recursive: true, force: true });
  });

  async function integration(): Promise<string> {
    return String((await f.paymentConfig('ticket'))['integration']);
  }

  async function intentAndCheckpoint(values: Record<string, unknown>, cookie: string, token: string): Promise<string> {
    const created = await f.createIntent(values, { integration: await integration(), headers: { cookie, 'x-csrf-token': token } });
    expect(created.statusCode, created.body).toBe(201);
    const { id, amount, currency } = created.json<{ id: string; amount: number; currency: string }>();
    expect({ amount, currency }).toEqual({ amount: 4250, currency: 'eur' });
    const res = await f.svc.app.inject({
      method: 'POST',
      url: '/svc/api/forms/ticket/payments/stripe/checkpoint',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      payload: JSON.stringify({ intent: 'submit', values: { ...values, pay: id }, integration: await integration(), paymentIntentId: id }),
    });
    expect(res.statusCode, res.body).toBe(200);
    return id;
  }

  it('stores the paid submission with its title and its file, notifies with the payment, and shows it to the admin API', async () => {
    const { token, cookie } = await f.svc.csrf();
    const uploadToken = randomUUID();
    const body = multipartBody([{ name: 'photo', filename: 'me.png', data: tinyPng(3), contentType: 'image/png' }]);
    const upload = await f.svc.app.inject({
      method: 'POST',
      url: '/svc/api/forms/ticket/files/photo',
      headers: { ...body.headers, 'x-csrf-token': token, 'x-svc-upload-token': uploadToken, cookie },
      payload: body.payload,
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const photo = upload.json<{ data: { id: string } }>().data.id;
    const id = await intentAndCheckpoint({ holder: 'Pat Paid', photo: [photo] }, cookie, token);
    const file = () => f.svc.context.database.db.selectFrom('svc_files').select(['submission_id', 'hold_until']).where('public_id', '=', photo).executeTakeFirstOrThrow();
    expect((await file()).submission_id).toBeNull();
    expect((await file()).hold_until).not.toBeNull();

    await f.double.confirm(id, 'succeeds');
    await f.double.settled();
    const back = await f.callback({ integration: await integration(), stripe_token: id });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`https://tickets.example.test/thanks?payment_intent=${id}&payment_status=succeeded`);

    const payment = await f.svc.context.database.db.selectFrom('svc_payments').selectAll().where('intent_id', '=', id).executeTakeFirstOrThrow();
    expect((await file()).submission_id).toBe(payment.submission_id);
    const [hook] = await receiver.waitFor('/hook', 1, 10_000);
    const event = JSON.parse(hook!.body) as { data: { submission: { title: string }; values: Record<string, unknown>; payment: Record<string, unknown>; files: unknown[] } };
    expect(event.data.submission.title).toBe('Ticket for Pat Paid');
    expect(event.data.payment).toEqual({ gateway: 'stripe', intentId: id, amount: 4250, amountFormatted: '42.50', currency: 'eur', status: 'succeeded' });
    expect(event.data.files).toHaveLength(1);

    const detail = await f.svc.app.inject({ method: 'GET', url: `/svc/api/admin/submissions/${payment.submission_id}`, headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect(detail.json<{ data: { payment: unknown } }>().data.payment).toMatchObject({ intentId: id, amount: 4250, amountFormatted: '42.50', currency: 'eur', status: 'succeeded' });
  });

  it("sends a failed payment to the field's failure URL with the reason, storing nothing", async () => {
    const { token, cookie } = await f.svc.csrf();
    const before = await f.submissionCount('ticket');
    const id = await intentAndCheckpoint({ holder: 'Dee Declined' }, cookie, token);
    await f.double.confirm(id, 'declined');
    const back = await f.callback({ integration: await integration(), stripe_token: id, redirect_status: 'failed' });
    expect(back.statusCode).toBe(303);
    const location = new URL(String(back.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe('https://tickets.example.test/sorry');
    expect(location.searchParams.get('reason')).toBe('Your card was declined.');
    expect(location.searchParams.get('payment_status')).toBe('failed');
    expect(await f.submissionCount('ticket')).toBe(before);
  });
});
