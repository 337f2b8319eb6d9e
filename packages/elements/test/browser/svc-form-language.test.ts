/**
 * `<svc-form>` in another language (issue #34 item 4): its own words and the local validation
 * messages follow the element's `lang` (the manifest's site.language otherwise), and an Arabic
 * form is laid out right to left, with axe finding nothing serious. With a `site` attribute the
 * labels and the server's answers are the site's (the demo's sites, as `npm start` has them).
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { describeViolations, isSerious, runAxe } from './support/axe-check.js';
import { describeWithChromium } from './support/chromium.js';
import { useBrowserHarness } from './support/browser-harness.js';
import { openForm, pageProblems, text, visible } from './support/form-page.js';

const WAIT = { timeout: 10_000, interval: 50 };
const TEST_TIMEOUT = 40_000;
const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../../../test-artifacts/screenshots');
const DEMO_CONFIG = resolve(import.meta.dirname, '../../../../examples/svc.config.yaml');
const DEMO_SITES = (parse(readFileSync(DEMO_CONFIG, 'utf8')) as { sites: unknown[] }).sites;

/** The `lang` and `dir` of the element's rendered form, and where its first field's label text sits. */
function layoutOf(form: Locator) {
  return form.evaluate((element) => {
    const root = element.shadowRoot!;
    const shown = root.querySelector('form')!;
    const formBox = shown.getBoundingClientRect();
    // The label's text, not its box (which spans the row whichever way text runs).
    const range = document.createRange();
    range.selectNodeContents(root.querySelector('label[for="svc-firstName"]')!);
    const label = range.getBoundingClientRect();
    return {
      lang: shown.lang,
      dir: shown.dir,
      direction: getComputedStyle(shown).direction,
      labelGapStart: Math.round(label.left - formBox.left),
      labelGapEnd: Math.round(formBox.right - label.right),
    };
  });
}

describeWithChromium('<svc-form> in other languages', () => {
  const harness = useBrowserHarness({ sites: DEMO_SITES });

  it('speaks the site language by default: English, left to right', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    const form = await openForm(tracked, harness.formUrl('contact'), 'contact');
    const layout = await layoutOf(form);
    expect(layout).toMatchObject({ lang: 'en-US', dir: 'ltr', direction: 'ltr' });
    expect(layout.labelGapStart).toBeLessThan(layout.labelGapEnd);
  });

  it('in Arabic (lang="ar") checks locally in Arabic and lays the form out right to left', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    const form = await openForm(tracked, harness.formUrl('contact'), 'contact');
    await form.evaluate((element) => element.setAttribute('lang', 'ar'));
    await expect.poll(async () => (await layoutOf(form)).dir, WAIT).toBe('rtl');
    const layout = await layoutOf(form);
    expect(layout).toMatchObject({ lang: 'ar', direction: 'rtl' });
    // Right to left: the label hugs the form's right edge.
    expect(layout.labelGapEnd).toBeLessThan(layout.labelGapStart);

    await form.locator('#svc-email').fill('not-an-address');
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('#svc-firstName-errors')), WAIT).toBe('هذا الحقل مطلوب');
    expect(await text(form.locator('#svc-email-errors'))).toBe('أدخل عنوان بريد إلكتروني صالحًا');
    const shot = join(mkdtempSync(join(tmpdir(), 'svc-rtl-')), 'contact-ar.png');
    await form.screenshot({ path: shot });
    console.log(`<svc-form lang="ar"> screenshot: ${shot}`);
    const serious = (await runAxe(tracked.page, 'svc-form[handle="contact"]')).filter(isSerious);
    expect(serious, describeViolations(serious) + pageProblems(tracked)).toEqual([]);
  });

  it('in German (lang="de-DE") words the local checks in German and back in English when lang goes', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    const form = await openForm(tracked, harness.formUrl('contact'), 'contact');
    await form.evaluate((element) => element.setAttribute('lang', 'de-DE'));
    await expect.poll(async () => (await layoutOf(form)).lang, WAIT).toBe('de-DE');
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('#svc-firstName-errors')), WAIT).toBe('Dieses Feld ist erforderlich');
    await form.evaluate((element) => element.removeAttribute('lang'));
    await expect.poll(async () => (await layoutOf(form)).lang, WAIT).toBe('en-US');
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('#svc-firstName-errors')), WAIT).toBe('This field is required');
  });

  it('on site="ar": the server\'s Arabic labels and answers, right to left; site="de" reloads it in German', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    // The element checks locally first, in the same catalogue (so the same words). To see the
    // server's own answer, its copy of the manifest shows the email field as plain text.
    await tracked.page.route(/\/svc\/api\/forms\/contact\/manifest\?site=ar$/, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: { fields: Record<string, { type: string }> } };
      body.data.fields.email!.type = 'text';
      await route.fulfill({ response, json: body });
    });
    const submits: { context: Record<string, unknown> }[] = [];
    tracked.page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/contact/submit')) submits.push(JSON.parse(request.postData() ?? '{}'));
    });
    const form = await openForm(tracked, harness.formUrl('contact', { site: 'ar' }), 'contact');
    expect(await text(form.locator('label[for="svc-firstName"]'))).toContain('الاسم الأول');
    expect(await text(visible(form, 'button[part=submit]'))).toBe('إرسال');
    const layout = await layoutOf(form);
    expect(layout).toMatchObject({ lang: 'ar', dir: 'rtl', direction: 'rtl' });
    expect(layout.labelGapEnd).toBeLessThan(layout.labelGapStart);

    await form.locator('#svc-firstName').fill('ليلى');
    await form.locator('#svc-email').fill('not-an-address');
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('#svc-email-errors')), WAIT).toBe('أدخل عنوان بريد إلكتروني صالحًا');
    expect(submits.map((body) => body.context)).toEqual([{ site: 'ar' }]);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await form.screenshot({ path: join(SCREENSHOT_DIR, 'contact-site-ar.png'), animations: 'disabled' });
    const serious = (await runAxe(tracked.page, 'svc-form[handle="contact"]')).filter(isSerious);
    expect(serious, describeViolations(serious) + pageProblems(tracked)).toEqual([]);

    // `site` is observed: changing it loads the form again on the other site.
    await form.evaluate((element) => element.setAttribute('site', 'de'));
    await expect.poll(() => text(form.locator('label[for="svc-firstName"]')), WAIT).toContain('Vorname');
    expect(await layoutOf(form)).toMatchObject({ lang: 'de-DE', dir: 'ltr' });
  });
});
