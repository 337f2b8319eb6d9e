/**
 * Hosted pages (issue #36 item 4): what a visitor downloads for a form's page before touching it
 * (the HTML, its one stylesheet, its script and whatever that imports at load, each gzipped as a
 * server would send it) against the 45 KB budget, and how long Chromium takes from navigation to
 * the form drawn by `<svc-form>` (the element's `ready`), median of a few loads with a cold cache
 * each. Every example form with a page, in every site of the examples' config. A phone form's
 * metadata chunk, imported on the field's first focus, is printed beside it, not counted.
 * Reports, never asserts: packages/server/test/hosted-page-weight.test.ts holds the budget.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { parse } from 'yaml';
import { median, withTargets } from './bench-harness.js';

const BUDGET_BYTES = 45_000;
const LOADS = 5;
const DRAW_LIMIT_MS = 30_000;
const EXAMPLES = resolve(import.meta.dirname, '../examples');

/** `/f/<handle>` of every example form with `hostedPage: true`, in the default site and each other one. */
function examplePages(): string[] {
  const handles = readdirSync(resolve(EXAMPLES, 'forms'))
    .filter((file) => file.endsWith('.yaml') && /^\s*hostedPage:\s*true\b/m.test(readFileSync(resolve(EXAMPLES, 'forms', file), 'utf8')))
    .map((file) => file.replace(/\.yaml$/, ''))
    .sort();
  const sites = ((parse(readFileSync(resolve(EXAMPLES, 'svc.config.yaml'), 'utf8')) as { sites?: { handle: string; default?: boolean }[] }).sites ?? [])
    .filter((site) => site.default !== true)
    .map((site) => `?site=${site.handle}`);
  return handles.flatMap((handle) => ['', ...sites].map((query) => `/f/${handle}${query}`));
}

export interface PageWeight {
  readonly page: string;
  readonly html: number;
  readonly css: number;
  readonly js: number;
  readonly total: number;
  /** Imported on a phone field's first focus (the -phone bundles' metadata chunk); 0 for none. */
  readonly lazy: number;
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
  const beside = (path: string) => new URL(path, `${origin}${js ?? '/'}`).href;
  // What the bundle imports before it runs counts (nothing today); what it imports later does not.
  const statics = [...jsText.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g)].map((m) => beside(m[1]!));
  const lazies = [...jsText.matchAll(/import\(["']([^"']+)["']\)/g)].map((m) => beside(m[1]!));
  const texts = async (urls: string[]) => Promise.all(urls.map(async (url) => (await fetch(url)).text()));
  const sizes = { html: gz(html), css: gz(cssText), js: gz(jsText) + (await texts(statics)).reduce((sum, text) => sum + gz(text), 0) };
  const lazy = (await texts(lazies)).reduce((sum, text) => sum + gz(text), 0);
  return { page, ...sizes, total: sizes.html + sizes.css + sizes.js, lazy };
}

export async function measureHostedPages(): Promise<PageWeight[]> {
  // The demo's svc (`npm start`): its donation form loads the offline Stripe double's script.
  return withTargets(['svc-demo'], async ([port]) => {
    const origin = `http://127.0.0.1:${port as number}`;
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    try {
      const out: PageWeight[] = [];
      for (const page of examplePages()) {
        const weight = await weigh(origin, page);
        const renders: number[] = [];
        const paints: number[] = [];
        for (let i = 0; i < LOADS; i++) {
          // A new context each time: nothing cached from the load before.
          const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
          const tab = await context.newPage();
          await tab.goto(`${origin}${page}`, { waitUntil: 'commit' });
          // Bounded: a page whose form never draws is reported (NaN), not waited on forever.
          const timing = await tab.evaluate(async (limit) => {
            const drawn = (async () => {
              await customElements.whenDefined('svc-form');
              await (document.querySelector('svc-form') as HTMLElement & { ready: Promise<void> }).ready;
              return performance.now();
            })();
            const ready = await Promise.race([drawn, new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), limit))]);
            // The paint entry may be reported after `ready` resolved: waited for, buffered.
            const paint = await new Promise<number>((resolve) => {
              new PerformanceObserver((list) => {
                const entry = list.getEntriesByName('first-contentful-paint')[0];
                if (entry) resolve(entry.startTime);
              }).observe({ type: 'paint', buffered: true });
              setTimeout(() => resolve(Number.NaN), limit);
            });
            return { ready, paint };
          }, DRAW_LIMIT_MS);
          renders.push(timing.ready);
          paints.push(timing.paint);
          await context.close();
        }
        // A load that never drew or painted is left out of the median (NaN when all of them were).
        const finite = (values: number[]) => values.filter(Number.isFinite);
        out.push({ ...weight, renderMs: finite(renders).length > 0 ? median(finite(renders)) : Number.NaN, paintMs: finite(paints).length > 0 ? median(finite(paints)) : Number.NaN });
      }
      return out;
    } finally {
      await browser.close();
    }
  });
}

export function printHostedPages(rows: readonly PageWeight[]): void {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  process.stdout.write('| hosted page | HTML | CSS | JS | total (gzip) | budget | on first focus | first paint | form drawn |\n|---|---|---|---|---|---|---|---|---|\n');
  for (const r of rows) {
    process.stdout.write(`| ${r.page} | ${kb(r.html)} | ${kb(r.css)} | ${kb(r.js)} | ${kb(r.total)} | ≤ ${kb(BUDGET_BYTES)} | ${r.lazy > 0 ? `+${kb(r.lazy)}` : '–'} | ${r.paintMs.toFixed(0)} ms | ${r.renderMs.toFixed(0)} ms |\n`);
  }
  for (const r of rows) {
    process.stdout.write(`bench hosted-page ${r.page} gzip_bytes=${r.total} budget=${BUDGET_BYTES} lazy_gzip_bytes=${r.lazy} first_paint_ms=${r.paintMs.toFixed(0)} form_drawn_ms=${r.renderMs.toFixed(0)}\n`);
  }
  process.stdout.write('\n');
}
