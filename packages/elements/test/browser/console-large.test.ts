/**
 * The console in Chromium on 100,000 submissions (issue #15): signed in and walked by keyboard
 * from the forms overview to the submissions table (first page, the next page, the last page, the
 * oldest first) and to a CSV export with its progress bar, under the console's real CSP (nothing
 * inline, so the export script runs as the file it is), each page axe-clean. The page-load times
 * are printed, never asserted (DESIGN.md, tests).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { hashPassword } from '../../../server/src/console/console-passwords.js';
import { encodeCursor } from '../../../server/src/submissions/submission-search.js';
import { describeWithChromium } from './support/chromium.js';
import { openConsole, tabTo } from './support/console-walk.js';
import { startBrowserHarness, type BrowserHarness } from './support/browser-harness.js';

const PASSWORD = 'console large-table password 8';
const ROWS = 100_000;
const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../../../test-artifacts/screenshots');
/** The browser's own figures for the page now shown: time to the last byte and to the load event. */
async function navigationTiming(page: Page): Promise<{ response: number; load: number }> {
  return page.evaluate(() => {
    const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return { response: entry.responseEnd - entry.startTime, load: entry.loadEventEnd - entry.startTime };
  });
}

describeWithChromium('the console in Chromium on 100,000 submissions', () => {
  let harness: BrowserHarness;
  let seedMs = 0;
  beforeAll(async () => {
    harness = await startBrowserHarness({
      admin: { users: [{ username: 'lee', passwordHash: await hashPassword(PASSWORD), scopes: ['read', 'write'], forms: ['*'] }] },
    });
    const form = harness.svc.context.forms.get('contact');
    if (!form) throw new Error('the contact example form is missing');
    const started = performance.now();
    // One statement in one transaction: a recursive count, one row each, a minute apart.
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
      INSERT INTO svc_submissions (uid, form_id, token_hash, title, status, is_spam, spam_reasons, ip, "values", finished, created_at, updated_at)
      SELECT 'u' || i, ${form.id}, 'h' || i, 'Person ' || i, 'open', 0, '[]', NULL,
        '{"firstName":"Person ' || i || '","lastName":"Row","email":"p' || i || '@example.test","message":"line one\\nline \\"two\\""}', 1,
        strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || i || ' minutes'), strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || i || ' minutes')
      FROM n`.execute(harness.svc.context.database.db);
    seedMs = performance.now() - started;
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('signs in, pages to the end of the table and exports it with progress, by keyboard and axe-clean', { timeout: 90_000 }, async () => {
    const context = await harness.browser.newContext({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
    try {
      const { page, base, problems, axe } = await openConsole(context, harness.serviceOrigin, 'lee', PASSWORD);

      await tabTo(page, page.getByRole('link', { name: 'Contact' }));
      await Promise.all([page.waitForURL(/\/forms\/contact$/), page.keyboard.press('Enter')]);
      const first = await navigationTiming(page);
      expect(await page.locator('main').textContent()).toContain(`${ROWS} matching submission(s)`);
      expect(await page.locator('tbody tr').first().textContent()).toContain(`Person ${ROWS}`);
      await axe('the first page of 100,000');

      await tabTo(page, page.getByRole('link', { name: 'Next page' }));
      await Promise.all([page.waitForURL(/cursor=/), page.keyboard.press('Enter')]);
      const second = await navigationTiming(page);
      expect(await page.locator('tbody tr').first().textContent()).toContain(`Person ${ROWS - 50}`);

      // The last page of the newest-first table: what "Next page" reaches after 1,999 clicks.
      const db = harness.svc.context.database.db;
      const form = harness.svc.context.forms.get('contact')!;
      const before = await db.selectFrom('svc_submissions').select(['id', 'created_at']).where('form_id', '=', form.id).orderBy('created_at', 'asc').orderBy('id', 'asc').offset(50).limit(1).executeTakeFirstOrThrow();
      const cursor = encodeCursor({ key: 'createdAt', direction: 'desc' }, { createdAt: before.created_at, id: before.id });
      await page.goto(`${base}/forms/contact?cursor=${encodeURIComponent(cursor)}`);
      const last = await navigationTiming(page);
      expect(await page.locator('tbody tr').last().textContent()).toContain('Person 1');
      expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0);
      await page.goto(`${base}/forms/contact?order=asc`);
      const oldest = await navigationTiming(page);
      expect(await page.locator('tbody tr').first().textContent()).toContain('Person 1');
      await axe('the oldest-first page');

      // The export, by keyboard: Enter on the link; the script streams it and shows its progress.
      await page.goto(`${base}/forms/contact`);
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { __figures: string[] }).__figures = seen;
        const figures = document.getElementById('export-figures') as HTMLElement;
        new MutationObserver(() => seen.push(figures.textContent ?? '')).observe(figures, { childList: true, characterData: true, subtree: true });
      });
      await tabTo(page, page.getByRole('link', { name: 'CSV (Excel)' }));
      const started = performance.now();
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.keyboard.press('Enter')]);
      const exportMs = performance.now() - started;
      expect(await page.locator('#export-progress').isVisible()).toBe(true);
      await expect.poll(() => page.locator('#export-status').textContent()).toContain('Export finished');
      expect(await page.locator('#export-status').textContent()).toBe(`Export finished: ${ROWS.toLocaleString('en')} rows saved as ${download.suggestedFilename()}.`);
      expect(download.suggestedFilename()).toMatch(/^contact-\d{4}-\d\d-\d\d\.csv$/);
      const progress = await page.locator('#export-bar').evaluate((bar: HTMLProgressElement) => [bar.value, bar.max]);
      expect(progress).toEqual([ROWS, ROWS]);
      const figures = await page.evaluate(() => (window as unknown as { __figures: string[] }).__figures);
      expect(figures.some((text) => / of 100,000 rows, /.test(text)), figures.join('\n')).toBe(true);
      const csv = readFileSync((await download.path()) as string, 'utf8');
      expect(csv.startsWith('\uFEFF')).toBe(true);
      // Every message holds a line break and quotes, which the row count must not be fooled by.
      expect(csv).toContain('"line one\nline ""two"""');
      expect(csv.match(/@example\.test/g)?.length).toBe(ROWS);
      await axe('the submissions page after an export');
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'console-export.png') });
      expect(problems, problems.join('\n')).toEqual([]);

      const ms = (value: number) => `${value.toFixed(0)} ms`;
      console.info(
        `[console 100k in Chromium] seeded ${ROWS} rows in ${ms(seedMs)}; page loads (response / load event): ` +
          `first ${ms(first.response)} / ${ms(first.load)}, second ${ms(second.response)} / ${ms(second.load)}, ` +
          `last ${ms(last.response)} / ${ms(last.load)}, oldest first ${ms(oldest.response)} / ${ms(oldest.load)}; ` +
          `CSV export of ${ROWS} rows (${(csv.length / 1048576).toFixed(1)} MB) saved after ${ms(exportMs)}`,
      );
    } finally {
      await context.close();
    }
  });
});
