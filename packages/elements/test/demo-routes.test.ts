/** `/demo/` and its resume page are served by `npm start` (config.demo) and by nothing else (issues #6, #11). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type SvcApp } from '../../server/src/app.js';
import { deepMerge, loadConfig } from '../../server/src/config/config-loader.js';
import { DEFAULT_TEST_CONFIG, TEST_SECRET } from '../../server/test/support/test-app.js';

const dirs: string[] = [];
const apps: SvcApp[] = [];

async function start(demo: boolean): Promise<SvcApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
  dirs.push(dataDir);
  const config = loadConfig({ file: null, demo, env: { SVC_SECRET: TEST_SECRET }, values: deepMerge(DEFAULT_TEST_CONFIG, { dataDir }) });
  const svc = await buildApp(config, { logger: false });
  apps.push(svc);
  return svc;
}

afterAll(async () => {
  for (const svc of apps) await svc.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('demo routes', () => {
  it('the demo serves the page and the bundled element, which any origin may load', { timeout: 30_000 }, async () => {
    const { app } = await start(true);
    const page = await app.inject({ method: 'GET', url: '/demo/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<svc-form handle="kitchen-sink"');
    const script = await app.inject({ method: 'GET', url: '/demo/svc-elements.js', headers: { origin: 'http://elsewhere.test' } });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.headers['access-control-allow-origin']).toBe('*');
    expect(script.body).toContain('svc-form');
  });

  it('the resume page is one <svc-form> that takes the draft from the query, with no query text in its HTML', { timeout: 30_000 }, async () => {
    const { app } = await start(true);
    const hostile = '"><script>alert(1)</script>';
    const query = new URLSearchParams({ form: hostile, token: hostile, key: hostile });
    const page = await app.inject({ method: 'GET', url: `/demo/resume?${query}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<svc-form allow-save></svc-form>');
    expect(page.body).toContain("element.setAttribute('draft-token', token)");
    expect(page.body).not.toContain('alert(1)');
    // The link carries a draft's token and key: not cached, not passed on as a Referer.
    const demo = await app.inject({ method: 'GET', url: '/demo/' });
    for (const res of [page, demo]) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('a service that is not the demo has no demo page', async () => {
    const { app } = await start(false);
    expect((await app.inject({ method: 'GET', url: '/demo/' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/demo/resume?form=contact&token=t&key=k' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/demo/svc-elements.js' })).statusCode).toBe(404);
  });
});
