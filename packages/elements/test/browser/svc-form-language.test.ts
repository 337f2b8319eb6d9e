/**
 * `<svc-form>` in another language (issue #34 item 4): its own words and the local validation
 * messages follow the element's `lang` (the manifest's site.language otherwise), and an Arabic
 * form is laid out right to left, with axe finding nothing serious.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { describeViolations, isSerious, runAxe } from './support/axe-check.js';
import { describeWithChromium } from './support/chromium.js';
import { useBrowserHarness } from './support/browser-harness.js';
import { openForm, pageProblems, text, visible } from './support/form-page.js';

const WAIT = { timeout: 10_000, interval: 50 };
const TEST_TIMEOUT = 40_000;

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
  const harness = useBrowserHarness();

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
});
