/**
 * Hosted pages (issue #36 item 4): what a visitor downloads for a form's page (the HTML, its one
 * stylesheet and its one script, each gzipped as a server would send it) against the 45 KB
 * budget, and how long Chromium takes from navigation to the form drawn by `<svc-form>` (the
 * element's `ready`), median of a few loads with a cold cache each. Reports, never asserts.
 */
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { median, withTargets } from './bench-harness.js';

const BUDGET_BYTES = 45_000;
const LOADS = 5;
/** The example forms' pages: one page, several pages with a phone field, right to left. */
const PAGES = ['/f/contact', '/f/application', '/f/contact?site=ar'] as const;

export interface PageWeight {
  readonly page: string;
  readonly html: number;
  readonly css: number;
  readonly js: number;
  readonly total: number;
  readonly renderMs: number;
  readonly paintMs: number;
}

const gz = (text: string) => gzipSync(Buffer.from(text, 'utf8')).length;

async function weigh(origin: string, page: string): Promise<Omit<PageWeight, 'renderMs' | 'paintMs'>> {
  const html = await (await fetch(`${origin}${page}`)).text();
  const css = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  const js = /<script type="module" src="([^"]+)"/.exec(html)?.[1];
  const cssText = css ? await (await fetch(`${origin}${css}`)).text() : '';
  const jsText = js ? await (await fetch(`${origin}${js}`)).text() : '';
  const sizes = { html: gz(html), css: gz(cssText), js: gz(jsText) };
  return { page, ...sizes, total: sizes.html + sizes.css + sizes.js };
}

export async function measureHostedPages(): Promise<PageWeight[]> {
  return withTargets(['svc'], async ([port]) => {
    const origin = `http://127.0.0.1:${port as number}`;
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    try {
      const out: PageWeight[] = [];
      for (const page of PAGES) {
        const weight = await weigh(origin, page);
        const renders: number[] = [];
        const paints: number[] = [];
        for (let i = 0; i < LOADS; i++) {
          // A new context each time: nothing cached from the load before.
          const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
          const tab = await context.newPage();
          await tab.goto(`${origin}${page}`, { waitUntil: 'commit' });
          const timing = await tab.evaluate(async () => {
            await customElements.whenDefined('svc-form');
            await (document.querySelector('svc-form') as HTMLElement & { ready: Promise<void> }).ready;
            const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
            return { ready: performance.now(), paint };
          });
          renders.push(timing.ready);
          paints.push(timing.paint);
          await context.close();
        }
        out.push({ ...weight, renderMs: median(renders), paintMs: median(paints) });
      }
      return out;
    } finally {
      await browser.close();
    }
  });
}

export function printHostedPages(rows: readonly PageWeight[]): void {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  process.stdout.write('| hosted page | HTML | CSS | JS | total (gzip) | budget | first paint | form drawn |\n|---|---|---|---|---|---|---|---|\n');
  for (const r of rows) {
    process.stdout.write(`| ${r.page} | ${kb(r.html)} | ${kb(r.css)} | ${kb(r.js)} | ${kb(r.total)} | ≤ ${kb(BUDGET_BYTES)} | ${r.paintMs.toFixed(0)} ms | ${r.renderMs.toFixed(0)} ms |\n`);
  }
  for (const r of rows) {
    process.stdout.write(`bench hosted-page ${r.page} gzip_bytes=${r.total} budget=${BUDGET_BYTES} first_paint_ms=${r.paintMs.toFixed(0)} form_drawn_ms=${r.renderMs.toFixed(0)}\n`);
  }
  process.stdout.write('\n');
}
