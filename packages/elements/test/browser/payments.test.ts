/**
 * `<svc-form>` taking a card payment in Chromium (issue #12): the example donation form (a `gift`
 * select of $10/$25/$50 giving the amount, and a required payment field) against the service wired
 * to the local Stripe double, whose fake Stripe.js the element loads from the manifest's scriptUrl.
 * The element makes the intent when the field is shown, re-prices it when an amount field is
 * committed (a gift chosen, a typed amount left) and passes its checks, and on submit runs
 * checkpoint → elements.submit → confirmPayment → the service's callback, whose page in the demo
 * has the demo's look and a link back to the form; the plain submit route is never called, and
 * saving a draft charges nothing.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { FIELD_MESSAGES } from '@svc/core';
import { startStripeDouble, type StripeDouble } from '../../../server/src/payments/stripe-double/stripe-double-server.js';
import { describeWithChromium } from './support/chromium.js';
import { startBrowserHarness, type BrowserHarness, type TrackedPage } from './support/browser-harness.js';
import { openForm, pageProblems, text } from './support/form-page.js';
import { storedSubmissions } from './support/stored-rows.js';
import { describeViolations, isSerious, runAxe } from './support/axe-check.js';

const WAIT = { timeout: 15_000, interval: 50 };
const TEST_TIMEOUT = 60_000;
const WEBHOOK_SECRET = 'whsec_browser_payments_0123456789abcdef';
const CARDS = { succeeds: '4242424242424242', threeDs: '4000002760003184', declined: '4000000000000002' } as const;
const CALLBACK = /\/svc\/payments\/stripe\/callback\?/;

/** Paths of the page's POSTs to the service, to prove which routes a flow used. */
function serviceCalls(tracked: TrackedPage): string[] {
  return tracked.requests.filter((r) => r.method === 'POST').map((r) => new URL(r.url).pathname);
}

/** The `intent` of every POST to the plain submit route (drafts go there too, as `saveDraft`). */
function recordSubmitIntents(tracked: TrackedPage): string[] {
  const intents: string[] = [];
  tracked.page.on('request', (request) => {
    if (request.method() !== 'POST' || !request.url().endsWith('/svc/api/forms/donation/submit')) return;
    intents.push(String((JSON.parse(request.postData() ?? '{}') as { intent?: unknown }).intent));
  });
  return intents;
}

/** The amount each re-pricing request (`POST …/payment-intents/{id}/amount`) carried, as it is sent. */
function recordRepricing(tracked: TrackedPage): unknown[] {
  const sent: unknown[] = [];
  tracked.page.on('request', (request) => {
    if (request.method() !== 'POST' || !/\/payment-intents\/[^/]+\/amount$/.test(new URL(request.url()).pathname)) return;
    sent.push((JSON.parse(request.postData() ?? '{}') as { values?: { otherAmount?: unknown } }).values?.otherAmount);
  });
  return sent;
}

async function fillDonor(form: Locator, email: string, gift: string): Promise<void> {
  await form.locator('#svc-name').fill('Ada Donor');
  await form.locator('#svc-email').fill(email);
  await form.locator('#svc-gift').selectOption(gift);
}

/** The card box of the fake Stripe.js, mounted in the element's light DOM. */
function cardInput(page: Page): Locator {
  return page.locator('svc-form[handle="donation"] > .svc-payment input[name="cardnumber"]');
}

async function paymentRow(harness: BrowserHarness, intentId: string) {
  return harness.svc.context.database.db.selectFrom('svc_payments').selectAll().where('intent_id', '=', intentId).executeTakeFirst();
}

describeWithChromium('<svc-form> taking a card payment', () => {
  let harness: BrowserHarness;
  let double: StripeDouble;

  beforeAll(async () => {
    double = await startStripeDouble();
    harness = await startBrowserHarness({
      headless: { forms: { donation: { exposeManifest: true, allowSubmit: true } } },
      payments: {
        stripe: { publishableKey: double.publishableKey, secretKey: double.secretKey, webhookSecret: WEBHOOK_SECRET, apiUrl: double.url, jsUrl: double.jsUrl },
        reconcileIntervalMinutes: 0,
      },
    });
    // The webhook races the callback, as in production; whichever comes first stores the submission.
    double.setWebhook({ url: `${harness.serviceOrigin}/svc/payments/stripe/webhook`, secret: WEBHOOK_SECRET });
  });
  afterEach(async () => {
    await harness?.closePages();
  });
  afterAll(async () => {
    await harness?.close();
    await double?.close();
  });

  it('pays $50 with a good card, ends on the thank-you page and stores one submission with its payment; saving a draft first charges nothing', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    const submits = recordSubmitIntents(tracked);
    const intentsBefore = double.intents().length;
    const form = await openForm(tracked, harness.formUrl('donation', { allowSave: true }), 'donation');
    const card = cardInput(tracked.page);
    await card.waitFor({ state: 'visible', timeout: WAIT.timeout });
    // The intent is made for the field once it is shown, at the gift the form starts with ($25).
    await expect.poll(() => text(form.locator('[part=payment-status]')), WAIT).toContain('25.00');
    expect(double.intents().length).toBe(intentsBefore + 1);

    await fillDonor(form, 'ada-paid@example.test', '50');
    await expect.poll(() => text(form.locator('[part=payment-status]')), WAIT).toContain('50.00');
    const intent = double.intents().at(-1);
    expect(intent?.amount).toBe(5000);
    await card.fill(CARDS.succeeds);

    await form.locator('button[part=save]').click();
    await expect.poll(() => text(form.locator('[part=draft]')), WAIT).toContain('Your answers are saved');
    expect(double.intent(intent!.id)?.status).not.toBe('succeeded');
    expect(serviceCalls(tracked).some((path) => path.endsWith('/checkpoint'))).toBe(false);

    const before = (await storedSubmissions(harness.svc, 'donation')).length;
    await form.locator('button[part=submit]').click();
    await tracked.page.waitForURL(CALLBACK, { timeout: WAIT.timeout });
    await expect.poll(() => text(tracked.page.locator('h1')), WAIT).toBe('Thank you');
    expect(await text(tracked.page.locator('main'))).toContain('Thank you for your donation!');

    const paidId = new URL(tracked.page.url()).searchParams.get('payment_intent');
    expect(paidId).toBe(intent?.id);
    expect(double.intent(paidId!)).toMatchObject({ status: 'succeeded', amount: 5000 });
    const stored = await storedSubmissions(harness.svc, 'donation');
    expect(stored.length, pageProblems(tracked)).toBe(before + 1);
    expect(stored.at(-1)?.values).toMatchObject({ name: 'Ada Donor', email: 'ada-paid@example.test', gift: '50', payment: paidId });
    // The page the payer lands on has the demo's look and a way back to the form (issue #31).
    const page = tracked.page;
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(246, 247, 249)');
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('main') as Element).maxWidth)).toBe(`${52 * 16}px`);
    const back = page.getByRole('link', { name: 'Back to the form' });
    expect(await back.evaluate((a) => (a as HTMLAnchorElement).href)).toBe(`${harness.serviceOrigin}/demo/#title-donation`);
    expect(tracked.problems.filter((p) => /Content Security Policy|Refused to/i.test(p)), pageProblems(tracked)).toEqual([]);
    expect(await paymentRow(harness, paidId!)).toMatchObject({ submission_id: stored.at(-1)?.id, amount: 5000, currency: 'usd' });
    expect(submits).toEqual(['saveDraft']);
    expect(serviceCalls(tracked).filter((path) => path.endsWith('/checkpoint'))).toHaveLength(1);
    // The webhook arriving as well stores nothing more.
    await double.settled();
    expect((await storedSubmissions(harness.svc, 'donation')).length).toBe(before + 1);
  });

  it('shows a declined card on the payment field, stays on the form and stores nothing', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    const submits = recordSubmitIntents(tracked);
    const form = await openForm(tracked, harness.formUrl('donation'), 'donation');
    const card = cardInput(tracked.page);
    await card.waitFor({ state: 'visible', timeout: WAIT.timeout });
    await fillDonor(form, 'ada-declined@example.test', '10');
    await card.fill(CARDS.declined);
    const before = (await storedSubmissions(harness.svc, 'donation')).length;

    await form.locator('button[part=submit]').click();
    const errors = form.locator('[data-field=payment] [part=errors]');
    await expect.poll(() => text(errors), WAIT).toContain('Your card was declined.');
    expect(tracked.page.url()).toBe(harness.formUrl('donation'));
    expect(await form.locator('[data-field=payment] fieldset').getAttribute('aria-invalid')).toBe('true');
    expect(await form.locator('button[part=submit]').isDisabled()).toBe(false);
    await double.settled();
    expect((await storedSubmissions(harness.svc, 'donation')).length).toBe(before);
    expect(submits).toEqual([]);

    // Typing another card clears the decline, so the error says nothing stale.
    await card.fill('4242');
    await expect.poll(() => text(errors), WAIT).toBe('');
  });

  it('goes through the 3-D Secure challenge and ends stored', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    const form = await openForm(tracked, harness.formUrl('donation'), 'donation');
    const card = cardInput(tracked.page);
    await card.waitFor({ state: 'visible', timeout: WAIT.timeout });
    await fillDonor(form, 'ada-3ds@example.test', '25');
    await card.fill(CARDS.threeDs);
    const before = (await storedSubmissions(harness.svc, 'donation')).length;

    await form.locator('button[part=submit]').click();
    const complete = tracked.page.getByRole('button', { name: 'Complete authentication' });
    await complete.waitFor({ state: 'visible', timeout: WAIT.timeout });
    expect(tracked.page.url().startsWith(double.url)).toBe(true);
    expect((await storedSubmissions(harness.svc, 'donation')).length).toBe(before);

    await complete.click();
    await tracked.page.waitForURL(CALLBACK, { timeout: WAIT.timeout });
    await expect.poll(() => text(tracked.page.locator('h1')), WAIT).toBe('Thank you');
    const paidId = new URL(tracked.page.url()).searchParams.get('payment_intent');
    const stored = await storedSubmissions(harness.svc, 'donation');
    expect(stored.length, pageProblems(tracked)).toBe(before + 1);
    expect(stored.at(-1)?.values).toMatchObject({ email: 'ada-3ds@example.test', gift: '25', payment: paidId });
    await double.settled();
    expect((await storedSubmissions(harness.svc, 'donation')).length).toBe(before + 1);
  });

  it('asks for an amount on the payment field while none is chosen, sends no checkpoint, and re-prices once one is typed', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    const form = await openForm(tracked, harness.formUrl('donation'), 'donation');
    const card = cardInput(tracked.page);
    await card.waitFor({ state: 'visible', timeout: WAIT.timeout });
    await fillDonor(form, 'ada-other@example.test', 'other');
    const errors = form.locator('[data-field=payment] [part=errors]');
    await expect.poll(() => text(errors), WAIT).toBe('Choose an amount to pay');
    await card.fill(CARDS.succeeds);

    await form.locator('button[part=submit]').click();
    await expect.poll(() => text(errors), WAIT).toBe('Choose an amount to pay');
    expect(serviceCalls(tracked).some((path) => path.endsWith('/checkpoint'))).toBe(false);

    // The typed amount is priced once it is left (a change), not while it is typed.
    await form.locator('#svc-otherAmount').fill('30');
    await form.locator('#svc-otherAmount').press('Tab');
    await expect.poll(() => text(form.locator('[part=payment-status]')), WAIT).toContain('30.00');
    await expect.poll(() => text(errors), WAIT).toBe('');
    expect(double.intents().at(-1)?.amount).toBe(3000);

    const serious = (await runAxe(tracked.page, 'svc-form[handle="donation"]')).filter(isSerious);
    expect(serious, describeViolations(serious)).toEqual([]);
  });

  it('a typed amount shows no amount and sends nothing while it is typed, is checked when it is left, and only a valid one is re-priced', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    const repriced = recordRepricing(tracked);
    const form = await openForm(tracked, harness.formUrl('donation'), 'donation');
    await cardInput(tracked.page).waitFor({ state: 'visible', timeout: WAIT.timeout });
    const status = form.locator('[part=payment-status]');
    const other = form.locator('#svc-otherAmount');
    const otherErrors = form.locator('#svc-otherAmount-errors');
    await fillDonor(form, 'ada-typed@example.test', 'other');
    await other.fill('30');
    await other.press('Tab');
    await expect.poll(() => text(status), WAIT).toContain('30.00');
    const sentBefore = repriced.length;

    // Typed key by key, slower than any debounce: the $30.00 goes at the first key, and no key
    // asks the service for a price (each was a request answered 422 before).
    await other.fill('');
    await other.pressSequentially('50000', { delay: 450 });
    expect(await text(status)).toBe('');
    expect(repriced.slice(sentBefore)).toEqual([]);

    // Left invalid: the field says why at once, still no amount and no request.
    await other.press('Tab');
    await expect.poll(() => text(otherErrors), WAIT).toBe(FIELD_MESSAGES.aboveMax(5000));
    expect(await other.getAttribute('aria-invalid')).toBe('true');
    expect(await text(status)).toBe('');
    expect(await text(form.locator('[data-field=payment] [part=errors]'))).toBe('');
    expect(repriced.slice(sentBefore)).toEqual([]);

    // A valid amount, left: its error goes and it is priced, once.
    await other.fill('40');
    await other.press('Tab');
    await expect.poll(() => text(status), WAIT).toContain('40.00');
    expect(await text(otherErrors)).toBe('');
    expect(repriced.slice(sentBefore)).toEqual(['40']);
    expect(double.intents().at(-1)?.amount).toBe(4000);
  });

  it('without a publishable key says payments are not configured and sends nothing on submit', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    // A service without Stripe keys sends `publishableKey: null`; this one has keys, so the manifest is edited on its way.
    await tracked.context.route(`${harness.serviceOrigin}/svc/api/forms/donation/manifest`, async (route) => {
      const response = await route.fetch();
      const json = (await response.json()) as { data: { fields: Record<string, { frontend: { config: Record<string, unknown> } }> } };
      json.data.fields.payment!.frontend.config.publishableKey = null;
      await route.fulfill({ response, json });
    });
    const intentsBefore = double.intents().length;
    const form = await openForm(tracked, harness.formUrl('donation'), 'donation');
    await expect.poll(() => text(form.locator('[part=payment-status]')), WAIT).toContain('Payments are not configured');
    await fillDonor(form, 'ada-unconfigured@example.test', '25');

    await form.locator('button[part=submit]').click();
    await expect.poll(() => text(form.locator('[data-field=payment] [part=errors]')), WAIT).toContain('Payments are not configured');
    expect(serviceCalls(tracked).filter((path) => path.endsWith('/submit') || path.includes('/payment'))).toEqual([]);
    expect(double.intents().length).toBe(intentsBefore);
    expect(await tracked.page.locator('script[src*="/v3/"]').count()).toBe(0);
  });
});
