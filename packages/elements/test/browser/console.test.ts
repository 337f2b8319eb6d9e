/**
 * The site owners' console in Chromium (issue #15): signing in by keyboard, the forms overview, a
 * form's submissions, one submission and a status change, the dead letters and the audit log,
 * each page axe-clean; screenshots of the main views are saved as test artifacts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { hashPassword } from '../../../server/src/console/console-passwords.js';
import { describeWithChromium } from './support/chromium.js';
import { startBrowserHarness, type BrowserHarness } from './support/browser-harness.js';
import { describeViolations, isSerious, runAxe } from './support/axe-check.js';

const PASSWORD = 'console browser password 42';
const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../../../test-artifacts/screenshots');
const TEST_TIMEOUT = 60_000;

describeWithChromium('the console in Chromium', () => {
  let harness: BrowserHarness;
  beforeAll(async () => {
    harness = await startBrowserHarness({
      admin: { users: [{ username: 'lee', passwordHash: await hashPassword(PASSWORD), scopes: ['read', 'write'], forms: ['*'] }] },
    });
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('signs in by keyboard, walks forms → submissions → one submission, changes its status, and every page is axe-clean', { timeout: TEST_TIMEOUT }, async () => {
    const svc = harness.svc;
    const { submitResult } = await (async () => {
      const base = harness.serviceOrigin;
      const tokens = await fetch(`${base}/svc/tokens`);
      const cookie = (tokens.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const token = ((await tokens.json()) as { csrf: { value: string } }).csrf.value;
      const manifest = (await (await fetch(`${base}/svc/api/forms/contact/manifest`)).json()) as { data: { security: Record<string, any> } };
      const { honeypot, javascriptTest } = manifest.data.security;
      const res = await fetch(`${base}/svc/api/forms/contact/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
        body: JSON.stringify({ intent: 'submit', values: { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: '<b>not bold</b>' }, meta: { honeypot: { name: honeypot.name, value: '' }, javascriptTest } }),
      });
      return { submitResult: (await res.json()) as { submission: { id: number } } };
    })();
    // axe is injected as a script; the console's CSP rightly refuses that, so the test context bypasses it.
    const context = await harness.browser.newContext({ viewport: { width: 1100, height: 900 }, bypassCSP: true });
    try {
      const page = await context.newPage();
      const axe = async (what: string) => {
        const serious = (await runAxe(page, 'body')).filter(isSerious);
        expect(serious, `axe-core on ${what}:\n${describeViolations(serious)}`).toEqual([]);
      };
      await page.goto(`${harness.serviceOrigin}/svc/console/`);
      expect(new URL(page.url()).pathname).toBe('/svc/console/sign-in');
      await axe('the sign-in page');
      await page.keyboard.press('Tab');
      await page.keyboard.type('lee');
      await page.keyboard.press('Tab');
      await page.keyboard.type(PASSWORD);
      await Promise.all([page.waitForURL(/\/svc\/console\/$/), page.keyboard.press('Enter')]);
      expect(await page.locator('h1').textContent()).toBe('Forms');
      await axe('the forms overview');
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'console-forms.png') });

      await Promise.all([page.waitForURL(/\/forms\/contact/), page.getByRole('link', { name: 'Contact' }).click()]);
      expect(await page.locator('main').textContent()).toContain('1 matching submission(s)');
      await axe('the submissions of contact');
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'console-submissions.png') });

      await Promise.all([page.waitForURL(/\/submissions\/\d+$/), page.getByRole('link', { name: 'Ann Lee' }).click()]);
      expect(await page.locator('main').textContent()).toContain('<b>not bold</b>');
      expect(await page.locator('main b').count()).toBe(0);
      await axe('one submission');
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'console-submission.png') });
      await page.locator('#status').selectOption('closed');
      await Promise.all([page.waitForURL(/\/submissions\/\d+$/), page.getByRole('button', { name: 'Save' }).click()]);
      const row = await svc.context.database.db.selectFrom('svc_submissions').select('status').where('id', '=', submitResult.submission.id).executeTakeFirstOrThrow();
      expect(row.status).toBe('closed');

      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.waitForURL(/\/audit$/);
      expect(await page.locator('main').textContent()).toContain('user:lee');
      await axe('the audit log');
      await page.getByRole('link', { name: 'Dead letters' }).click();
      await page.waitForURL(/\/deliveries$/);
      await axe('the dead letters');
    } finally {
      await context.close();
    }
  });
});
