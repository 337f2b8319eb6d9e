/**
 * The console's privacy page in Chromium (issue #37): find a person by address, the confirmation
 * step, the erasure and its receipt, each page axe-clean and without a console error under the
 * console's CSP.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../../server/src/console/console-passwords.js';
import { insertSubmission } from '../../../server/src/submissions/submission-repository.js';
import { createBlindIndex } from '../../../server/src/privacy/privacy-blind-index.js';
import { describeWithChromium } from './support/chromium.js';
import { openConsole } from './support/console-walk.js';
import { startBrowserHarness, type BrowserHarness } from './support/browser-harness.js';

const PASSWORD = 'console privacy password 37';
describeWithChromium('the console privacy page in Chromium', () => {
  let harness: BrowserHarness;
  let submission: number;
  beforeAll(async () => {
    harness = await startBrowserHarness({
      admin: { users: [{ username: 'pat', passwordHash: await hashPassword(PASSWORD), scopes: ['read', 'write', 'privacy'], forms: ['*'] }] },
    });
    const { context, config } = harness.svc;
    const form = context.forms.get('contact');
    if (!form) throw new Error('the contact example form is missing');
    const values = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hello' };
    submission = await insertSubmission(context.database.db, { uid: randomUUID(), formId: form.id, tokenHash: randomUUID(), title: 'Ann Lee', status: 'open', isSpam: false, spamReasons: [], ip: null, values, createdAt: new Date().toISOString() });
    // The example form marks no field personal, so its index entry is written as the reindex would for one that did.
    const index = createBlindIndex(config.secret as string);
    const subject = index.subject('email', 'ann@example.test');
    if (!subject) throw new Error('no subject');
    await index.write(context.database.db, submission, form.id, [subject]);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('finds a person, confirms and erases, and shows the signed receipt, axe-clean', { timeout: 120_000 }, async () => {
    const context = await harness.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const { page, base, problems, axe } = await openConsole(context, harness.serviceOrigin, 'pat', PASSWORD);

      await page.goto(`${base}/privacy`);
      await axe('the privacy page');
      await page.getByLabel('Value').fill('ANN@example.test');
      await Promise.all([page.waitForURL(/\/privacy\/find$/), page.getByRole('button', { name: 'Find' }).click()]);
      expect(await page.locator('section h2').textContent()).toBe('1 submission(s) found');
      expect(await page.locator(`a[href$="/submissions/${submission}"]`).count()).toBe(1);
      await axe('the found page');

      await Promise.all([page.waitForURL(/\/privacy\/erase$/), page.getByRole('button', { name: 'Erase…' }).click()]);
      expect(await page.locator('h1').textContent()).toBe('Erase 1 submission(s)?');
      await axe('the confirmation page');
      await page.getByRole('button', { name: 'Erase permanently' }).click();
      await page.locator('h1', { hasText: 'Erased' }).waitFor();
      const receipt = JSON.parse((await page.locator('pre').textContent()) ?? '{}') as { receipt: { erased: { submission: number }[]; by: string } };
      expect(receipt.receipt.erased.map((e) => e.submission)).toEqual([submission]);
      expect(receipt.receipt.by).toBe('user:pat');
      await axe('the receipt page');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
