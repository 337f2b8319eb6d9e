/**
 * Files the service refuses, as a person sees them (issue #31 item 12a): a file dropped on a
 * drag-and-drop zone that the server's content check refuses (FILE_REJECTED), and one picked in
 * the input that passes the browser's name check but not the server's, both leave the server's
 * own message on their field, and it stays there once the upload round is over.
 */
import { expect, it } from 'vitest';
import { describeWithChromium } from './support/chromium.js';
import { useBrowserHarness } from './support/browser-harness.js';
import { openForm, text, visible } from './support/form-page.js';
import { samplePng } from './support/sample-files.js';
import { dropFiles } from './support/drop-files.js';

const WAIT = { timeout: 10_000, interval: 50 };
const TEST_TIMEOUT = 40_000;

describeWithChromium('files the service refuses', () => {
  const harness = useBrowserHarness();

  it('a PNG dropped as cv.pdf is refused with the server message on the CV field, and it stays', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    const form = await openForm(tracked, harness.formUrl('job-application'), 'job-application');
    const zone = form.locator('[data-field=cv] [part=dropzone]');
    await dropFiles(zone, [{ name: 'cv.pdf', type: 'application/pdf', bytes: samplePng() }]);
    // The round is over once the zone is no longer busy; the refusal must still be shown then.
    await expect.poll(() => zone.getAttribute('aria-busy'), WAIT).toBeNull();
    const errors = form.locator('#svc-cv-errors');
    await expect.poll(() => text(errors), WAIT).toMatch(/cv\.pdf.*not an allowed type/);
    expect(await form.locator('#svc-cv').getAttribute('aria-invalid')).toBe('true');
    expect(await zone.locator('[part=files] li').count()).toBe(0);
    const events = await tracked.events();
    expect(events.some((e) => e.type === 'svc:error' && JSON.stringify(e.detail).includes('FILE_REJECTED'))).toBe(true);
  });

  it('a PNG picked as cv.pdf passes the name check, and Next shows the server refusal on the CV field', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    const form = await openForm(tracked, harness.formUrl('job-application'), 'job-application');
    await form.locator('#svc-role').selectOption('Backend engineer');
    await form.locator('[data-field=cv] input[type=file]').setInputFiles({ name: 'cv.pdf', mimeType: 'application/pdf', buffer: samplePng() });
    await visible(form, 'button[part=submit]').click();
    const errors = form.locator('#svc-cv-errors');
    await expect.poll(() => text(errors), WAIT).toMatch(/cv\.pdf.*not an allowed type/);
    expect(await form.locator('#svc-fullName').count()).toBe(0);
  });
});
