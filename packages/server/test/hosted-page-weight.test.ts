/**
 * The hosted pages' weight budget (issue #36 item 4): what a visitor downloads before touching
 * the form (the page's HTML, its stylesheet, its script and whatever that script imports at load)
 * stays under 45 KB gzip for every example form in every site's language. Counted in bytes, as
 * gzip at its default level makes them (the bench prints the same figures with the render times).
 * The phone metadata is not part of it: a phone form's bundle imports it as a chunk on the field's
 * first focus (packages/elements/scripts/hosted-bundles.mjs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type SvcApp } from '../src/app.js';
import { loadConfig } from '../src/config/config-loader.js';
import { TEST_SECRET } from './support/test-app.js';

const BUDGET_BYTES = 45_000;
const EXAMPLES_CONFIG = resolve(import.meta.dirname, '../../../examples/svc.config.yaml');

let svc: SvcApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-hosted-weight-'));
  // The examples as `npm start` serves them: their forms, sites and headless switches.
  const config = loadConfig({ file: EXAMPLES_CONFIG, demo: true, env: { SVC_SECRET: TEST_SECRET }, values: { dataDir, log: { level: 'silent' } } });
  svc = await buildApp(config, { logger: false });
});

afterAll(async () => {
  await svc?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function get(url: string): Promise<string> {
  const res = await svc.app.inject({ method: 'GET', url });
  expect(res.statusCode, url).toBe(200);
  return res.body;
}

const gzipBytes = (text: string) => gzipSync(Buffer.from(text, 'utf8')).length;

/** The modules `code` imports at load (static `import`/`export … from`), as URLs beside `base`. */
function staticImports(code: string, base: string): string[] {
  return [...code.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g)].map((m) => new URL(m[1]!, `http://svc${base}`).pathname);
}

interface Weight {
  readonly html: number;
  readonly css: number;
  readonly js: number;
  readonly script: string;
  readonly lazy: readonly string[];
}

async function weigh(page: string): Promise<Weight> {
  const html = await get(page);
  const stylesheet = /<link rel="stylesheet" href="([^"]+)">/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  const script = /<script type="module" src="([^"]+)"><\/script>/.exec(html)?.[1];
  expect(stylesheet, page).toBeDefined();
  expect(script, page).toBeDefined();
  const code = await get(script!);
  let js = gzipBytes(code);
  // Whatever the bundle imports before it runs is part of the page too (today: nothing).
  const seen = new Set([script!]);
  const queue = staticImports(code, script!);
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const imported = await get(url);
    js += gzipBytes(imported);
    queue.push(...staticImports(imported, url));
  }
  const lazy = [...code.matchAll(/import\(["']([^"']+)["']\)/g)].map((m) => new URL(m[1]!, `http://svc${script}`).pathname);
  return { html: gzipBytes(html), css: gzipBytes(await get(stylesheet!)), js, script: script!, lazy };
}

describe('the hosted pages of the example forms', () => {
  it('each weigh under 45 KB gzip (HTML, CSS and the JavaScript loaded before interaction) in every site', async () => {
    const forms = svc.context.forms.list().filter((form) => form.settings.hostedPage);
    expect(forms.map((form) => form.handle).sort()).toEqual(['application', 'contact', 'donation', 'job-application', 'kitchen-sink']);
    const sites = svc.context.sites.list.map((site) => site.handle);
    expect(sites.length).toBeGreaterThan(1);
    const over: string[] = [];
    for (const form of forms) {
      for (const site of sites) {
        const page = `/f/${form.handle}${site === svc.context.sites.defaultSite.handle ? '' : `?site=${site}`}`;
        const weight = await weigh(page);
        const total = weight.html + weight.css + weight.js;
        if (total > BUDGET_BYTES) over.push(`${page}: ${total} bytes (HTML ${weight.html}, CSS ${weight.css}, JS ${weight.js})`);
      }
    }
    expect(over).toEqual([]);
  });

  it("loads a phone form's metadata only as a chunk its bundle imports when asked, served beside it", async () => {
    const phone = await weigh('/f/application');
    expect(phone.script).toBe('/f/_/svc-form.en-phone.js');
    expect(phone.lazy).toHaveLength(1);
    const chunkUrl = phone.lazy[0]!;
    expect(chunkUrl).toMatch(/^\/f\/_\/svc-phone-[A-Z0-9]+\.js$/);
    const chunk = await get(chunkUrl);
    // libphonenumber's metadata (every country's calling code) is in the chunk, not the bundle.
    expect(chunk).toContain('country_calling_codes');
    expect(await get(phone.script)).not.toContain('country_calling_codes');
    expect(gzipBytes(chunk)).toBeGreaterThan(25_000);
    // Another language's phone bundle imports the same chunk: one file for every site.
    expect((await weigh('/f/application?site=ar')).lazy).toEqual(phone.lazy);
    // Embedded on another origin, the bundle imports the chunk from there too.
    const res = await svc.app.inject({ method: 'GET', url: chunkUrl });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    // A form without a phone field loads no chunk and no metadata.
    const plain = await weigh('/f/contact');
    expect(plain.lazy).toEqual([]);
    expect(await get(plain.script)).not.toContain('country_calling_codes');
    expect((await svc.app.inject({ method: 'GET', url: '/f/_/svc-phone-NOSUCHCHUNK.js' })).statusCode).toBe(404);
  });
});
