/**
 * Two origins on loopback: the service on one port and a plain page server on another, so the
 * `<svc-form>` under test talks to the service cross-origin, with real CORS preflights and a
 * credentialed CSRF cookie (issue #6, "Proof in a browser"). 127.0.0.1:A and 127.0.0.1:B are the
 * same site, so the default SameSite=Lax CSRF cookie travels on credentialed fetches.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildApp, type SvcApp } from '../../../../server/src/app.js';
import { deepMerge, loadConfig } from '../../../../server/src/config/config-loader.js';
import type { Config } from '../../../../server/src/config/config-schema.js';
import { DEFAULT_TEST_CONFIG, TEST_SECRET } from '../../../../server/test/support/test-app.js';
import { launchChromium } from './chromium.js';
import { renderDemoPage, renderFormPage, type FormPageOptions } from './pages.js';

export const EXAMPLE_HANDLES = ['contact', 'application', 'kitchen-sink', 'job-application', 'donation'] as const;

export interface BrowserHarness {
  readonly svc: SvcApp & { readonly config: Config };
  /** http://127.0.0.1:A, the service. */
  readonly serviceOrigin: string;
  /** http://127.0.0.1:B, where the pages under test come from. */
  readonly pageOrigin: string;
  readonly browser: Browser;
  /** A page with one `<svc-form>` for `handle`. */
  formUrl(handle: string, options?: FormPageOptions): string;
  /** The demo page as the service's demo module renders it, served from the page origin. */
  readonly demoUrl: string;
  /** A fresh browser context (its own cookies) with one page that records svc:* events and errors. */
  newPage(): Promise<TrackedPage>;
  /** Closes every page `newPage` opened so far (each test's afterEach). */
  closePages(): Promise<void>;
  close(): Promise<void>;
}

export interface RecordedEvent {
  readonly type: string;
  readonly detail: unknown;
}

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  /** The headers Chromium actually sent (Origin, Content-Type, …), lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface TrackedPage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Console errors, page errors and failed requests, for assertion messages. */
  readonly problems: string[];
  /** Requests the page sent to the service (CORS preflights are the network stack's, not listed). */
  readonly requests: RecordedRequest[];
  /** Why the element's script cannot load (the service does not serve it), or null. */
  readonly scriptProblem: string | null;
  /** svc:* events seen by the document so far. */
  events(): Promise<RecordedEvent[]>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

// The element's events bubble and are composed, so one capturing listener on the document sees
// them all; details are kept as JSON so the test side can read them.
const RECORD_EVENTS = `(() => {
  const seen = [];
  Object.defineProperty(window, '__svcEvents', { value: seen });
  for (const type of ['svc:submitted', 'svc:error', 'svc:page', 'svc:draft']) {
    document.addEventListener(type, (event) => {
      let detail = null;
      try { detail = JSON.parse(JSON.stringify(event.detail ?? null)); } catch { detail = String(event.detail); }
      seen.push({ type, detail });
    }, true);
  }
})();`;

/** Extra files the page server hands out by path (a fake captcha provider's script, …). */
export type PageAssets = Readonly<Record<string, { readonly type: string; readonly body: string }>>;

/** Config overrides, or a function of the page origin for ones that point at the page server. */
export type HarnessOverrides = Record<string, unknown> | ((origins: { readonly pageOrigin: string }) => Record<string, unknown>);

export async function startBrowserHarness(overrides: HarnessOverrides = {}, assets: PageAssets = {}): Promise<BrowserHarness> {
  // The page server first: the service's allow-list needs its origin.
  let serviceOrigin = '';
  const pages = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const asset = Object.hasOwn(assets, url.pathname) ? assets[url.pathname] : undefined;
    if (asset) {
      response.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-store' }).end(asset.body);
      return;
    }
    const scriptUrl = `${serviceOrigin}/demo/svc-elements.js`;
    let html: string | null = null;
    if (url.pathname === '/' || url.pathname === '/demo/') html = renderDemoPage(scriptUrl, serviceOrigin);
    const match = /^\/form\/([a-z0-9-]+)$/.exec(url.pathname);
    if (match) {
      html = renderFormPage(scriptUrl, serviceOrigin, match[1] as string, {
        allowSave: url.searchParams.has('allow-save'),
        token: url.searchParams.get('token') ?? undefined,
        key: url.searchParams.get('key') ?? undefined,
        site: url.searchParams.get('site') ?? undefined,
      });
    }
    if (html === null) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  const pagePort = await listen(pages);
  const pageOrigin = `http://127.0.0.1:${pagePort}`;

  const dataDir = mkdtempSync(join(tmpdir(), 'svc-browser-'));
  const cleanups: (() => Promise<void>)[] = [
    () => new Promise<void>((resolve) => pages.close(() => resolve())),
    async () => rmSync(dataDir, { recursive: true, force: true }),
  ];
  try {
    const formAccess = { exposeManifest: true, allowSubmit: true };
    // demo: true is what `npm start` sets; it is what makes the service serve the bundled element.
    const config = loadConfig({
      file: null,
      demo: true,
      env: { SVC_SECRET: TEST_SECRET },
      values: deepMerge(
        deepMerge(DEFAULT_TEST_CONFIG, {
          dataDir,
          headless: {
            allowedOrigins: [pageOrigin],
            forms: Object.fromEntries(EXAMPLE_HANDLES.map((handle) => [handle, formAccess])),
          },
        }),
        typeof overrides === 'function' ? overrides({ pageOrigin }) : overrides,
      ),
    });
    const svc = await buildApp(config, { logger: false });
    cleanups.unshift(() => svc.close());
    const address = await svc.app.listen({ port: 0, host: '127.0.0.1' });
    serviceOrigin = new URL(address).origin;

    // Checked once, so a missing bundle fails every form test at once instead of after a timeout.
    const scriptUrl = `${serviceOrigin}/demo/svc-elements.js`;
    const scriptProblem = await fetch(scriptUrl, { headers: { origin: pageOrigin } }).then(
      // The body is read either way: an unread response keeps its connection busy, and the
      // service's close would wait for it.
      async (res) => {
        const body = await res.text();
        return res.ok ? null : `GET ${scriptUrl} answered ${res.status}: ${body.slice(0, 300)}`;
      },
      (error: Error) => `GET ${scriptUrl} failed: ${error.message}`,
    );

    const browser = await launchChromium();
    cleanups.unshift(() => browser.close());

    const contexts: BrowserContext[] = [];
    return {
      svc: { ...svc, config },
      serviceOrigin,
      pageOrigin,
      browser,
      demoUrl: `${pageOrigin}/`,
      formUrl(handle, options = {}) {
        const query = new URLSearchParams();
        if (options.allowSave) query.set('allow-save', '');
        if (options.token) query.set('token', options.token);
        if (options.key) query.set('key', options.key);
        if (options.site) query.set('site', options.site);
        const search = query.toString();
        return `${pageOrigin}/form/${handle}${search ? `?${search}` : ''}`;
      },
      async newPage() {
        const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
        await context.addInitScript({ content: RECORD_EVENTS });
        // Actions on a rendered form take milliseconds; a missing control should fail fast.
        context.setDefaultTimeout(5_000);
        context.setDefaultNavigationTimeout(10_000);
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(`console: ${message.text()}`);
        });
        const requests: RecordedRequest[] = [];
        page.on('request', (request) => {
          if (!request.url().startsWith(serviceOrigin)) return;
          void request.allHeaders().then((headers) => requests.push({ method: request.method(), url: request.url(), headers }), () => undefined);
        });
        page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
        page.on('requestfailed', (request) => problems.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? '?'})`));
        contexts.push(context);
        return {
          page,
          context,
          problems,
          requests,
          scriptProblem,
          events: () => page.evaluate(() => [...((window as unknown as { __svcEvents: RecordedEvent[] }).__svcEvents ?? [])]),
        };
      },
      async closePages() {
        for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
      },
      async close() {
        for (const cleanup of cleanups) await cleanup().catch(() => undefined);
      },
    };
  } catch (error) {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
    throw error;
  }
}

/**
 * One harness for a suite: started before its first test, its pages closed after each test, and
 * closed after the last. The object returned stands for the harness the suite's hooks started.
 *
 * @example
 * const harness = useBrowserHarness();
 * it('renders', async () => { const tracked = await harness.newPage(); … });
 */
export function useBrowserHarness(overrides: HarnessOverrides = {}): BrowserHarness {
  let current: BrowserHarness | undefined;
  beforeAll(async () => {
    current = await startBrowserHarness(overrides);
  });
  afterEach(async () => {
    await current?.closePages();
  });
  afterAll(async () => {
    await current?.close();
  });
  return new Proxy({} as BrowserHarness, {
    get(_target, property) {
      if (!current) throw new Error('The browser harness is used before its suite started it.');
      const value: unknown = Reflect.get(current, property);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}
