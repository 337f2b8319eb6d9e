/**
 * The payments room (issue #12): its services for the composition root and its one plugin entry.
 * Without Stripe keys the routes answer 503 PAYMENTS_NOT_CONFIGURED, except in the demo, which
 * runs the project's own offline Stripe double (clearly labelled) so the flow can be tried offline.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config-schema.js';
import type { Database } from '../storage/database-schema.js';
import type { DialectName } from '../storage/database-factory.js';
import type { FormRegistry } from '../forms/form-registry.js';
import type { SubmitServices } from '../submissions/submit-pipeline.js';
import type { AppContext } from '../http/app-context.js';
import { deriveKey, randomToken } from '../security/token-crypto.js';
import { createIntegrationTokens } from './payment-integration-token.js';
import { createStripeGateway } from './stripe-gateway.js';
import type { PaymentContext } from './payment-context.js';
import type { PaymentManifestOptions } from './payment-manifest.js';
import { paymentRoutes } from './payment-routes.js';
import { startReconcileJob } from './payment-reconcile.js';
import { PAYMENT_ROUTES } from './payment-manifest.js';
import { demoOutcomePage } from '../demo/demo-outcome-page.js';

export interface PaymentServices {
  readonly context: PaymentContext;
  readonly manifest: PaymentManifestOptions;
  /** The offline double's base URL when the demo runs one. */
  readonly doubleUrl: string | null;
  /** Points the demo double's webhooks at this server once it listens. */
  onListen(port: number): void;
  close(): Promise<void>;
}

interface Deps {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  readonly forms: FormRegistry;
  readonly submit: SubmitServices;
  readonly secret: string;
  readonly now: () => Date;
  readonly log: FastifyBaseLogger;
}

export async function createPaymentServices(config: Config, deps: Deps): Promise<PaymentServices> {
  const stripe = config.payments.stripe;
  let keys = stripe.secretKey && stripe.webhookSecret ? { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, publishableKey: stripe.publishableKey, apiUrl: stripe.apiUrl, jsUrl: stripe.jsUrl } : null;
  let double: Awaited<ReturnType<typeof import('./stripe-double/stripe-double-server.js')['startStripeDouble']>> | null = null;
  if (!keys && config.demo) {
    const { startStripeDouble } = await import('./stripe-double/stripe-double-server.js');
    double = await startStripeDouble();
    deps.log.warn({ double: double.url }, 'no Stripe keys: payments run against the offline Stripe test double; no real card is charged');
    // issue #31: a configured signing secret is the double's too, so an owner can try their own
    // webhook verification offline; without one the demo makes one up for this run.
    keys = { secretKey: double.secretKey, webhookSecret: stripe.webhookSecret ?? `whsec_${randomToken(24)}`, publishableKey: double.publishableKey, apiUrl: double.url, jsUrl: double.jsUrl };
  }
  const tokens = createIntegrationTokens(deps.secret);
  const context: PaymentContext = {
    db: deps.db,
    dialect: deps.dialect,
    gateway: keys ? createStripeGateway({ ...keys, timeoutMs: stripe.timeoutMs }) : null,
    forms: deps.forms,
    tokens,
    sealKey: deriveKey(deps.secret, 'payment-checkpoint'),
    submit: deps.submit,
    checkpointTtlHours: config.payments.checkpointTtlHours,
    cancelUnpaidAfterHours: config.payments.cancelUnpaidAfterHours,
    now: deps.now,
    log: deps.log,
    // The demo's payer lands on a page in the demo's look, with a way back to the form (issue #31).
    ...(config.demo ? { outcomePage: demoOutcomePage } : {}),
  };
  const webhookSecret = keys?.webhookSecret ?? null;
  return {
    context,
    manifest: {
      publishableKey: keys?.publishableKey ?? null,
      jsUrl: keys?.jsUrl ?? stripe.jsUrl,
      integration: (form, field) => tokens.sign({ formUid: form.uid, fieldUid: field.uid }),
    },
    doubleUrl: double?.url ?? null,
    onListen(port) {
      if (double && webhookSecret) double.setWebhook({ url: `http://127.0.0.1:${port}${PAYMENT_ROUTES.webhook}`, secret: webhookSecret });
    },
    close: async () => {
      const closing = double;
      double = null;
      await closing?.close();
    },
  };
}

export async function registerPayments(app: FastifyInstance, ctx: AppContext, services: PaymentServices, config: Config): Promise<void> {
  await paymentRoutes(app, ctx, services.context);
  const job = startReconcileJob(services.context, config.payments.reconcileIntervalMinutes, app.log);
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (typeof address === 'object' && address) services.onListen(address.port);
  });
  app.addHook('onClose', async () => {
    job.stop();
    await services.close();
  });
}
