/**
 * A listening svc app wired to the local Stripe double (issue #12): the real `stripe` SDK talks to
 * the double over loopback, and the double signs and POSTs its events to the app's webhook route.
 */
import Stripe from 'stripe';
import type { LightMyRequestResponse } from 'fastify';
import { startStripeDouble, type StripeDouble } from '../../src/payments/stripe-double/stripe-double-server.js';
import { createTestApp, type TestApp } from './test-app.js';

export const WEBHOOK_SECRET = 'whsec_test_0123456789abcdefghijklmnopqrstuvwxyz';

export interface PaymentFixture {
  readonly svc: TestApp;
  readonly double: StripeDouble;
  /** An SDK client of the double, for tests that play the gateway's side (tamper, inspect). */
  readonly stripe: Stripe;
  /** The donation form's payment field config from the manifest. */
  paymentConfig(handle?: string): Promise<Record<string, unknown>>;
  /** A fresh CSRF token for the fixture's one browser, whose cookie creates and checkpoints its intents. */
  browser(): Promise<{ token: string; cookie: string }>;
  createIntent(values: Record<string, unknown>, options?: { integration?: string; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  /** The checkpoint as the fixture's browser sends it; `headers` (a cookie) makes another client of it. */
  checkpoint(handle: string, body: Record<string, unknown>, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  callback(query: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Rows of svc_submissions for a form handle. */
  submissionCount(handle: string): Promise<number>;
  close(): Promise<void>;
}

export async function createPaymentFixture(options: {
  databaseUrl: string | null;
  config?: Record<string, unknown>;
  now?: () => Date;
  logger?: Record<string, unknown>;
}): Promise<PaymentFixture> {
  const double = await startStripeDouble();
  const svc = await createTestApp({
    now: options.now,
    ...(options.logger ? { logger: options.logger } : {}),
    config: {
      database: { url: options.databaseUrl },
      headless: { forms: { donation: { exposeManifest: true, allowSubmit: true } } },
      payments: {
        stripe: { publishableKey: double.publishableKey, secretKey: double.secretKey, webhookSecret: WEBHOOK_SECRET, apiUrl: double.url, jsUrl: double.jsUrl, timeoutMs: 2000 },
        reconcileIntervalMinutes: 0,
      },
      ...(options.config ?? {}),
    },
  });
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  const address = svc.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  double.setWebhook({ url: `http://127.0.0.1:${port}/svc/payments/stripe/webhook`, secret: WEBHOOK_SECRET });
  const stripe = new Stripe(double.secretKey, { host: '127.0.0.1', port: double.port, protocol: 'http', maxNetworkRetries: 0 });

  async function paymentConfig(handle = 'donation') {
    const manifest = await svc.manifest(handle);
    const fields = manifest['fields'] as Record<string, { type: string; frontend: { config: Record<string, unknown> } }>;
    const field = Object.values(fields).find((f) => f.type === 'stripe');
    if (!field) throw new Error(`${handle} has no payment field`);
    return field.frontend.config;
  }

  // One browser, as in a page: an intent is checkpointed by the browser that created it (issue #32).
  let cookie: string | null = null;
  async function browser() {
    if (cookie === null) {
      const first = await svc.csrf();
      cookie = first.cookie;
      return first;
    }
    const res = await svc.app.inject({ method: 'GET', url: '/svc/tokens', headers: { cookie } });
    return { token: res.json<{ csrf: { value: string } }>().csrf.value, cookie };
  }

  return {
    svc,
    double,
    stripe,
    paymentConfig,
    browser,
    async createIntent(values, opts = {}) {
      const integration = opts.integration ?? ((await paymentConfig())['integration'] as string);
      const { token, cookie } = await browser();
      return svc.app.inject({
        method: 'POST',
        url: '/svc/payments/stripe/payment-intents',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie, 'ff-stripe-integration': integration, ...(opts.headers ?? {}) },
        payload: JSON.stringify({ values, integration, site: '' }),
      });
    },
    async checkpoint(handle, body, headers = {}) {
      const { token, cookie } = await browser();
      const meta = { ...(await svc.meta(handle)), ...((body['meta'] as object | undefined) ?? {}) };
      return svc.app.inject({
        method: 'POST',
        url: `/svc/api/forms/${handle}/payments/stripe/checkpoint`,
        headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie, ...headers },
        payload: JSON.stringify({ intent: 'submit', context: {}, ...body, meta }),
      });
    },
    callback(query) {
      return svc.app.inject({ method: 'GET', url: `/svc/payments/stripe/callback?${new URLSearchParams(query).toString()}` });
    },
    async submissionCount(handle) {
      const form = svc.context.forms.get(handle);
      if (!form) throw new Error(`no form ${handle}`);
      const row = await svc.context.database.db
        .selectFrom('svc_submissions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('form_id', '=', form.id)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async close() {
      await svc.close();
      await double.close();
    },
  };
}
