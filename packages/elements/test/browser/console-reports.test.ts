/**
 * Reports and daily comforts of the console in Chromium (issue #35 items 6 and 7), by keyboard:
 * the shortcuts (/ focuses the search, j/k walk the rows, Enter opens one, ? the help page), a
 * filter saved with its flash message, the report page with its charts and tables; then the same
 * pages at 375 and 360 px wide with no sideways scrolling of the page (tables scroll inside their
 * focusable regions). Every page axe-clean; screenshots in docs/console/ (console-reports.png,
 * console-mobile.png, console-help.png).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { hashPassword } from '../../../server/src/console/console-passwords.js';
import { insertSubmissions, type NewSubmission } from '../../../server/src/submissions/submission-repository.js';
import { recountForm } from '../../../server/src/submissions/report-count-rebuild.js';
import { describeWithChromium } from './support/chromium.js';
import { openConsole, tabTo } from './support/console-walk.js';
import { startBrowserHarness, type BrowserHarness } from './support/browser-harness.js';

const PASSWORD = 'console reports password 35';
const DOCS = resolve(import.meta.dirname, '../../../../docs/console');
const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const activeText = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '');
const overflow = (page: Page) => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));

describeWithChromium('console reports and daily comforts in Chromium', () => {
  let harness: BrowserHarness;
  beforeAll(async () => {
    harness = await startBrowserHarness({
      sites: [{ handle: 'default', language: 'en-US', default: true, timezone: 'Europe/Berlin' }],
      admin: { users: [{ username: 'lee', passwordHash: await hashPassword(PASSWORD), scopes: ['read', 'write'], forms: ['*'] }] },
    });
    const form = harness.svc.context.forms.get('kitchen-sink');
    if (!form) throw new Error('the kitchen-sink example form is missing');
    const now = harness.svc.context.submit.now().getTime();
    const pick = <T>(list: readonly T[], i: number) => list[i % list.length] as T;
    const rows: NewSubmission[] = Array.from({ length: 60 }, (_v, i) => ({
      uid: randomUUID(), formId: form.id, tokenHash: randomUUID(), title: `Person ${i + 1}`, status: pick(['open', 'pending', 'closed'], i), isSpam: i % 9 === 0, spamReasons: i % 9 === 0 ? ['honeypot'] : [], ip: null,
      values: { text: `Person ${i + 1}`, select: pick(['a', 'b', 'c'], i), multipleSelect: pick([['red'], ['green', 'blue'], []], i), checkboxGroup: pick([['tea'], ['tea', 'coffee']], i), radioGroup: pick(['yes', 'no'], i), opinionScale: pick(['1', '2', '3', '4', '5'], i * 7), rating: 1 + ((i * 3) % 5) } as NewSubmission['values'],
      createdAt: new Date(now - (i * 11 + 1) * 3_600_000).toISOString(),
    }));
    await insertSubmissions(harness.svc.context.database.db, rows);
    // Stored beside the submit path: counted into the report by the recount an upgrade's boot runs (issue #35 item 6).
    const { database, reportCounts } = harness.svc.context;
    await recountForm(database.db, database.dialect, reportCounts, form, new Date(), true);
    mkdirSync(DOCS, { recursive: true });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('walks shortcuts, a saved filter and the report by keyboard at 1280 px, then 375 and 360 px without sideways scrolling, axe-clean', { timeout: 120_000 }, async () => {
    const context = await harness.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const { page, base, problems, axe } = await openConsole(context, harness.serviceOrigin, 'lee', PASSWORD);
      expect(await page.locator('main time').first().textContent()).toMatch(/GMT\+[12]$/);

      // Shortcuts: / to the search, Escape out, j j k to the rows, Enter opens the row's submission.
      await page.goto(`${base}/forms/kitchen-sink`);
      await page.keyboard.press('/');
      expect(await activeId(page)).toBe('q');
      await page.keyboard.type('j');
      expect(await page.locator('#q').inputValue()).toBe('j');
      await page.locator('#q').fill('');
      await page.keyboard.press('Escape');
      expect(await activeId(page)).toBe('');
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await page.keyboard.press('k');
      const row = await activeText(page);
      expect(row).toMatch(/^Person \d+$/);
      expect(await page.locator('tr.current').count()).toBe(1);
      await Promise.all([page.waitForURL(/\/submissions\/\d+$/), page.keyboard.press('Enter')]);
      expect(await page.locator('h1').textContent()).toBe(row);

      // A saved filter, by keyboard, confirmed by the flash at the top of the next page.
      await page.goto(`${base}/forms/kitchen-sink?status=open`);
      await tabTo(page, page.locator('#filter-name'));
      await page.keyboard.type('Open ones');
      // The list redirects back to the very URL it was posted from, so waiting for that URL can
      // end before the new page is there: wait for its flash instead.
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Filter “Open ones” saved.');
      expect(await page.locator('.saved-filters a', { hasText: 'Open ones' }).getAttribute('aria-current')).toBe('true');
      await axe('the list with a saved filter and a flash');

      // The report, reached by keyboard from the list.
      await tabTo(page, page.getByRole('link', { name: 'Report', exact: true }));
      await Promise.all([page.waitForURL(/\/reports$/), page.keyboard.press('Enter')]);
      expect(await page.locator('main').textContent()).toContain('per day of Europe/Berlin');
      expect(await page.locator('svg.chart').count()).toBe(2 + 6);
      const total = Number((/(\d+) submission\(s\), (\d+) spam/.exec((await page.locator('main p.muted').first().textContent()) ?? '') ?? [])[1]);
      expect(total).toBe(60 - 7);
      await tabTo(page, page.getByRole('region', { name: 'Answers to Rating' }));
      await page.locator('#report-interval').selectOption('week');
      await tabTo(page, page.getByRole('button', { name: 'Show' }));
      await Promise.all([page.waitForURL(/interval=week/), page.keyboard.press('Enter')]);
      expect(await page.locator('main').textContent()).toContain('per week of Europe/Berlin');
      await axe('the report');
      await page.screenshot({ path: join(DOCS, 'console-reports.png'), fullPage: true });

      // ? opens the help page from anywhere but a field.
      await page.locator('main h1').click();
      await Promise.all([page.waitForURL(/\/help$/), page.keyboard.press('?')]);
      expect(await page.locator('main kbd').allTextContents()).toEqual(expect.arrayContaining(['/', 'j', 'k', '?']));
      await axe('the help page');
      await page.screenshot({ path: join(DOCS, 'console-help.png'), fullPage: true });

      // Narrow screens: the page never scrolls sideways; the tables scroll inside their regions.
      for (const width of [375, 360]) {
        await page.setViewportSize({ width, height: 780 });
        for (const path of ['/', '/forms/kitchen-sink?columns=text&columns=select&columns=multipleSelect&columns=checkboxGroup', '/forms/kitchen-sink/reports', '/help', '/audit']) {
          await page.goto(`${base}${path}`);
          const { scroll, inner } = await overflow(page);
          expect(scroll, `${path} at ${width} px: the page is ${scroll} px wide`).toBeLessThanOrEqual(inner);
          await axe(`${path} at ${width} px`);
        }
        await page.goto(`${base}/forms/kitchen-sink?columns=text&columns=select&columns=multipleSelect&columns=checkboxGroup`);
        const region = page.getByRole('region', { name: 'Submissions' });
        await tabTo(page, region);
        // The table's region, focused by keyboard, where the phone shows it (the header and filters above it).
        if (width === 360) await page.screenshot({ path: join(DOCS, 'console-mobile.png') });
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
