/**
 * Errors that follow the person's input, in Chromium (issue #11, found by trying the demo): a
 * file chosen in a plain file input is checked against the field's kinds, size and count the
 * moment it is chosen, never reported as "required", and never sent; and the form-level summary
 * goes once every field error has been fixed.
 */
import { expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { describeWithChromium } from './support/chromium.js';
import { useBrowserHarness, type TrackedPage } from './support/browser-harness.js';
import { openForm, pageProblems, visible, text } from './support/form-page.js';
import { samplePdf, samplePng } from './support/sample-files.js';

const WAIT = { timeout: 10_000, interval: 50 };
const TEST_TIMEOUT = 40_000;
const REQUIRED = 'This field is required';

/** A text file as a person would pick it by mistake. */
const NOTES = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Not an image at all.\n') };

describeWithChromium('errors that follow the input in Chromium', () => {
  const harness = useBrowserHarness();
  const newPage = (): Promise<TrackedPage> => harness.newPage();

  it('a .txt chosen for image and PDF fields is refused at once, never as "required", and Next sends nothing until it is replaced', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newPage();
    const form = await openForm(tracked, harness.formUrl('job-application'), 'job-application');
    const portfolio = form.locator('[data-field=portfolio] input[type=file]');
    const portfolioErrors = form.locator('ul#svc-portfolio-errors');
    const cv = form.locator('[data-field=cv] input[type=file]');
    const cvErrors = form.locator('ul#svc-cv-errors');

    // Portfolio takes images: the text file is refused as soon as it is chosen, before any button.
    await portfolio.setInputFiles(NOTES);
    await expect.poll(() => text(portfolioErrors), WAIT).toContain('"notes.txt" is not an allowed type of file (allowed: image)');
    expect(await portfolio.getAttribute('aria-invalid')).toBe('true');
    expect((await portfolio.getAttribute('aria-describedby'))?.split(/\s+/)).toContain('svc-portfolio-errors');

    // The CV is required and takes PDFs and documents: the same file is refused, and "required" is
    // not said of an input that holds a file.
    await cv.setInputFiles(NOTES);
    await expect.poll(() => text(cvErrors), WAIT).toContain('"notes.txt" is not an allowed type of file (allowed: PDF, document)');
    expect(await cv.getAttribute('aria-invalid')).toBe('true');
    expect(await text(cvErrors)).not.toContain(REQUIRED);

    // Next does not move on and sends nothing; the errors stay the files' own.
    await form.locator('#svc-role').selectOption('Backend engineer');
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('[part=form-errors]')), WAIT).not.toBe('');
    expect(await text(cvErrors)).toContain('is not an allowed type of file');
    expect(await text(cvErrors)).not.toContain(REQUIRED);
    expect(await text(portfolioErrors)).toContain('is not an allowed type of file');
    expect(await text(portfolioErrors)).not.toContain(REQUIRED);
    expect(await form.locator('#svc-fullName').isVisible()).toBe(false);
    expect(tracked.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/submit'))).toEqual([]);

    // Too many portfolio images (it takes three) and a CV over 5 MB are refused at once too.
    const png = samplePng();
    await portfolio.setInputFiles(['a', 'b', 'c', 'd'].map((n) => ({ name: `${n}.png`, mimeType: 'image/png', buffer: png })));
    await expect.poll(() => text(portfolioErrors), WAIT).toBe('Upload at most 3 files');
    // Five megabytes cross to the browser in one message: more time than a click needs.
    await cv.setInputFiles({ name: 'huge.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(5121 * 1024, 0x20) }, { timeout: 20_000 });
    await expect.poll(() => text(cvErrors), WAIT).toBe('"huge.pdf" is larger than 5 MB');

    // Right files clear the errors as they are chosen, and the step goes through.
    await portfolio.setInputFiles({ name: 'sketch.png', mimeType: 'image/png', buffer: png });
    await expect.poll(() => portfolio.getAttribute('aria-invalid'), WAIT).toBeNull();
    await cv.setInputFiles({ name: 'cv.pdf', mimeType: 'application/pdf', buffer: samplePdf() });
    await expect.poll(() => cv.getAttribute('aria-invalid'), WAIT).toBeNull();
    expect(await text(cvErrors)).toBe('');
    await visible(form, 'button[part=submit]').click();
    await form.locator('#svc-fullName').waitFor({ state: 'visible', timeout: WAIT.timeout });
    expect(tracked.problems.filter((p) => p.startsWith('page error')), pageProblems(tracked)).toEqual([]);
  });

  it('the error summary updates as fields are fixed and goes once none is left', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newPage();
    const form = await openForm(tracked, harness.formUrl('contact'), 'contact');
    const summary = form.locator('[part=form-errors]');
    await form.locator('#svc-lastName').fill('Hopper');
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => form.locator('#svc-email').getAttribute('aria-invalid'), WAIT).toBe('true');
    expect(await form.locator('#svc-firstName').getAttribute('aria-invalid')).toBe('true');
    expect(await text(summary)).toBe('Please correct the errors below.');
    expect(await summary.isVisible()).toBe(true);

    // One of two fixed: its error goes, the other and the summary stay.
    await form.locator('#svc-firstName').fill('Grace');
    await expect.poll(() => form.locator('#svc-firstName').getAttribute('aria-invalid'), WAIT).toBeNull();
    expect(await text(summary)).toBe('Please correct the errors below.');

    // Still wrong while typing: the summary stays.
    await form.locator('#svc-email').fill('grace@');
    await expect.poll(() => text(form.locator('ul#svc-email-errors')), WAIT).not.toBe('');
    expect(await summary.isVisible()).toBe(true);

    // All fixed: no summary.
    await form.locator('#svc-email').fill('grace@example.test');
    await expect.poll(() => form.locator('#svc-email').getAttribute('aria-invalid'), WAIT).toBeNull();
    await expect.poll(() => summary.isVisible(), WAIT).toBe(false);
    expect(await text(summary)).toBe('');
    expect(tracked.problems.filter((p) => p.startsWith('page error')), pageProblems(tracked)).toEqual([]);
  });
});
