/**
 * A resumed draft's files in `<svc-form>` (issue #31 item 12b): a job application saved with a CV
 * sent with its first step and a portfolio image dropped on the zone, resumed from its link in a
 * browser that uploaded neither, lists both by name and size, as the page that uploaded them did.
 */
import { expect, it } from 'vitest';
import { describeWithChromium } from './support/chromium.js';
import { useBrowserHarness } from './support/browser-harness.js';
import { dropFiles } from './support/drop-files.js';
import { openForm, pageProblems, text, visible } from './support/form-page.js';
import { samplePdf, samplePng } from './support/sample-files.js';

const WAIT = { timeout: 10_000, interval: 50 };
const TEST_TIMEOUT = 40_000;

/** The element's size text: whole KB (at least 1) under a megabyte. */
const kilobytes = (bytes: Buffer) => `${Math.max(1, Math.round(bytes.length / 1024))} KB`;

describeWithChromium('a resumed draft’s files in <svc-form>', () => {
  const harness = useBrowserHarness();

  it('a job-application draft resumed in another browser lists photo.png and cv.pdf with their sizes', { timeout: TEST_TIMEOUT }, async () => {
    const photo = samplePng();
    const cv = samplePdf('Susan Kare, icons');
    const first = await harness.newPage();
    let form = await openForm(first, harness.formUrl('job-application', { allowSave: true }), 'job-application');
    await form.locator('#svc-role').selectOption('Product designer');
    await form.locator('[data-field=cv] input[type=file]').setInputFiles({ name: 'cv.pdf', mimeType: 'application/pdf', buffer: cv });
    const zone = form.locator('[data-field=portfolio] [part=dropzone]');
    await dropFiles(zone, [{ name: 'photo.png', type: 'image/png', bytes: photo }]);
    await expect.poll(() => text(zone.locator('[part=files] li')), WAIT).toContain('photo.png');
    await visible(form, 'button[part=submit]').click();
    await form.locator('#svc-fullName').waitFor({ state: 'visible', timeout: WAIT.timeout });
    await form.locator('#svc-fullName').fill('Susan Kare');
    await visible(form, 'button[part=save]').click();
    const link = form.locator('[part=draft] a[part=resume-link]');
    await expect.poll(() => link.count(), WAIT).toBe(1);
    const resumeUrl = new URL((await link.getAttribute('href')) as string);
    const token = resumeUrl.searchParams.get('token') ?? '';
    const key = resumeUrl.searchParams.get('key') ?? '';

    // A new browser context: its own cookies, no upload token; only the draft's token and key.
    const second = await harness.newPage();
    form = await openForm(second, harness.formUrl('job-application', { token, key }), 'job-application');
    await expect.poll(() => text(form.locator('[part=progress]')), WAIT).toBe('Page 2 of 2');
    await visible(form, 'button[part=back]').click();
    await expect.poll(() => text(form.locator('[part=progress]')), WAIT).toBe('Page 1 of 2');
    const portfolio = form.locator('[data-field=portfolio] [part=files] li');
    await expect.poll(() => portfolio.count(), WAIT).toBe(1);
    expect(await text(portfolio.locator('span'))).toBe(`photo.png (${kilobytes(photo)})`);
    expect(await text(form.locator('[data-field=cv] [part=files] li > span'))).toBe(`cv.pdf (${kilobytes(cv)})`);
    expect(second.problems.filter((p) => p.startsWith('page error')), pageProblems(second)).toEqual([]);
  });
});
