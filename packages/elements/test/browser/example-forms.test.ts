/**
 * Every example form rendered by `<svc-form>` in Chromium from another origin: the demo page, a
 * screenshot of each form kept as a test artifact (test-artifacts/screenshots/<handle>.png) and an
 * axe-core check of each with no serious or critical violations (issue #6).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeWithChromium } from './support/chromium.js';
import { EXAMPLE_HANDLES, startBrowserHarness, type BrowserHarness, type TrackedPage } from './support/browser-harness.js';
import { openForm, pageProblems, RENDER_TIMEOUT_MS } from './support/form-page.js';
import { describeViolations, isSerious, runAxe } from './support/axe-check.js';

const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../../../test-artifacts/screenshots');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describeWithChromium('example forms in Chromium', () => {
  let harness: BrowserHarness;
  const newPage = (): Promise<TrackedPage> => harness.newPage();

  beforeAll(async () => {
    harness = await startBrowserHarness();
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });
  afterEach(async () => {
    await harness?.closePages();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('the demo page embeds a rendered <svc-form> for every example form', { timeout: 30_000 }, async () => {
    const tracked = await newPage();
    await tracked.page.goto(harness.demoUrl);
    for (const handle of EXAMPLE_HANDLES) {
      const form = tracked.page.locator(`svc-form[handle="${handle}"]`);
      expect(await form.count(), `no <svc-form handle="${handle}"> on the demo page`).toBe(1);
      const rendered = await form
        .evaluate((element) => (element as HTMLElement & { ready: Promise<unknown> }).ready.then(() => true), undefined, { timeout: RENDER_TIMEOUT_MS })
        .catch((error: Error) => error.message);
      expect(rendered, `<svc-form handle="${handle}"> did not render${pageProblems(tracked)}`).toBe(true);
      expect(await form.locator('[part=field]').count()).toBeGreaterThan(0);
    }
    expect(tracked.problems, 'the demo page reported problems').toEqual([]);
  });

  for (const handle of EXAMPLE_HANDLES) {
    it(`${handle}: a screenshot is saved as a test artifact`, { timeout: 30_000 }, async () => {
      const tracked = await newPage();
      const form = await openForm(tracked, harness.formUrl(handle), handle);
      expect(await form.locator('[part=field]').count()).toBeGreaterThan(0);
      const path = join(SCREENSHOT_DIR, `${handle}.png`);
      await form.screenshot({ path, animations: 'disabled', timeout: RENDER_TIMEOUT_MS });
      const bytes = readFileSync(path);
      expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      expect(bytes.length).toBeGreaterThan(1000);
    });

    it(`${handle}: axe-core finds no serious or critical accessibility violations`, { timeout: 30_000 }, async () => {
      const tracked = await newPage();
      await openForm(tracked, harness.formUrl(handle), handle);
      const violations = await runAxe(tracked.page, `svc-form[handle="${handle}"]`);
      const serious = violations.filter(isSerious);
      const minor = violations.filter((v) => !isSerious(v));
      if (minor.length > 0) console.info(`[axe] ${handle}: minor or moderate violations:\n${describeViolations(minor)}`);
      expect(serious, `axe-core on ${handle}:\n${describeViolations(serious)}`).toEqual([]);
    });
  }
});
