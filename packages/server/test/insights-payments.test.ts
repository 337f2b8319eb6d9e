/**
 * A submission the payment stores completes the journey that led to the payment (issue #38): the
 * checkpoint answers `validated` and holds the submission, so until the Stripe double's webhook
 * arrives the journey is started (or not, on one page) and waits on its last page; once paid it is
 * a completion, and its last page is no longer where it was left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPaymentFixture, type PaymentFixture } from './support/payment-fixture.js';

const API_KEY = 'insights-payments-api-key-0123456789';
const EXAMPLES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../examples/forms');

/** The donation on two pages: who you are, then the gift and the card. */
const TWO_PAGES = `name: Donation in two steps
settings:
  successMessage: Thank you for your donation!
pages:
  - label: You
    rows:
      - - { type: text, handle: name, label: Your name, required: true }
      - - { type: email, handle: email, label: Email, required: true }
  - label: Gift
    rows:
      - - type: select
          handle: gift
          label: Gift
          required: true
          options: [{ value: "10", label: "$10" }, { value: "25", label: "$25" }]
      - - { type: payment, handle: payment, label: Card, required: true, gateway: stripe, currency: usd, amountFields: [gift], minAmount: 5, maxAmount: 5000 }
      - - { type: submit, label: Donate }
`;

describe('insights of paid submissions', () => {
  let f: PaymentFixture;
  let formsDir: string;

  beforeAll(async () => {
    formsDir = mkdtempSync(join(tmpdir(), 'svc-insights-payments-'));
    copyFileSync(join(EXAMPLES, 'donation.yaml'), join(formsDir, 'donation.yaml'));
    writeFileSync(join(formsDir, 'donation-steps.yaml'), TWO_PAGES);
    const open = { exposeManifest: true, allowSubmit: true };
    f = await createPaymentFixture({
      databaseUrl: null,
      config: {
        forms: { dir: formsDir },
        headless: { forms: { donation: open, 'donation-steps': open } },
        admin: { keys: [{ name: 'ops', sha256: createHash('sha256').update(API_KEY).digest('hex'), scopes: ['read'], forms: ['*'] }] },
      },
    });
  });
  afterAll(async () => {
    await f?.close();
    rmSync(formsDir, { recursive: true, force: true });
  });

  async function report(handle: string) {
    const res = await f.svc.app.inject({ method: 'GET', url: `/svc/api/admin/forms/${handle}/insights`, headers: { authorization: `Bearer ${API_KEY}` } });
    expect(res.statusCode, res.body).toBe(200);
    const { starts, completions, pages } = res.json().data;
    return { starts, completions, pages: pages.map((p: { reached: number; left: number }) => [p.reached, p.left]) };
  }

  /** An intent for `handle` made by the fixture's browser, then the final submit checkpointed with it. */
  async function checkpoint(handle: string, values: Record<string, unknown>, context: Record<string, unknown> = {}): Promise<string> {
    const integration = String((await f.paymentConfig(handle))['integration']);
    const created = await f.createIntent({ gift: '25' }, { integration });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: string }>();
    const res = await f.checkpoint(handle, { values: { ...values, payment: id }, integration, paymentIntentId: id, context });
    expect(res.statusCode, res.body).toBe(200);
    return id;
  }

  it('counts a paid single-page donation as started and completed once the payment stores it', async () => {
    const id = await checkpoint('donation', { name: 'Ann Donor', email: 'ann@example.test', gift: '25' });
    expect(await report('donation')).toMatchObject({ starts: 0, completions: 0 });
    await f.double.confirm(id, 'succeeds');
    await f.double.settled();
    expect(await f.submissionCount('donation')).toBe(1);
    expect(await report('donation')).toMatchObject({ starts: 1, completions: 1 });
    // The return callback after the webhook stores nothing more, and counts nothing more.
    await f.callback({ integration: String((await f.paymentConfig('donation'))['integration']), stripe_token: id, payment_intent: id });
    expect(await report('donation')).toMatchObject({ starts: 1, completions: 1 });
  });

  it('completes a two-page journey on its payment: no longer left on the page it paid from', async () => {
    const first = await f.svc.submit('donation-steps', { intent: 'next', values: { name: 'Ann Donor', email: 'ann@example.test' } });
    expect(first.json()).toMatchObject({ status: 'page_valid', page: { currentIndex: 1 } });
    const id = await checkpoint('donation-steps', { gift: '25' }, { stateToken: first.json().state.token });
    // Held for the payment: started, and waiting on the gift page.
    expect(await report('donation-steps')).toEqual({ starts: 1, completions: 0, pages: [[1, 0], [1, 1]] });
    await f.double.confirm(id, 'succeeds');
    await f.double.settled();
    expect(await f.submissionCount('donation-steps')).toBe(1);
    expect(await report('donation-steps')).toEqual({ starts: 1, completions: 1, pages: [[1, 0], [1, 0]] });
  });
});
