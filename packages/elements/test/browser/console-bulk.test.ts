/**
 * Bulk actions and the spam folder of the console in Chromium (issue #35 items 1 and 4), by
 * keyboard at 1280 and 375 px: rows ticked with Space, the bulk bar's status chosen with the arrow
 * keys, Apply drawing the server's confirmation, Confirm changing exactly the ticked rows with a
 * flash; the select-all box of console-bulk.js; the spam folder with its reasons, chart and table,
 * one "Not spam" pressed. Every page axe-clean and without sideways scrolling at 375 px;
 * screenshots docs/console/console-bulk.png and console-spam.png.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { createHash, randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { hashPassword } from '../../../server/src/console/console-passwords.js';
import { insertSubmissions } from '../../../server/src/submissions/submission-repository.js';
import { describeWithChromium } from './support/chromium.js';
import { openConsole, tabTo } from './support/console-walk.js';
import { startBrowserHarness, type BrowserHarness } from './support/browser-harness.js';

const PASSWORD = 'console bulk password 35';
const DOCS = resolve(import.meta.dirname, '../../../../docs/console');
/** The page's width against the window's, and what sticks out outside a scrolling table (for the message). */
const overflow = (page: Page) =>
  page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
    wide: Array.from(document.querySelectorAll('body *'))
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.scroll'))
      .slice(0, 4)
      .map((e) => `${e.tagName.toLowerCase()}.${String(e.className)} ${Math.round(e.getBoundingClientRect().right)}`),
  }));

describeWithChromium('console bulk actions and spam folder in Chromium', () => {
  let harness: BrowserHarness;
  let people: number[];
  let spam: number[];

  beforeAll(async () => {
    harness = await startBrowserHarness({
      admin: { users: [{ username: 'lee', passwordHash: await hashPassword(PASSWORD), scopes: ['read', 'write'], forms: ['*'] }] },
    });
    const { context } = harness.svc;
    const form = context.forms.get('contact');
    if (!form) throw new Error('the contact example form is missing');
    const now = context.submit.now().getTime();
    const row = (i: number, extra: { isSpam?: boolean; spamReasons?: string[]; title?: string } = {}) => ({
      uid: randomUUID(),
      formId: form.id,
      tokenHash: createHash('sha256').update(randomUUID()).digest('hex'),
      title: extra.title ?? `Person ${i}`,
      status: 'open',
      isSpam: extra.isSpam ?? false,
      spamReasons: extra.spamReasons ?? [],
      ip: null,
      values: { firstName: extra.title ?? `Person ${i}`, email: `p${i}@example.test`, message: 'Hello' },
      createdAt: new Date(now - (i + 1) * 5_400_000).toISOString(),
    });
    people = await insertSubmissions(context.database.db, Array.from({ length: 6 }, (_v, i) => row(i)));
    spam = await insertSubmissions(context.database.db, [
      row(10, { isSpam: true, spamReasons: ['honeypot'], title: 'Cheap watches' }),
      row(30, { isSpam: true, spamReasons: ['honeypot', 'fill_time'], title: 'Casino bonus' }),
      row(50, { isSpam: true, spamReasons: ['blocked_keyword'], title: 'SEO services' }),
      row(70, { isSpam: true, spamReasons: ['javascript_test'], title: 'Real person, caught' }),
    ]);
    mkdirSync(DOCS, { recursive: true });
  });
  afterAll(async () => {
    await harness?.close();
  });

  const states = async (ids: readonly number[]) =>
    (await harness.svc.context.database.db.selectFrom('svc_submissions').select(['status', 'is_spam']).where('id', 'in', ids).orderBy('id').execute()).map((r) => `${r.status}/${Number(r.is_spam)}`);

  it('ticks, confirms and applies by keyboard, and triages spam, at 1280 and 375 px, axe-clean', { timeout: 150_000 }, async () => {
    const context = await harness.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const { page, base, problems, axe } = await openConsole(context, harness.serviceOrigin, 'lee', PASSWORD);

      // The list: two rows ticked with Space, "Change status" to pending, Apply.
      await page.goto(`${base}/forms/contact`);
      const [first, , third] = people as [number, number, number];
      await tabTo(page, page.locator(`#pick-${first}`));
      await page.keyboard.press('Space');
      await tabTo(page, page.locator(`#pick-${third}`));
      await page.keyboard.press('Space');
      await tabTo(page, page.locator('#bulk-action'));
      expect(await page.locator('#bulk-action').inputValue()).toBe('setStatus');
      await tabTo(page, page.locator('#bulk-status'));
      await page.keyboard.press('ArrowDown');
      expect(await page.locator('#bulk-status').inputValue()).toBe('pending');
      await axe('the list with the bulk bar');
      await page.screenshot({ path: join(DOCS, 'console-bulk.png'), fullPage: true });
      await tabTo(page, page.getByRole('button', { name: 'Apply…' }));
      await Promise.all([page.waitForURL(/\/bulk$/), page.keyboard.press('Enter')]);
      expect(await page.locator('main').textContent()).toContain('Change the status of 2 selected submission(s) of Contact to “pending”?');
      await axe('the confirmation');
      expect(await states([first, third])).toEqual(['open/0', 'open/0']);
      await tabTo(page, page.getByRole('button', { name: 'Confirm' }));
      await Promise.all([page.waitForURL(/\/forms\/contact$/), page.keyboard.press('Enter')]);
      expect(await page.getByRole('status').first().textContent()).toBe('2 submission(s) changed to pending.');
      expect(await states(people)).toEqual(['pending/0', 'open/0', 'pending/0', 'open/0', 'open/0', 'open/0']);

      // console-bulk.js: one box ticks every row of the page.
      await tabTo(page, page.locator('#pick-all'));
      await page.keyboard.press('Space');
      expect(await page.locator('td.pick input:checked').count()).toBe(await page.locator('td.pick input').count());

      // The spam folder: reasons, the chart with its table, one "Not spam".
      await page.goto(`${base}/forms/contact/spam`);
      const main = page.locator('main');
      expect(await main.textContent()).toContain('honeypot filled in, filled in too fast');
      expect(await main.textContent()).toContain('retention.spamPurgeAfterDays');
      expect(await page.locator('svg.spam-chart').getAttribute('role')).toBe('img');
      expect(await page.locator('table caption').first().textContent()).toContain('Spam by reason per day');
      await axe('the spam folder of contact');
      await page.screenshot({ path: join(DOCS, 'console-spam.png'), fullPage: true });
      await tabTo(page, page.getByRole('button', { name: 'Not spam: Real person, caught' }));
      await Promise.all([page.waitForURL(/\/forms\/contact\/spam$/), page.keyboard.press('Enter')]);
      expect(await page.getByRole('status').first().textContent()).toMatch(/^Submission #\d+ is not spam/);
      expect(await states([spam[3] as number])).toEqual(['open/0']);
      await page.goto(`${base}/spam`);
      expect(await page.locator('h1').textContent()).toBe('Spam · all forms');
      await axe('the spam folder across forms');

      // 375 px: the pages fit and the walk still works by keyboard.
      await page.setViewportSize({ width: 375, height: 780 });
      for (const path of ['/forms/contact', '/forms/contact/spam', '/spam']) {
        await page.goto(`${base}${path}`);
        const { scroll, inner, wide } = await overflow(page);
        expect(scroll, `${path} at 375 px: the page is ${scroll} px wide (${wide.join(', ')})`).toBeLessThanOrEqual(inner);
        await axe(`${path} at 375 px`);
      }
      // Bulk delete of all the spam left, from the folder, by keyboard.
      await page.goto(`${base}/forms/contact/spam`);
      await tabTo(page, page.locator('#bulk-action'));
      expect(await page.locator('#bulk-action').inputValue()).toBe('delete');
      await tabTo(page, page.locator('input[name="scope"][value="selected"]'));
      await page.keyboard.press('ArrowDown');
      expect(await page.locator('input[name="scope"][value="all"]').isChecked()).toBe(true);
      await tabTo(page, page.getByRole('button', { name: 'Apply…' }));
      await Promise.all([page.waitForURL(/\/bulk$/), page.keyboard.press('Enter')]);
      expect(await page.locator('main').textContent()).toContain('Delete all 3 submission(s) of Contact matching this filter, with their files, for good?');
      const { scroll, inner } = await overflow(page);
      expect(scroll).toBeLessThanOrEqual(inner);
      await axe('the confirmation at 375 px');
      await tabTo(page, page.getByRole('button', { name: 'Confirm' }));
      await Promise.all([page.waitForURL(/\/forms\/contact\/spam$/), page.keyboard.press('Enter')]);
      expect(await page.getByRole('status').first().textContent()).toBe('3 submission(s) deleted with their files.');
      expect(await states(spam)).toEqual(['open/0']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
