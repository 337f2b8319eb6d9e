/**
 * `<svc-form>` with a captcha, in Chromium: the service lists Turnstile for `contact` (keys in
 * config), the element loads the provider's script into the page (a fake one from the page
 * server) and renders its widget in light DOM above the submit button; the token reaches the
 * service in `meta.captchas` and is checked against a local verify server.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { describeWithChromium } from './support/chromium.js';
import { startBrowserHarness, type BrowserHarness, type TrackedPage } from './support/browser-harness.js';
import { FAKE_TURNSTILE_SCRIPT, GOOD_TOKEN, startVerifyServer, type VerifyServer } from './support/captcha-fakes.js';
import { openForm, pageProblems, text } from './support/form-page.js';
import { storedSubmissions, storedSubmissionWith } from './support/stored-rows.js';

const WAIT = { timeout: 10_000, interval: 50 };
const TEST_TIMEOUT = 40_000;
const SCRIPT_PATH = '/fake/turnstile.js';
const FIELD = 'cf-turnstile-response';

/** The JSON bodies of the page's submits to `contact`. */
function recordSubmits(tracked: TrackedPage): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  tracked.page.on('request', (request) => {
    if (request.method() !== 'POST' || !request.url().endsWith('/svc/api/forms/contact/submit')) return;
    bodies.push(JSON.parse(request.postData() ?? '{}') as Record<string, unknown>);
  });
  return bodies;
}

async function fillContact(form: Locator, email: string): Promise<void> {
  await form.locator('#svc-firstName').fill('Ada');
  await form.locator('#svc-lastName').fill('Lovelace');
  await form.locator('#svc-email').fill(email);
  await form.locator('#svc-message').fill('Captcha, please.');
}

describeWithChromium('<svc-form> with a captcha', () => {
  let harness: BrowserHarness;
  let verify: VerifyServer;
  const newPage = (): Promise<TrackedPage> => harness.newPage();

  beforeAll(async () => {
    verify = await startVerifyServer();
    harness = await startBrowserHarness(
      ({ pageOrigin }) => ({
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

  it('renders the widget in light DOM above the submit button, and a solved captcha submits and is stored', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newPage();
    const submits = recordSubmits(tracked);
    const form = await openForm(tracked, harness.formUrl('contact'), 'contact');
    const widget = tracked.page.locator('svc-form[handle="contact"] > div[slot="captcha"] button.fake-turnstile');
    await widget.waitFor({ state: 'visible' });

    const layout = await tracked.page.evaluate((path) => {
      const host = document.querySelector('svc-form[handle="contact"]') as HTMLElement;
      const slot = host.shadowRoot?.querySelector('slot[name="captcha"]') as HTMLSlotElement | null;
      return {
        scripts: Array.from(document.head.querySelectorAll('script')).filter((s) => new URL(s.src, location.href).pathname === path).length,
        renders: (window as unknown as { __fakeTurnstile: { render: unknown[] } }).__fakeTurnstile.render,
        slotted: slot?.assignedElements().map((e) => e.getAttribute('slot')) ?? null,
        aboveSubmit: slot?.nextElementSibling?.matches('[part=buttons]') === true && slot.nextElementSibling.querySelector('button[part=submit]') !== null,
      };
    }, SCRIPT_PATH);
    expect(layout).toEqual({ scripts: 1, renders: [{ sitekey: 'site-turnstile', inShadow: false }], slotted: ['captcha'], aboveSubmit: true });

    await fillContact(form, 'captcha-ok@example.test');
    await widget.click();
    await form.locator('button[part=submit]').click();

    await expect.poll(() => text(form.locator('[part=success]')), WAIT).toContain('Thanks, we got your message.');
    const stored = await storedSubmissionWith(harness.svc, 'contact', 'email', 'captcha-ok@example.test');
    expect(stored, `no contact submission stored${pageProblems(tracked)}`).toBeDefined();
    expect(submits.at(-1)?.meta).toMatchObject({ captchas: [{ name: FIELD, value: GOOD_TOKEN }] });
    expect(verify.tokens).toContain(GOOD_TOKEN);
    // The widget goes with the form it belonged to.
    expect(await tracked.page.locator('svc-form div[slot="captcha"]').count()).toBe(0);
  });

  it('without solving the captcha shows the captcha_failed error, stores nothing and resets the widget; solving it then submits', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newPage();
    const submits = recordSubmits(tracked);
    const form = await openForm(tracked, harness.formUrl('contact'), 'contact');
    const widget = tracked.page.locator('svc-form[handle="contact"] button.fake-turnstile');
    await widget.waitFor({ state: 'visible' });
    const before = (await storedSubmissions(harness.svc, 'contact')).length;

    await fillContact(form, 'captcha-missing@example.test');
    await form.locator('button[part=submit]').click();

    await expect.poll(() => text(form.locator('[part=form-errors]')), WAIT).toContain('Please complete the captcha and try again.');
    const events = await tracked.events();
    expect(events.some((e) => e.type === 'svc:error' && (e.detail as { response?: { status?: string } }).response?.status === 'captcha_failed')).toBe(true);
    expect((await storedSubmissions(harness.svc, 'contact')).length).toBe(before);
    expect(submits).toHaveLength(1);
    expect(submits[0]?.meta).not.toHaveProperty('captchas');
    const resets = await tracked.page.evaluate(() => (window as unknown as { __fakeTurnstile: { reset: unknown[] } }).__fakeTurnstile.reset);
    expect(resets).toEqual(['widget-1']);

    await widget.click();
    await form.locator('button[part=submit]').click();
    await expect.poll(() => text(form.locator('[part=success]')), WAIT).toContain('Thanks, we got your message.');
    expect(await storedSubmissionWith(harness.svc, 'contact', 'email', 'captcha-missing@example.test'), pageProblems(tracked)).toBeDefined();
    expect((await storedSubmissions(harness.svc, 'contact')).length).toBe(before + 1);
  });
});
