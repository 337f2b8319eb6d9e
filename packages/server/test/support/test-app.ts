/**
 * Builds the real app (real SQLite, real routes) for `app.inject()` tests, plus the small client
 * steps every test repeats: get a CSRF token with its cookie, read a manifest, fill `meta`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type SvcApp } from '../../src/app.js';
import { deepMerge, loadConfig } from '../../src/config/config-loader.js';
import type { Config } from '../../src/config/config-schema.js';

export const EXAMPLE_FORMS_DIR = resolve(import.meta.dirname, '../../../../examples/forms');
export const TEST_SECRET = 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

export interface TestAppOptions {
  /** Config values laid over the test defaults (deep-merged). */
  readonly config?: Record<string, unknown>;
  readonly env?: Record<string, string>;
  readonly now?: () => Date;
  /** Pino options (e.g. a stream to read the log); tests are silent by default. */
  readonly logger?: Record<string, unknown>;
  /** Run as the demo (`svc serve --demo`): demo routes, the offline Stripe double without keys. */
  readonly demo?: boolean;
}

export interface TestApp extends SvcApp {
  readonly config: Config;
  readonly dataDir: string;
  /** A CSRF token and the cookie header that binds it. */
  csrf(): Promise<{ token: string; cookie: string }>;
  manifest(handle: string): Promise<ManifestData>;
  /** A JSON submit with CSRF and the manifest's honeypot/javascript-test filled as a real client would. */
  submit(handle: string, body: Record<string, unknown>, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** The `meta` a well-behaved client sends for this form. */
  meta(handle: string): Promise<Record<string, unknown>>;
}

export interface ManifestData {
  readonly security: {
    readonly honeypot?: { name: string };
    readonly javascriptTest?: { name: string; value: string };
  } & Record<string, unknown>;
  readonly [key: string]: unknown;
}

export const DEFAULT_TEST_CONFIG = {
  forms: { dir: EXAMPLE_FORMS_DIR },
  headless: {
    enabled: true,
    allowedOrigins: ['http://localhost:5173', 'https://*.example.test'],
    forms: {
      contact: { exposeManifest: true, allowSubmit: true },
      application: { exposeManifest: true, allowSubmit: true },
      'kitchen-sink': { exposeManifest: true, allowSubmit: true },
    },
  },
  log: { level: 'silent' },
  // Suites submit far more than a client's budget from one address; rate-limit.test.ts turns it on.
  rateLimit: { enabled: false },
};

export function testConfig(options: TestAppOptions = {}, dataDir: string): Config {
  return loadConfig({
    file: null,
    demo: options.demo ?? false,
    env: { SVC_SECRET: TEST_SECRET, ...options.env },
    values: deepMerge(deepMerge(DEFAULT_TEST_CONFIG, { dataDir }), options.config ?? {}),
  });
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  const config = testConfig(options, dataDir);
  const svc = await buildApp(config, { logger: options.logger ?? false, now: options.now });
  const { app } = svc;
  const manifests = new Map<string, ManifestData>();

  async function csrf() {
    const res = await app.inject({ method: 'GET', url: '/svc/tokens' });
    const body = res.json() as { csrf?: { value: string } };
    const setCookie = res.cookies[0];
    return { token: body.csrf?.value ?? '', cookie: setCookie ? `${setCookie.name}=${setCookie.value}` : '' };
  }
  async function manifest(handle: string) {
    let data = manifests.get(handle);
    if (!data) {
      const res = await app.inject({ method: 'GET', url: `/svc/api/forms/${handle}/manifest` });
      data = (res.json() as { data: ManifestData }).data;
      manifests.set(handle, data);
    }
    return data;
  }
  async function meta(handle: string) {
    const { security } = await manifest(handle);
    const out: Record<string, unknown> = {};
    if (security.honeypot) {
      const { name, timestamp } = security.honeypot as { name: string; timestamp?: string };
      out.honeypot = timestamp === undefined ? { name, value: '' } : { name, value: '', timestamp };
    }
    if (security.javascriptTest) out.javascriptTest = { ...security.javascriptTest };
    return out;
  }
  async function submit(handle: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
    const { token, cookie } = await csrf();
    const payload = { ...body, meta: { ...(await meta(handle)), ...((body.meta as object | undefined) ?? {}) } };
    return app.inject({
      method: 'POST',
      url: `/svc/api/forms/${handle}/submit`,
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie, ...headers },
      payload: JSON.stringify(payload),
    });
  }
  return {
    ...svc,
    config,
    dataDir,
    csrf,
    manifest,
    meta,
    submit,
    async close() {
      await svc.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
