/**
 * The demo's server-rendered pages on the demo's Arabic and German sites in Chromium (issue #34
 * items 4 and 5): a plain post with JavaScript off comes back with the server's errors in the
 * site's language, the page runs right to left for Arabic (its labels hug the right edge), the
 * whole page is axe-clean, and the Arabic page's screenshot is docs/languages/classic-ar.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { afterEach, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { describeWithChromium } from './support/chromium.js';
import { useBrowserHarness } from './support/browser-harness.js';
import { describeViolations, isSerious, runAxe } from './support/axe-check.js';

const TEST_TIMEOUT = 40_000;
const DEMO_CONFIG = resolve(import.meta.dirname, '../../../../examples/svc.config.yaml');
const DEMO_SITES = (parse(readFileSync(DEMO_CONFIG, 'utf8')) as { sites: unknown[] }).sites;
const SCREENSHOT = resolve(import.meta.dirname, '../../../../docs/languages/classic-ar.png');

/** Which way the page runs, how wide it is, and how far the first label's text sits from the form's two edges. */
function layoutOf(page: Page) {
  return page.evaluate(() => {
    const form = document.querySelector('form')!.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(document.querySelector('form .field label')!);
    const label = range.getBoundingClientRect();
    return {
      lang: document.documentElement.lang,
      dir: document.documentElement.dir,
      direction: getComputedStyle(document.body).direction,
      // Nothing drawn off the side scrolls the page sideways (a honeypot placed by `left` would, in rtl).
      scrollsSideways: document.documentElement.scrollWidth > window.innerWidth,
      labelGapStart: Math.round(label.left - form.left),
      labelGapEnd: Math.round(form.right - label.right),
    };
  });
}

describeWithChromium('server-rendered demo pages on other sites', () => {
  const harness = useBrowserHarness({ sites: DEMO_SITES });
  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
  });

  async function open(path: string, javaScriptEnabled: boolean): Promise<Page> {
    const context = await harness.browser.newContext({ javaScriptEnabled, viewport: { width: 900, height: 900 } });
    context.setDefaultTimeout(5_000);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${harness.serviceOrigin}${path}`);
    return page;
  }

  const submit = (page: Page) => Promise.all([page.waitForLoadState('load'), page.locator('button[name=svc-action][value=submit]').click()]);

  it('the Arabic contact page, JavaScript off: right to left, Arabic errors from the server, axe-clean', { timeout: TEST_TIMEOUT }, async () => {
    const page = await open('/demo/classic/contact?site=ar', false);
    const layout = await layoutOf(page);
    expect(layout).toMatchObject({ lang: 'ar', dir: 'rtl', direction: 'rtl', scrollsSideways: false });
    // Right to left: the label's text starts at the form's right edge.
    expect(layout.labelGapEnd).toBeLessThan(layout.labelGapStart);

    await page.locator('#f-firstName').fill('ليلى');
    await page.locator('#f-email').fill('ليس بريدًا');
    await submit(page);
    const back = new URL(page.url());
    expect(back.searchParams.get('site')).toBe('ar');
    expect(back.searchParams.get('svc_flash')).toBeTruthy();
    expect(await page.locator('#f-email-errors li').textContent()).toBe('أدخل عنوان بريد إلكتروني صالحًا');
    expect(await page.locator('#f-firstName').inputValue()).toBe('ليلى');
    expect(await page.locator('a[href="/demo/?site=ar"]').textContent()).toBe('كل نماذج العرض');
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true, animations: 'disabled' });

    // axe needs scripts: the page as it came back, opened again with JavaScript on.
    const checked = await open(`${back.pathname}${back.search.replace(/svc_flash=[^&]+/, 'svc_flash=spent')}`, true);
    const serious = (await runAxe(checked, 'html')).filter(isSerious);
    expect(serious, describeViolations(serious)).toEqual([]);
  });

  it('the German application page says its steps in German and keeps the site from page to page', { timeout: TEST_TIMEOUT }, async () => {
    const page = await open('/demo/classic/application?site=de', false);
    expect(await layoutOf(page)).toMatchObject({ lang: 'de-DE', dir: 'ltr', direction: 'ltr' });
    expect(await page.locator('main').textContent()).toContain('Seite 1 von 3');
    await submit(page);
    expect(new URL(page.url()).searchParams.get('site')).toBe('de');
    expect(await page.locator('.errors li').first().textContent()).toBe('Dieses Feld ist erforderlich');
  });

  it('the demo index on the Arabic site: a language switch, the sites\' manifests, axe-clean', { timeout: TEST_TIMEOUT }, async () => {
    const page = await open('/demo/?site=ar', true);
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
    expect(await page.locator('nav a[aria-current=page]').textContent()).toBe('العربية');
    expect(await page.locator('a[href$="/svc/api/forms/contact/manifest?site=de"]').count()).toBe(1);
    const serious = (await runAxe(page, 'html')).filter(isSerious);
    expect(serious, describeViolations(serious)).toEqual([]);
  });
});
