/** What the console's Chromium walks share (issue #35): axe over the whole page, and Tab until a control has focus. */
import type { Locator, Page } from 'playwright-core';
import { isSerious, runAxe, type AxeViolation } from './axe-check.js';

/** The serious and critical violations on the whole page (axe through DevTools: the console's CSP allows no inline script). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  return (await runAxe(page, 'body')).filter(isSerious);
}

/** Presses Tab until `target` has focus: a walk by keyboard reaches each control as a person would. */
export async function tabTo(page: Page, target: Locator, max = 300): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${String(target)} was not reached by ${max} presses of Tab`);
}
