/**
 * The page a payer lands on after a card payment, in the site's language (issue #34 item 4): the
 * return callback of a form that names no success or failure URL, through the real `stripe` SDK
 * and the local Stripe double. The site comes with the checkpoint (`context.site`, recorded with
 * the submission) or on the return URL (`?site=`); the default site's page is byte for byte the one
 * svc drew before sites (fixtures/payment-outcome-*.html).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Fastify from 'fastify';
import type { Form } from '@svc/core';
import { demoOutcomePage } from '../src/demo/demo-outcome-page.js';
import type { Site } from '../src/sites/site-registry.js';
import { createPaymentFixture, type PaymentFixture } from './support/payment-fixture.js';
import { EXAMPLE_FORMS_DIR } from './support/test-app.js';

const DONOR = { name: 'Ann Donor', email: 'ann@example.test', gift: '25' };

const SITES = [
  { handle: 'default', language: 'en-US', default: true },
  { handle: 'de', language: 'de-DE' },
  { handle: 'ar', language: 'ar' },
];

/** The demo's donation form with its success message translated for the German and Arabic sites. */
const TRANSLATIONS = `
translations:
  de:
    successMessage: Vielen Dank für Ihre Spende!
  ar:
    successMessage: شكرًا على تبرعك!
`;

describe('the payment landing page per site language', () => {
  let f: PaymentFixture;
  let formsDir: string;

  beforeAll(async () => {
    formsDir = mkdtempSync(join(tmpdir(), 'svc-payment-languages-'));
    writeFileSync(join(formsDir, 'donation.yaml'), readFileSync(resolve(EXAMPLE_FORMS_DIR, 'donation.yaml'), 'utf8') + TRANSLATIONS);
    f = await createPaymentFixture({ databaseUrl: null, config: { sites: SITES, forms: { dir: formsDir } } });
  });
  afterAll(async () => {
    await f?.close();
    rmSync(formsDir, { recursive: true, force: true });
  });

  /** An intent checkpointed on `site` (none: the default), confirmed as `outcome`; its id and integration. */
  async function paid(site: string | null, outcome: 'succeeds' | 'declined'): Promise<{ id: string; integration: string }> {
    const created = await f.createIntent(DONOR);
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: string }>();
    const integration = String((await f.paymentConfig())['integration']);
    const res = await f.checkpoint('donation', { values: { ...DONOR, payment: id }, integration, paymentIntentId: id, ...(site === null ? {} : { context: { site } }) });
    expect(res.statusCode, res.body).toBe(200);
    await f.double.confirm(id, outcome).catch(() => undefined);
    await f.double.settled();
    return { id, integration };
  }

  async function submissionSite(intentId: string): Promise<string | null> {
    const row = await f.svc.context.database.db
      .selectFrom('svc_payments')
      .innerJoin('svc_submissions', 'svc_submissions.id', 'svc_payments.submission_id')
      .select('svc_submissions.site')
      .where('svc_payments.intent_id', '=', intentId)
      .executeTakeFirstOrThrow();
    return row.site;
  }

  it('keeps the default site\'s pages exactly as they were, thanks and refusal', async () => {
    const ok = await paid(null, 'succeeds');
    const thanks = await f.callback({ integration: ok.integration, stripe_token: ok.id, payment_intent: ok.id });
    expect(thanks.statusCode).toBe(200);
    await expect(thanks.body).toMatchFileSnapshot('./fixtures/payment-outcome-en.html');

    const declined = await paid(null, 'declined');
    const refused = await f.callback({ integration: declined.integration, stripe_token: declined.id, payment_intent: declined.id, redirect_status: 'failed' });
    expect(refused.statusCode).toBe(402);
    await expect(refused.body).toMatchFileSnapshot('./fixtures/payment-failed-en.html');
  });

  it('records the checkpoint\'s site with the submission and thanks a German payer in German', async () => {
    const { id, integration } = await paid('de', 'succeeds');
    expect(await submissionSite(id)).toBe('de');

    // The return URL names no site: the one recorded with the payment's submission decides.
    const res = await f.callback({ integration, stripe_token: id, payment_intent: id });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'");
    expect(res.body).toContain('<html lang="de-DE" dir="ltr">');
    expect(res.body).toContain('<title>Vielen Dank</title>');
    expect(res.body).toContain('<p>Vielen Dank für Ihre Spende!</p>');
  });

  it('tells an Arabic payer whose card was declined, right to left, in Arabic', async () => {
    const { id, integration } = await paid('ar', 'declined');
    const res = await f.callback({ integration, stripe_token: id, payment_intent: id, redirect_status: 'failed' });
    expect(res.statusCode).toBe(402);
    expect(res.body).toContain('<html lang="ar" dir="rtl">');
    expect(res.body).toContain('<h1>لم تكتمل عملية الدفع</h1>');
    // The gateway's reason is English; an Arabic page says the catalogue's instead, never a mix.
    expect(res.body).not.toContain('Your card was declined.');
    expect(res.body).toContain('<p>لم تتم عملية الدفع. لم يُرسَل أي شيء؛ يُرجى العودة إلى النموذج والمحاولة مرة أخرى.</p>');
  });

  it('takes the site from the return URL\'s ?site= as a classic action does, and ignores an unknown one', async () => {
    const { id, integration } = await paid(null, 'succeeds');
    expect(await submissionSite(id)).toBe('default');
    const german = await f.callback({ integration, stripe_token: id, payment_intent: id, site: 'de' });
    expect(german.statusCode).toBe(200);
    expect(german.body).toContain('<html lang="de-DE" dir="ltr">');
    expect(german.body).toContain('<h1>Vielen Dank</h1><p>Vielen Dank für Ihre Spende!</p>');

    // A payer who has paid is never refused a page for a site name: the recorded site (here the default) serves.
    const unknown = await f.callback({ integration, stripe_token: id, payment_intent: id, site: 'xx' });
    expect(unknown.statusCode).toBe(200);
    await expect(unknown.body).toMatchFileSnapshot('./fixtures/payment-outcome-en.html');
  });

  it('refuses a checkpoint on a site that does not exist, as a submit is refused', async () => {
    const created = await f.createIntent(DONOR);
    const { id } = created.json<{ id: string }>();
    const integration = String((await f.paymentConfig())['integration']);
    const res = await f.checkpoint('donation', { values: { ...DONOR, payment: id }, integration, paymentIntentId: id, context: { site: 'nowhere' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'SITE_NOT_FOUND' });
  });
});

describe("the demo's payment outcome page", () => {
  it("is drawn in the payment's site's language, its link back to that site's demo", async () => {
    const arabic: Site = { id: 3, handle: 'ar', language: 'ar', baseUrl: '', timezone: null, isDefault: false };
    const app = Fastify();
    app.get('/', async (_request, reply) => demoOutcomePage(reply, 402, 'لم تكتمل عملية الدفع', ['…'], { handle: 'donation' } as Form, arabic));
    try {
      const res = await app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(402);
      expect(res.body).toContain('lang="ar" dir="rtl"');
      expect(res.body).toContain('href="/demo/?site=ar#title-donation">العودة إلى النموذج</a>');
    } finally {
      await app.close();
    }
  });
});
