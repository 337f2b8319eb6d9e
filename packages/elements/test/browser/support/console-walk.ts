/** What the console's Chromium walks share (issue #35): a signed-in page that records its errors, axe over the whole page, and Tab until a control has focus. */
import { expect } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describeViolations, isSerious, runAxe, type AxeViolation } from './axe-check.js';

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

/** A console page signed in by keyboard, as a walk starts from it. */
export interface ConsoleWalk {
  readonly page: Page;
  /** The console's root URL, `<origin>/svc/console`, without the trailing slash. */
  readonly base: string;
  /** Uncaught page errors and console errors seen since the page opened: a walk ends expecting none. */
  readonly problems: string[];
  /** Fails the test with axe's own description when the whole page has a serious or critical violation. */
  axe(what: string): Promise<void>;
}

export interface OpenConsoleOptions {
  /** Console errors the walk causes on purpose (a refused save answers 4xx, which the browser logs); they are not problems. */
  readonly expectedError?: (text: string) => boolean;
}

/**
 * Opens a page in `context`, records its errors from the first request on, and signs `user` in on
 * the console at `origin` by keyboard (Tab, name, Tab, password, Enter), as a person would; resolves
 * on the forms overview.
 */
export async function openConsole(context: BrowserContext, origin: string, user: string, password: string, options: OpenConsoleOptions = {}): Promise<ConsoleWalk> {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !options.expectedError?.(message.text())) problems.push(message.text());
  });
  const axe = async (what: string) => {
    const serious = await seriousViolations(page);
    expect(serious, `axe-core on ${what}:\n${describeViolations(serious)}`).toEqual([]);
  };
  const base = `${origin}/svc/console`;
  await page.goto(`${base}/`);
  await page.keyboard.press('Tab');
  await page.keyboard.type(user);
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await Promise.all([page.waitForURL(/\/svc\/console\/$/), page.keyboard.press('Enter')]);
  return { page, base, problems, axe };
}
