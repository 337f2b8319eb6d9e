/**
 * The kitchen sink as a person fills it (issue #31 item 12d): on its server-rendered page
 * Department is a pair of radios as the element draws it, the rating is a row of radio stars
 * (CSS only, one accessible name per star), and a table's column default (Quantity 1) is posted
 * with the row; the element posts that default too.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeWithChromium } from './support/chromium.js';
import { useBrowserHarness } from './support/browser-harness.js';
import { describeViolations, isSerious, runAxe } from './support/axe-check.js';
import { openForm, pageProblems, text, visible } from './support/form-page.js';
import { storedSubmissionWith } from './support/stored-rows.js';

const WAIT = { timeout: 10_000, interval: 50 };
const TEST_TIMEOUT = 40_000;

describeWithChromium('the kitchen sink, classic page and element', () => {
  const harness = useBrowserHarness();

  const click = (page: Page, action: string) => Promise.all([page.waitForLoadState('load'), page.locator(`button[name=svc-action][value=${action}]`).first().click()]);

  it('classic page: Department radios, rating stars and a table row with its Quantity default are stored', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    const { page } = tracked;
    await page.goto(`${harness.serviceOrigin}/demo/classic/kitchen-sink`);
    expect(await page.locator('input[name=department]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).type))).toEqual(['radio', 'radio']);
    await page.getByLabel('Support').check();
    await page.locator('#f-email').fill('sink@example.test');
    await page.locator('#f-emailConfirm').fill('sink@example.test');
    await click(page, 'submit');

    const stars = page.locator('fieldset:has(legend:text("Rating")) input[type=radio]');
    expect(await stars.count(), await page.locator('main').textContent() ?? '').toBe(5);
    await page.locator('label:has-text("4 of 5")').click();
    expect(await page.getByLabel('4 of 5').isChecked()).toBe(true);
    // The star checked and those below it are lit; the fifth is not (computed colours, CSS only).
    const colour = (n: number) => page.locator(`label[for="f-rating-${n - 1}"]`).evaluate((l) => getComputedStyle(l).color);
    expect(await colour(4)).toBe(await colour(1));
    expect(await colour(5)).not.toBe(await colour(4));
    const serious = (await runAxe(page, 'main')).filter(isSerious);
    expect(serious, `axe-core on the kitchen sink, page 2:\n${describeViolations(serious)}`).toEqual([]);

    expect(await page.getByLabel('Quantity, row 1').inputValue()).toBe('1');
    await page.getByLabel('Name, row 1').fill('Widget');
    await page.locator('#f-phone').fill('(555) 123-4567');
    await click(page, 'submit');
    expect(await page.locator('.done').count(), await page.locator('main').textContent() ?? '').toBe(1);
    const stored = await storedSubmissionWith(harness.svc, 'kitchen-sink', 'email', 'sink@example.test');
    expect(stored?.values, JSON.stringify(stored?.values)).toMatchObject({ department: ['support'], rating: 4, table: [['Widget', '1', null]], phone: '+15551234567' });
  });

  it('element: a new table row starts with its Quantity default, and it is stored', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await harness.newPage();
    const form = await openForm(tracked, harness.formUrl('kitchen-sink'), 'kitchen-sink');
    await form.locator('#svc-email').fill('element-sink@example.test');
    await form.locator('#svc-emailConfirm').fill('element-sink@example.test');
    await visible(form, 'button[part=submit]').click();
    const quantity = form.locator('input[aria-label="Quantity, row 1"]');
    await quantity.waitFor({ state: 'visible', timeout: WAIT.timeout });
    expect(await quantity.inputValue()).toBe('1');
    await form.locator('input[aria-label="Name, row 1"]').fill('Gadget');
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('[part=success]')), WAIT).not.toBe('');
    const stored = await storedSubmissionWith(harness.svc, 'kitchen-sink', 'email', 'element-sink@example.test');
    expect(stored?.values.table, `no kitchen-sink submission stored${pageProblems(tracked)}`).toEqual([['Gadget', '1', null]]);
  });
});
