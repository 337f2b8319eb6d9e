/**
 * Hosted pages in Chromium (issue #36): the page svc serves at /f/{handle}, with its strict CSP
 * (a refused script or style would show as a console error), submits through the REST API with
 * JavaScript; a multi-page form saved for later comes back to the page from its resume link; and
 * the page is axe-clean in light, dark and a custom theme, at 375 and 1280 px, whose screenshots
 * are docs/hosted/*.png. No example form's page raises a CSP violation (the signature pad's look
 * is the stylesheet's); a phone form loads its metadata on the field's first focus; a captcha
 * and a card payment load their scripts from the configured URLs (local doubles here) under the
 * page's CSP, and the form submits (issue #36 items 1-3).
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { startStripeDouble, type StripeDouble } from '../../../server/src/payments/stripe-double/stripe-double-server.js';
import { describeWithChromium } from './support/chromium.js';
import { EXAMPLE_HANDLES, startBrowserHarness, useBrowserHarness, type BrowserHarness, type TrackedPage } from './support/browser-harness.js';
import { FAKE_TURNSTILE_SCRIPT, GOOD_TOKEN, startVerifyServer, type VerifyServer } from './support/captcha-fakes.js';
import { openForm, pageProblems, text, visible } from './support/form-page.js';
import { describeViolations, isSerious, runAxe } from './support/axe-check.js';

const WAIT = { timeout: 10_000, interval: 50 };
const TEST_TIMEOUT = 60_000;
const SHOTS = resolve(import.meta.dirname, '../../../../docs/hosted');
const WIDTHS = [375, 1280] as const;

/** A custom theme within the contrast rules: warm paper, deep green, serif, round corners. */
const CUSTOM_THEME = {
  scheme: 'light',
  light: { background: '#fbf7ef', text: '#2b2118', muted: '#5c4d3c', accent: '#0b6e4f', accentText: '#ffffff', error: '#a4161a' },
  font: 'serif',
  radius: 14,
  pageWidth: 36,
};

/** Stored values are read as the form's owner reads them (the admin API), whatever their storage. */
const ADMIN_KEY = 'hosted-browser-admin-key-0123456789';
const ADMIN = { admin: { keys: [{ name: 'owner', sha256: createHash('sha256').update(ADMIN_KEY).digest('hex'), scopes: ['read'], forms: ['*'] }] } };

async function storedValues(harness: BrowserHarness, handle: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${harness.serviceOrigin}/svc/api/admin/forms/${handle}/submissions`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { values: Record<string, unknown> }[] }).data.map((item) => item.values);
}

async function storedWith(harness: BrowserHarness, handle: string, email: string): Promise<Record<string, unknown> | undefined> {
  return (await storedValues(harness, handle)).find((values) => values.email === email);
}

/** Every securitypolicyviolation the document sees (they bubble out of shadow roots), as text. */
const RECORD_CSP = `(() => {
  const seen = [];
  Object.defineProperty(window, '__cspViolations', { value: seen });
  document.addEventListener('securitypolicyviolation', (event) => {
    seen.push(event.effectiveDirective + ' refused ' + (event.blockedURI || 'inline') + (event.sample ? ': ' + event.sample : ''));
  }, true);
})();`;

/** A page that records CSP violations from its first script on. */
async function newCspPage(harness: BrowserHarness): Promise<TrackedPage> {
  const tracked = await harness.newPage();
  await tracked.context.addInitScript({ content: RECORD_CSP });
  return tracked;
}

function cspViolations(tracked: TrackedPage): Promise<string[]> {
  return tracked.page.evaluate(() => [...((window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])]);
}

/** The kitchen sink's first page filled and left: its second has the phone and the signature pad. */
async function kitchenSinkPageTwo(form: Locator, email: string): Promise<void> {
  await form.locator('#svc-email').fill(email);
  await form.locator('#svc-emailConfirm').fill(email);
  await visible(form, 'button[part=submit]').click();
  await form.locator('canvas[part=signature]').waitFor({ state: 'visible', timeout: WAIT.timeout });
}

async function fillContact(form: Locator): Promise<void> {
  await form.locator('#svc-firstName').fill('Ann');
  await form.locator('#svc-lastName').fill('Lee');
  await form.locator('#svc-email').fill('ann@example.test');
  await form.locator('#svc-message').fill('Hello from the hosted page');
}

/** Screenshots of the whole page at each width, and axe over the page (the form's shadow tree included). */
async function shootAndCheck(harness: BrowserHarness, tracked: TrackedPage, name: string, colorScheme: 'light' | 'dark'): Promise<void> {
  await tracked.page.emulateMedia({ colorScheme });
  for (const width of WIDTHS) {
    await tracked.page.setViewportSize({ width, height: 900 });
    await tracked.page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true, animations: 'disabled' });
  }
  const serious = (await runAxe(tracked.page, 'main')).filter(isSerious);
  expect(serious, describeViolations(serious) + pageProblems(tracked)).toEqual([]);
  expect(tracked.problems, `${name} on ${harness.serviceOrigin}`).toEqual([]);
}

describeWithChromium('hosted pages in Chromium', () => {
  // `auto`: the visitor's light or dark preference picks the colour set.
  const harness = useBrowserHarness({ hosted: { theme: { scheme: 'auto' } } });

  it('draws /f/contact with the element under its strict CSP and submits through the REST API', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    const form = await openForm(tracked, `${harness.serviceOrigin}/f/contact`, 'contact');
    expect(await tracked.page.title()).toBe('Contact');
    await fillContact(form);
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('[part=success]')), WAIT).toBe('Thanks, we got your message.');
    const submits = tracked.requests.filter((r) => r.method === 'POST');
    expect(submits.map((r) => new URL(r.url).pathname)).toEqual(['/svc/api/forms/contact/submit']);
    expect(submits[0]?.headers['content-type']).toContain('application/json');
    // Nothing the CSP refused: no console error, no failed request.
    expect(tracked.problems, pageProblems(tracked)).toEqual([]);
  });

  it('saves a multi-page form for later, and its resume link comes back to the page on the saved page', { timeout: TEST_TIMEOUT }, async () => {
    const first = await harness.newPage();
    let form = await openForm(first, `${harness.serviceOrigin}/f/application`, 'application');
    await form.locator('#svc-fullName').fill('Grace Hopper');
    await form.locator('#svc-email').fill('grace@example.test');
    await form.locator('[data-field=applicantType] input[value=individual]').check();
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('[part=progress]')), WAIT).toMatch(/^Page 2 of/);
    await visible(form, 'button[part=save]').click();
    const link = form.locator('[part=draft] a[part=resume-link]');
    await expect.poll(() => link.count(), WAIT).toBe(1);
    const resumeUrl = new URL((await link.getAttribute('href')) as string);
    expect(`${resumeUrl.origin}${resumeUrl.pathname}`).toBe(`${harness.serviceOrigin}/f/application`);

    const second = await harness.newPage();
    form = await openForm(second, resumeUrl.toString(), 'application');
    await expect.poll(() => text(form.locator('[part=progress]')), WAIT).toMatch(/^Page 2 of/);
    await visible(form, 'button[part=back]').click();
    await expect.poll(() => form.locator('#svc-fullName').inputValue(), WAIT).toBe('Grace Hopper');
    expect(second.problems.filter((p) => p.startsWith('page error')), pageProblems(second)).toEqual([]);
  });

  it('is axe-clean in light and dark at 375 and 1280 px (docs/hosted/contact-light-*.png, contact-dark-*.png)', { timeout: TEST_TIMEOUT }, async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const tracked = await harness.newPage();
      await tracked.page.emulateMedia({ colorScheme: scheme });
      const form = await openForm(tracked, `${harness.serviceOrigin}/f/contact`, 'contact');
      // The theme's colours reach the element: its background is the page's.
      const background = await form.evaluate((element) => getComputedStyle(element).getPropertyValue('--svc-background').trim());
      expect(background).toBe(scheme === 'dark' ? '#0d1117' : '#ffffff');
      await form.locator('#svc-email').fill('not an address');
      await visible(form, 'button[part=submit]').click();
      await expect.poll(() => text(form.locator('#svc-email-errors')), WAIT).not.toBe('');
      await shootAndCheck(harness, tracked, `contact-${scheme}`, scheme);
    }
  });
});

/** The demo's feedback link (examples/svc.config.yaml), whose page has a form without JavaScript. */
const FEEDBACK_PROFILE = {
  headless: {
    profiles: {
      'event-feedback': {
        form: 'contact',
        requiresSignedToken: true,
        singleUse: true,
        properties: { eventId: { type: 'integer', required: true } },
        context: { defaultValues: { message: 'Feedback on event {{ properties.eventId }}: ' } },
      },
    },
  },
};

describeWithChromium('hosted pages of every example form under their CSP in Chromium', () => {
  const harness = useBrowserHarness({ ...ADMIN, ...FEEDBACK_PROFILE });

  it('raise no CSP violation, and the signature pad has its border from the stylesheet', { timeout: TEST_TIMEOUT * 2 }, async () => {
    for (const handle of EXAMPLE_HANDLES) {
      const tracked = await newCspPage(harness);
      const form = await openForm(tracked, `${harness.serviceOrigin}/f/${handle}`, handle);
      if (handle === 'kitchen-sink') {
        await kitchenSinkPageTwo(form, 'csp-sink@example.test');
        // borderColor #999999 of the form, drawn by the shadow stylesheet's rule through the CSSOM.
        const border = await form.locator('canvas[part=signature]').evaluate((canvas) => {
          const style = getComputedStyle(canvas);
          return [style.borderTopWidth, style.borderTopStyle, style.borderTopColor, style.touchAction];
        });
        expect(border).toEqual(['1px', 'solid', 'rgb(153, 153, 153)', 'none']);
      }
      if (handle === 'donation') await tracked.page.locator('svc-form[handle="donation"] > .svc-payment input[name="cardnumber"]').waitFor({ state: 'visible', timeout: WAIT.timeout });
      expect(await cspViolations(tracked), `/f/${handle}${pageProblems(tracked)}`).toEqual([]);
      expect(tracked.problems.filter((p) => /Content Security Policy|Refused to/i.test(p)), `/f/${handle}`).toEqual([]);
    }
  });

  it("loads the phone metadata on the phone field's first focus, checks with it in the browser, and stores the number in E.164", { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newCspPage(harness);
    const { page } = tracked;
    const form = await openForm(tracked, `${harness.serviceOrigin}/f/kitchen-sink`, 'kitchen-sink');
    await kitchenSinkPageTwo(form, 'phone-sink@example.test');
    const chunks = () => tracked.requests.filter((r) => /\/f\/_\/svc-phone-[A-Z0-9]+\.js$/.test(new URL(r.url).pathname));
    // Drawn and on its second page, the form has not asked for the metadata yet.
    expect(chunks()).toEqual([]);
    const loaded = page.waitForResponse((response) => /\/f\/_\/svc-phone-[A-Z0-9]+\.js$/.test(response.url()));
    await form.locator('#svc-phone').focus();
    const chunkUrl = (await loaded).url();
    // The same module the bundle imported: resolved once it has run.
    await page.evaluate(`import(${JSON.stringify(chunkUrl)}).then(() => true)`);
    expect(chunks()).toHaveLength(1);

    // Too short for a US number: refused by the browser's own check, no request sent.
    const submits = () => tracked.requests.filter((r) => r.method === 'POST' && new URL(r.url).pathname === '/svc/api/forms/kitchen-sink/submit').length;
    const before = submits();
    await form.locator('#svc-phone').fill('555 12');
    await form.locator('input[aria-label="Name, row 1"]').fill('Widget');
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('#svc-phone-errors')), WAIT).not.toBe('');
    expect(submits()).toBe(before);

    await form.locator('#svc-phone').fill('(555) 123-4567');
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('[part=success]')), WAIT).not.toBe('');
    const stored = await storedWith(harness, 'kitchen-sink', 'phone-sink@example.test');
    expect(stored?.phone, pageProblems(tracked)).toBe('+15551234567');
    expect(chunks()).toHaveLength(1);
    expect(await cspViolations(tracked)).toEqual([]);
  });

  it('takes a signed profile link with JavaScript off: the form filled from the link posts and stores through the profile', { timeout: TEST_TIMEOUT }, async () => {
    const token = await harness.svc.context.profiles.links.sign({ profile: 'event-feedback', properties: { eventId: 42 }, ttlSeconds: 600, singleUse: true });
    const context = await harness.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${harness.serviceOrigin}/f/contact?profile=event-feedback&token=${encodeURIComponent(token)}`);
      expect(await page.locator('#f-message').inputValue()).toBe('Feedback on event 42: ');
      await page.locator('#f-firstName').fill('Ann');
      await page.locator('#f-lastName').fill('Lee');
      await page.locator('#f-email').fill('nojs-link@example.test');
      await page.locator('#f-message').fill('Feedback on event 42: lovely');
      await Promise.all([page.waitForLoadState('load'), page.locator('button[name=svc-action][value=submit]').click()]);
      await expect.poll(() => text(page.locator('.done')), WAIT).toBe('Thanks, we got your message.');
      expect((await storedWith(harness, 'contact', 'nojs-link@example.test'))?.message).toBe('Feedback on event 42: lovely');
      // Spent: the link now opens the page that says so.
      await page.goto(`${harness.serviceOrigin}/f/contact?profile=event-feedback&token=${encodeURIComponent(token)}`);
      expect(await text(page.locator('h1'))).toBe('This link has already been used.');
    } finally {
      await context.close();
    }
  });
});

describeWithChromium('a hosted page with a captcha from the configured script URL in Chromium', () => {
  const SCRIPT_PATH = '/fake/turnstile.js';
  let harness: BrowserHarness;
  let verify: VerifyServer;

  beforeAll(async () => {
    verify = await startVerifyServer();
    harness = await startBrowserHarness(
      ({ pageOrigin }) => ({
        ...ADMIN,
        captcha: { turnstile: { siteKey: 'site-turnstile', secretKey: 'secret-turnstile', verifyUrl: verify.url, scriptUrl: `${pageOrigin}${SCRIPT_PATH}` } },
      }),
      { [SCRIPT_PATH]: { type: 'text/javascript; charset=utf-8', body: FAKE_TURNSTILE_SCRIPT } },
    );
  });
  afterEach(async () => {
    await harness?.closePages();
  });
  afterAll(async () => {
    await harness?.close();
    await verify?.close();
  });

  it('loads the widget from that URL under a CSP that allows its origin and no other, and a solved captcha submits', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newCspPage(harness);
    const response = await tracked.page.request.get(`${harness.serviceOrigin}/f/contact`);
    const csp = response.headers()['content-security-policy'] ?? '';
    expect(csp).toContain(`script-src 'self' ${harness.pageOrigin};`);
    expect(csp).toContain(`frame-src ${harness.pageOrigin};`);
    expect(csp).toContain(`connect-src 'self' ${harness.pageOrigin};`);
    const form = await openForm(tracked, `${harness.serviceOrigin}/f/contact`, 'contact');
    const widget = tracked.page.locator('svc-form[handle="contact"] > div[slot="captcha"] button.fake-turnstile');
    await widget.waitFor({ state: 'visible' });
    const scripts = await tracked.page.evaluate(() => Array.from(document.querySelectorAll('script[src]')).map((script) => (script as HTMLScriptElement).src));
    expect(scripts).toContain(`${harness.pageOrigin}${SCRIPT_PATH}`);
    await fillContact(form);
    await form.locator('#svc-email').fill('hosted-captcha@example.test');
    await widget.click();
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('[part=success]')), WAIT).toBe('Thanks, we got your message.');
    expect(verify.tokens).toContain(GOOD_TOKEN);
    expect(await storedWith(harness, 'contact', 'hosted-captcha@example.test'), pageProblems(tracked)).toBeDefined();
    expect(await cspViolations(tracked)).toEqual([]);
  });
});

describeWithChromium('a hosted page taking a card payment through the Stripe double in Chromium', () => {
  const WEBHOOK_SECRET = 'whsec_hosted_payments_0123456789abcdef';
  let harness: BrowserHarness;
  let double: StripeDouble;

  beforeAll(async () => {
    double = await startStripeDouble();
    harness = await startBrowserHarness({
      ...ADMIN,
      payments: {
        stripe: { publishableKey: double.publishableKey, secretKey: double.secretKey, webhookSecret: WEBHOOK_SECRET, apiUrl: double.url, jsUrl: double.jsUrl },
        reconcileIntervalMinutes: 0,
      },
    });
    double.setWebhook({ url: `${harness.serviceOrigin}/svc/payments/stripe/webhook`, secret: WEBHOOK_SECRET });
  });
  afterEach(async () => {
    await harness?.closePages();
  });
  afterAll(async () => {
    await harness?.close();
    await double?.close();
  });

  it("loads the configured Stripe.js, whose calls to its API the CSP allows, pays and stores the submission", { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newCspPage(harness);
    const doubleOrigin = new URL(double.jsUrl).origin;
    const csp = (await tracked.page.request.get(`${harness.serviceOrigin}/f/donation`)).headers()['content-security-policy'] ?? '';
    expect(csp).toContain(`script-src 'self' ${doubleOrigin};`);
    expect(csp).toContain(`connect-src 'self' ${doubleOrigin};`);
    const form = await openForm(tracked, `${harness.serviceOrigin}/f/donation`, 'donation');
    const card = tracked.page.locator('svc-form[handle="donation"] > .svc-payment input[name="cardnumber"]');
    await card.waitFor({ state: 'visible', timeout: WAIT.timeout });
    expect(await tracked.page.evaluate(() => Array.from(document.querySelectorAll('script[src]')).map((script) => (script as HTMLScriptElement).src))).toContain(double.jsUrl);
    await form.locator('#svc-name').fill('Ada Donor');
    await form.locator('#svc-email').fill('hosted-paid@example.test');
    await form.locator('#svc-gift').selectOption('50');
    await expect.poll(() => text(form.locator('[part=payment-status]')), WAIT).toContain('50.00');
    await card.fill('4242424242424242');
    expect(await cspViolations(tracked)).toEqual([]);
    await visible(form, 'button[part=submit]').click();
    await tracked.page.waitForURL(/\/svc\/payments\/stripe\/callback\?/, { timeout: WAIT.timeout });
    await expect.poll(async () => (await storedWith(harness, 'donation', 'hosted-paid@example.test'))?.gift, WAIT).toBe('50');
    expect(double.intents().at(-1)).toMatchObject({ status: 'succeeded', amount: 5000 });
    expect(tracked.problems.filter((p) => /Content Security Policy|Refused to/i.test(p)), pageProblems(tracked)).toEqual([]);
  });
});

describeWithChromium('a hosted page with a custom theme in Chromium', () => {
  const harness = useBrowserHarness({ hosted: { theme: CUSTOM_THEME } });

  it('is axe-clean at 375 and 1280 px (docs/hosted/contact-custom-*.png)', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    const form = await openForm(tracked, `${harness.serviceOrigin}/f/contact`, 'contact');
    expect(await form.evaluate((element) => getComputedStyle(element).fontFamily)).toContain('Georgia');
    await fillContact(form);
    await shootAndCheck(harness, tracked, 'contact-custom', 'light');
  });
});
