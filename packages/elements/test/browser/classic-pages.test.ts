/**
 * The demo's server-rendered pages in Chromium (issue #14): drawn from the properties JSON alone
 * and posted as plain HTML forms. With JavaScript off: contact with its errors, the application's
 * next and back with the page its rule skips, a file on job-application. With JavaScript on: the
 * final post goes by ajax, honouring disableSubmit and loadingText. Each page is axe-clean.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describeWithChromium } from './support/chromium.js';
import { startBrowserHarness, type BrowserHarness } from './support/browser-harness.js';
import { describeViolations, isSerious, runAxe } from './support/axe-check.js';
import { storedSubmissions } from './support/stored-rows.js';
import { samplePdf } from './support/sample-files.js';

const TEST_TIMEOUT = 40_000;

describeWithChromium('server-rendered demo pages (classic posts)', () => {
  let harness: BrowserHarness;
  let fileDir: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    harness = await startBrowserHarness();
    fileDir = mkdtempSync(join(tmpdir(), 'svc-classic-files-'));
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
  });
  afterAll(async () => {
    await harness?.close();
    if (fileDir) rmSync(fileDir, { recursive: true, force: true });
  });

  async function open(handle: string, javaScriptEnabled: boolean): Promise<Page> {
    const context = await harness.browser.newContext({ javaScriptEnabled, viewport: { width: 1000, height: 900 } });
    context.setDefaultTimeout(5_000);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${harness.serviceOrigin}/demo/classic/${handle}`);
    return page;
  }

  /** axe needs scripts: the same page, opened again with JavaScript on. */
  async function expectAxeClean(url: string, what: string): Promise<void> {
    const context = await harness.browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(url);
    const serious = (await runAxe(page, 'main')).filter(isSerious);
    expect(serious, `axe-core on ${what}:\n${describeViolations(serious)}`).toEqual([]);
  }

  const click = (page: Page, action: string) => Promise.all([page.waitForLoadState('load'), page.locator(`button[name=svc-action][value=${action}]`).click()]);

  it('contact with JavaScript off: the errors come back with the values, then it is stored', { timeout: TEST_TIMEOUT }, async () => {
    const page = await open('contact', false);
    await page.locator('#f-firstName').fill('Ann');
    await page.locator('#f-email').fill('not an email');
    await click(page, 'submit');
    expect(new URL(page.url()).searchParams.get('svc_flash')).toBeTruthy();
    expect(await page.locator('#form-status').textContent()).toContain('Please correct the errors below.');
    expect(await page.locator('#f-email-errors li').count()).toBe(1);
    expect(await page.locator('#f-email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#f-firstName').inputValue()).toBe('Ann');
    await expectAxeClean(page.url().replace(/svc_flash=[^&#]+/, 'svc_flash=spent'), 'contact after a refused post');

    const before = (await storedSubmissions(harness.svc, 'contact')).length;
    await page.locator('#f-email').fill('ann@example.test');
    await click(page, 'submit');
    expect(await page.locator('.done').textContent()).toContain('Thanks, we got your message.');
    const stored = await storedSubmissions(harness.svc, 'contact');
    expect(stored.length).toBe(before + 1);
    expect(stored.at(-1)).toMatchObject({ values: { firstName: 'Ann', email: 'ann@example.test' }, isSpam: false });
    // A reload shows a fresh form: the flash was for one read.
    await page.reload();
    expect(await page.locator('.done').count()).toBe(0);
  });

  it('the application with JavaScript off: next skips the company page for an individual, back keeps the values', { timeout: TEST_TIMEOUT }, async () => {
    const page = await open('application', false);
    await expectAxeClean(page.url(), 'the application, page 1');
    await page.locator('#f-fullName').fill('Ann Lee');
    await page.locator('#f-email').fill('ann@example.test');
    await page.locator('input[name=applicantType][value=individual]').check();
    await click(page, 'submit');
    expect(await page.locator('main').textContent()).toContain('Page 3 of 3');
    await click(page, 'back');
    expect(await page.locator('main').textContent()).toContain('Page 1 of 3');
    expect(await page.locator('#f-fullName').inputValue()).toBe('Ann Lee');
    expect(await page.locator('input[name=applicantType][value=individual]').isChecked()).toBe(true);
    await click(page, 'submit');
    expect(await page.locator('main').textContent()).toContain('Page 3 of 3');
    const before = (await storedSubmissions(harness.svc, 'application')).length;
    await page.locator('input[type=checkbox][name=agree]').check();
    await click(page, 'submit');
    expect(await page.locator('.done').count(), await page.locator('main').textContent() ?? '').toBe(1);
    const stored = await storedSubmissions(harness.svc, 'application');
    expect(stored.length).toBe(before + 1);
    expect(stored.at(-1)?.values).toMatchObject({ fullName: 'Ann Lee', applicantType: 'individual' });
  });

  it('job-application with JavaScript off: a CV chosen in a plain file input is stored with the submission', { timeout: TEST_TIMEOUT }, async () => {
    const cv = join(fileDir, 'cv.pdf');
    writeFileSync(cv, samplePdf());
    const page = await open('job-application', false);
    await expectAxeClean(page.url(), 'job-application, page 1');
    expect(await page.locator('form').getAttribute('enctype')).toBe('multipart/form-data');
    await page.locator('#f-role').selectOption('Frontend engineer');
    await page.locator('#f-cv').setInputFiles(cv);
    await click(page, 'submit');
    expect(await page.locator('main').textContent()).toContain('Page 2 of 2');
    await page.locator('#f-fullName').fill('Ann Lee');
    await page.locator('#f-email').fill('ann@example.test');
    const before = (await storedSubmissions(harness.svc, 'job-application')).length;
    await click(page, 'submit');
    expect(await page.locator('.done').count(), await page.locator('main').textContent() ?? '').toBe(1);
    const stored = await storedSubmissions(harness.svc, 'job-application');
    expect(stored.length).toBe(before + 1);
    const files = await harness.svc.context.database.db.selectFrom('svc_files').select(['name', 'field_handle']).where('submission_id', '=', stored.at(-1)!.id).execute();
    expect(files).toEqual([{ name: 'cv.pdf', field_handle: 'cv' }]);
  });

  it('contact with JavaScript on: the post goes by ajax, the buttons are disabled with a spinner while it runs, and the page never leaves', { timeout: TEST_TIMEOUT }, async () => {
    const page = await open('contact', true);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => problems.push(`${message.type()}: ${message.text()}`));
    const url = page.url();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/svc/submit', async (route) => {
      await held;
      await route.continue();
    });
    await page.locator('#f-firstName').fill('Bea');
    await page.locator('#f-email').fill('nope');
    await page.locator('button[value=submit]').click();
    const button = page.locator('button[value=submit]');
    // contact keeps the defaults: disableSubmit and showSpinner on, showLoadingText off.
    await expect.poll(() => button.isDisabled(), { timeout: 3000 }).toBe(true);
    expect(await button.getAttribute('class'), problems.join('\n')).toContain('busy');
    expect(await button.textContent()).toBe('Send'); // showLoadingText is off: the label stays
    release();
    await expect.poll(() => page.locator('#f-email-errors li').count()).toBe(1);
    expect(page.url()).toBe(url);
    expect(await button.isDisabled()).toBe(false);

    const before = (await storedSubmissions(harness.svc, 'contact')).length;
    await page.locator('#f-email').fill('bea@example.test');
    await page.locator('button[value=submit]').click();
    await expect.poll(() => page.locator('.done').count()).toBe(1);
    expect(page.url()).toBe(url);
    expect(await page.locator('.done').textContent()).toContain('Thanks, we got your message.');
    expect((await storedSubmissions(harness.svc, 'contact')).length).toBe(before + 1);
  });

  it('the kitchen sink (every field type) and the donation form draw axe-clean from their properties JSON', { timeout: TEST_TIMEOUT }, async () => {
    for (const handle of ['kitchen-sink', 'donation']) await expectAxeClean(`${harness.serviceOrigin}/demo/classic/${handle}`, `the ${handle} page`);
  });

  it('the demo page links every example form to its server-rendered page', { timeout: TEST_TIMEOUT }, async () => {
    const context = await harness.browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(harness.demoUrl);
    for (const handle of ['contact', 'application', 'job-application']) {
      expect(await page.locator(`a[href$="/demo/classic/${handle}"]`).count()).toBe(1);
    }
  });
});
