/**
 * Editing a submission, its notes and its files in the console, in Chromium (issue #35 items 2,
 * 3, 5), by keyboard at 1280 and 375 px: the Edit page refuses an invalid email with the error at
 * the field and a summary linking to it, then saves (revision 1, flash); a note with a line break
 * is added and shown as text; image uploads are thumbnails that open the viewer, which the arrow
 * keys walk and Esc leaves, the images loading under the console's CSP through the signed links.
 * Every page axe-clean, no sideways scrolling at 375 px; screenshots docs/console/console-edit.png,
 * console-notes.png and console-files.png.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { hashPassword } from '../../../server/src/console/console-passwords.js';
import { insertSubmission } from '../../../server/src/submissions/submission-repository.js';
import { gradientPng, paddedPdf } from '../../../server/test/support/sample-files.js';
import { describeWithChromium } from './support/chromium.js';
import { openConsole, tabTo } from './support/console-walk.js';
import { startBrowserHarness, type BrowserHarness } from './support/browser-harness.js';

const PASSWORD = 'console edit password 35';
const DOCS = resolve(import.meta.dirname, '../../../../docs/console');
const overflow = (page: Page) => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
const loaded = (image: Locator) => image.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0);

describeWithChromium('console edit, notes and files in Chromium', () => {
  let harness: BrowserHarness;
  let id: number;

  beforeAll(async () => {
    harness = await startBrowserHarness({
      admin: { users: [{ username: 'lee', passwordHash: await hashPassword(PASSWORD), scopes: ['read', 'write'], forms: ['*'] }] },
    });
    const { context } = harness.svc;
    const form = context.forms.get('job-application');
    if (!form) throw new Error('the job-application example form is missing');
    // Files as a submit stores them: received by the upload service, then attached to the row.
    const owner = { ownerHash: createHash('sha256').update(randomUUID()).digest('hex'), bindingHash: null };
    const receive = async (handle: string, filename: string, data: Buffer) => {
      const target = context.uploads.target(form, handle, null);
      if (!target) throw new Error(`${handle} takes no files`);
      const received = await context.uploads.receive(form, target, { stream: Readable.from([data]), filename }, owner);
      if (!received.ok) throw new Error(`${filename}: ${received.message}`);
      return received.upload.id;
    };
    const portfolio = [await receive('portfolio', 'sketch-one.png', gradientPng(240)), await receive('portfolio', 'sketch-two.png', gradientPng(180)), await receive('portfolio', 'sketch-three.png', gradientPng(120))];
    const cv = [await receive('cv', 'cv.pdf', paddedPdf(900))];
    id = await insertSubmission(context.database.db, {
      uid: randomUUID(), formId: form.id, tokenHash: createHash('sha256').update(randomUUID()).digest('hex'), title: 'Ann Lee', status: 'open', isSpam: false, spamReasons: [], ip: null,
      values: { role: 'Frontend engineer', cv, portfolio, fullName: 'Ann Lee', email: 'ann@example.test', coverLetter: 'I build forms.\nMostly accessible ones.' },
      createdAt: new Date(context.submit.now().getTime() - 3_600_000).toISOString(),
    });
    await context.uploads.attach(context.database.db, id, form, [...portfolio, ...cv]);
    mkdirSync(DOCS, { recursive: true });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('edits, notes and views files by keyboard at 1280 and 375 px, axe-clean', { timeout: 150_000 }, async () => {
    const context = await harness.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      // The refused save answers 422 by design; the browser logs every 4xx document.
      const { page, base, problems, axe } = await openConsole(context, harness.serviceOrigin, 'lee', PASSWORD, { expectedError: (text) => text.includes('422') });

      // The submission: thumbnails load under the CSP, the PDF is a link to open in the browser.
      await page.goto(`${base}/submissions/${id}`);
      expect(await page.locator('main').textContent()).toContain('revision 0');
      const thumbs = page.locator('.thumbs img');
      expect(await thumbs.count()).toBe(3);
      await expect.poll(async () => (await Promise.all((await thumbs.all()).map(loaded))).every(Boolean)).toBe(true);
      const pdf = page.getByRole('link', { name: 'cv.pdf', exact: true });
      const pdfAnswer = await page.request.get((await pdf.getAttribute('href')) as string);
      expect([pdfAnswer.status(), pdfAnswer.headers()['content-type'], pdfAnswer.headers()['content-disposition']?.split(';')[0]]).toEqual([200, 'application/pdf', 'inline']);
      await axe('the submission with its files and notes');

      // Edit: an invalid email is refused at the field, with a summary linking to it; then saved.
      await tabTo(page, page.getByRole('link', { name: 'Edit values' }));
      await Promise.all([page.waitForURL(/\/edit$/), page.keyboard.press('Enter')]);
      await axe('the edit page');
      await tabTo(page, page.locator('#f-fullName'));
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('Ann B. Lee');
      await tabTo(page, page.locator('#f-email'));
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('ann at example');
      await tabTo(page, page.getByRole('button', { name: 'Save changes' }));
      await Promise.all([page.waitForURL(/\/edit$/), page.keyboard.press('Enter')]);
      const summary = page.getByRole('alert');
      expect(await summary.textContent()).toContain('Nothing was saved: 1 field(s) to correct');
      expect(await page.locator('#f-email').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#f-fullName').inputValue()).toBe('Ann B. Lee');
      await axe('the edit page with an error');
      await page.screenshot({ path: join(DOCS, 'console-edit.png'), fullPage: true });
      await tabTo(page, summary.getByRole('link'));
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate(() => location.hash)).toBe('#f-email');
      await page.locator('#f-email').focus();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('ann.lee@example.test');
      await tabTo(page, page.getByRole('button', { name: 'Save changes' }));
      await Promise.all([page.waitForURL(new RegExp(`/submissions/${id}$`)), page.keyboard.press('Enter')]);
      expect(await page.getByRole('status').first().textContent()).toBe('Saved: 2 value(s) changed, revision 1.');
      expect(await page.locator('main').textContent()).toContain('revision 1');
      expect(await page.locator('main').textContent()).toContain('ann.lee@example.test');

      // A note with a line break, shown as text.
      await tabTo(page, page.locator('#note-text'));
      await page.keyboard.type('Called her back.');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Interview on <Monday>.');
      await tabTo(page, page.getByRole('button', { name: 'Add note' }));
      await Promise.all([page.waitForURL(/#note-\d+$/), page.keyboard.press('Enter')]);
      const note = page.locator('.notes li').last();
      expect(await note.locator('.value').textContent()).toBe('Called her back.\nInterview on <Monday>.');
      expect(await note.textContent()).toContain('user:lee');
      await axe('the submission with a note');
      await page.locator('#notes').screenshot({ path: join(DOCS, 'console-notes.png') });

      // The viewer: Enter on a thumbnail, the arrow keys walk the images, Esc goes back.
      await tabTo(page, page.locator('.thumbs a').first());
      await Promise.all([page.waitForURL(/\/files\//), page.keyboard.press('Enter')]);
      expect(await page.locator('h1').textContent()).toBe('sketch-one.png');
      await expect.poll(() => loaded(page.locator('.viewer img'))).toBe(true);
      await axe('the image viewer');
      await Promise.all([page.waitForURL(/\/files\//), page.keyboard.press('ArrowRight')]);
      await expect.poll(() => page.locator('h1').textContent()).toBe('sketch-two.png');
      expect(await page.locator('main').textContent()).toContain('2 of 3');
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => page.locator('h1').textContent()).toBe('sketch-one.png');
      await tabTo(page, page.getByRole('link', { name: /^Next/ }));
      await Promise.all([page.waitForURL(/\/files\//), page.keyboard.press('Enter')]);
      await expect.poll(() => page.locator('h1').textContent()).toBe('sketch-two.png');
      await expect.poll(() => loaded(page.locator('.viewer img'))).toBe(true);
      await page.screenshot({ path: join(DOCS, 'console-files.png'), fullPage: true });
      await Promise.all([page.waitForURL(new RegExp(`/submissions/${id}$`)), page.keyboard.press('Escape')]);

      // 375 px: the same pages fit, and the walk still works by keyboard.
      await page.setViewportSize({ width: 375, height: 780 });
      for (const path of [`/submissions/${id}`, `/submissions/${id}/edit`, `${(await page.locator('.thumbs a').nth(2).getAttribute('href'))?.replace('/svc/console', '')}`]) {
        await page.goto(`${base}${path}`);
        const { scroll, inner } = await overflow(page);
        expect(scroll, `${path} at 375 px: the page is ${scroll} px wide`).toBeLessThanOrEqual(inner);
        await axe(`${path} at 375 px`);
      }
      expect(await page.locator('h1').textContent()).toBe('sketch-three.png');
      await tabTo(page, page.getByRole('link', { name: /^← Previous/ }));
      await Promise.all([page.waitForURL(/\/files\//), page.keyboard.press('Enter')]);
      await expect.poll(() => page.locator('h1').textContent()).toBe('sketch-two.png');
      await page.goto(`${base}/submissions/${id}/edit`);
      await tabTo(page, page.locator('#f-coverLetter'));
      await page.keyboard.press('ControlOrMeta+End');
      await page.keyboard.type(' Also tables.');
      await tabTo(page, page.getByRole('button', { name: 'Save changes' }));
      await Promise.all([page.waitForURL(new RegExp(`/submissions/${id}$`)), page.keyboard.press('Enter')]);
      expect(await page.getByRole('status').first().textContent()).toBe('Saved: 1 value(s) changed, revision 2.');
      await tabTo(page, page.locator('#note-text'));
      await page.keyboard.type('Checked on a phone.');
      await tabTo(page, page.getByRole('button', { name: 'Add note' }));
      await Promise.all([page.waitForURL(/#note-\d+$/), page.keyboard.press('Enter')]);
      expect(await page.locator('.notes li').count()).toBe(2);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
