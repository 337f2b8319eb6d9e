/**
 * Hosted pages in Chromium (issue #36): the page svc serves at /f/{handle}, with its strict CSP
 * (a refused script or style would show as a console error), submits through the REST API with
 * JavaScript; a multi-page form saved for later comes back to the page from its resume link; and
 * the page is axe-clean in light, dark and a custom theme, at 375 and 1280 px, whose screenshots
 * are docs/hosted/*.png.
 */
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { describeWithChromium } from './support/chromium.js';
import { useBrowserHarness, type BrowserHarness, type TrackedPage } from './support/browser-harness.js';
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
