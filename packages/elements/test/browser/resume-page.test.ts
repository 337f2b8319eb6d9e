/**
 * The demo's resume link in Chromium (issue #11): job-application's `saveRedirectUrl` names the
 * resume page svc serves under /demo/, and that page, opened from the link, restores the draft.
 * The example's link is a path that svc completes with its own address, so it names the port the
 * test's service listens on (issue #31); it is opened on the harness's origin for that service.
 */
import { expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { describeWithChromium } from './support/chromium.js';
import { useBrowserHarness, type TrackedPage } from './support/browser-harness.js';
import { openForm, pageProblems, visible, text } from './support/form-page.js';
import { samplePdf } from './support/sample-files.js';

const WAIT = { timeout: 10_000, interval: 50 };
const TEST_TIMEOUT = 40_000;

describeWithChromium('the demo resume page in Chromium', () => {
  const harness = useBrowserHarness();
  const newPage = (): Promise<TrackedPage> => harness.newPage();

  it('a job-application draft saved with the element resumes from its link on the page svc serves', { timeout: TEST_TIMEOUT }, async () => {
    const first = await newPage();
    let form = await openForm(first, harness.formUrl('job-application', { allowSave: true }), 'job-application');
    await form.locator('#svc-role').selectOption('Product designer');
    await form.locator('[data-field=cv] input[type=file]').setInputFiles({ name: 'cv.pdf', mimeType: 'application/pdf', buffer: samplePdf() });
    await visible(form, 'button[part=submit]').click();
    await form.locator('#svc-fullName').waitFor({ state: 'visible', timeout: WAIT.timeout });
    await form.locator('#svc-fullName').fill('Susan Kare');
    await form.locator('#svc-coverLetter').fill('Icons <b>&</b> "fonts".');
    await visible(form, 'button[part=save]').click();

    const link = form.locator('[part=draft] a[part=resume-link]');
    await expect.poll(() => link.count(), WAIT).toBe(1);
    const resumeUrl = new URL((await link.getAttribute('href')) as string);
    expect(`${resumeUrl.origin}${resumeUrl.pathname}`).toBe(`http://localhost:${new URL(harness.serviceOrigin).port}/demo/resume`);
    expect(resumeUrl.searchParams.get('form')).toBe('job-application');
    expect(resumeUrl.searchParams.get('token')).toBeTruthy();
    expect(resumeUrl.searchParams.get('key')).toBeTruthy();

    // A new browser context on the service's own origin: nothing carried over but the link.
    const second = await newPage();
    form = await openForm(second, `${harness.serviceOrigin}${resumeUrl.pathname}${resumeUrl.search}`, 'job-application');
    await expect.poll(() => text(form.locator('[part=progress]')), WAIT).toBe('Page 2 of 2');
    expect(await form.locator('#svc-fullName').inputValue()).toBe('Susan Kare');
    expect(await form.locator('#svc-coverLetter').inputValue()).toBe('Icons <b>&</b> "fonts".');
    expect(await text(form.locator('[part=form-errors]'))).toBe('');
    expect((await second.events()).filter((e) => e.type === 'svc:error')).toEqual([]);
    await visible(form, 'button[part=back]').click();
    await expect.poll(() => text(form.locator('[part=progress]')), WAIT).toBe('Page 1 of 2');
    expect(await form.locator('#svc-role').inputValue()).toBe('Product designer');
    // The CV sent with the first step is held by the draft and listed as uploaded.
    expect(await form.locator('[data-field=cv] [data-upload-id]').count()).toBe(1);
    // (Loading the draft checks its page, which answers 422 while email is empty: not a problem.)
    expect(second.problems.filter((p) => p.startsWith('page error')), pageProblems(second)).toEqual([]);
  });

  it('a resume link with a stale draft says so, and no part of its query reaches the page as markup', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newPage();
    const hostile = '"><img src=x onerror="window.__pwned=1">';
    const query = new URLSearchParams({ form: 'job-application', token: hostile, key: `<script>window.__pwned=1</script>` });
    const form = await openForm(tracked, `${harness.serviceOrigin}/demo/resume?${query}`, 'job-application');
    await expect.poll(() => text(form.locator('[part=form-errors]')), WAIT).toContain('could not be found or has expired');
    expect(await tracked.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null)).toBeNull();
    expect(await tracked.page.locator('img, body > script:not([type=module])').count()).toBe(0);
    expect(await form.getAttribute('draft-token')).toBe(hostile);
  });

  it('a resume link without its draft says it is incomplete instead of showing an empty form', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newPage();
    await tracked.page.goto(`${harness.serviceOrigin}/demo/resume?form=job-application`);
    await expect.poll(() => text(tracked.page.locator('#resume-note')), WAIT).toContain('This link is incomplete');
    expect(await tracked.page.locator('svc-form').count()).toBe(0);
  });
});
