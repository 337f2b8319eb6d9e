/**
 * The payment routes of contract §8 and interface.md §4.5, shaped as the official Stripe extension
 * calls them (contract §12): intent create and amount update (`FF-STRIPE-INTEGRATION` header or
 * `integration` body key), the checkpoint, the signed webhook and the return callback.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SvcError } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { resolveHeadlessForm } from '../http/form-access.js';
import { readCookie } from '../http/cookie-reader.js';
import { createCsrfGate } from '../http/multipart-support.js';
import { withLimit } from '../http/rate-limit-hooks.js';
import { preflightHandler } from '../http/cors-hooks.js';
import { readBrowserBinding } from '../security/browser-binding.js';
import { parseSubmitRequest } from '../submissions/submit-request.js';
import { siteOfQuery } from '../sites/site-registry.js';
import { SERVICE_VERSION } from '../version.js';
import { gatewayOf, resolveIntegration, type PaymentContext } from './payment-context.js';
import { checkpointPayment } from './payment-checkpoint.js';
import { createPaymentIntent, intentIdOf, updatePaymentIntentAmount } from './payment-intent-service.js';
import { handleGatewayEvent } from './payment-finaliser.js';
import { PAYMENT_ROUTES } from './payment-manifest.js';
import { WebhookEventInvalidError, WebhookSignatureError } from './payment-gateway.js';
import { answerCallback } from './payment-callback.js';
import { paymentAmountSchema, paymentCallbackSchema, paymentCheckpointSchema, paymentIntentSchema, paymentWebhookSchema } from './payment-schemas.js';

const WEBHOOK_BODY_LIMIT = 1024 * 1024;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{values, integration, site}` of the intent routes; the header names the integration too. */
function intentBody(request: FastifyRequest): { values: Record<string, unknown>; integration: unknown } {
  const body = request.body ?? {};
  if (!isRecord(body)) throw new SvcError('PAYLOAD_INVALID', 'The body must be a JSON object.');
  const values = body['values'] ?? {};
  if (!isRecord(values)) throw new SvcError('PAYLOAD_INVALID', '`values` must be an object.');
  const header = request.headers['ff-stripe-integration'];
  return { values, integration: body['integration'] ?? (Array.isArray(header) ? header[0] : header) };
}

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(key)) throw new SvcError('PAYLOAD_INVALID', 'Idempotency-Key must be 1-200 printable characters.');
  return key;
}

export async function paymentRoutes(app: FastifyInstance, ctx: AppContext, payments: PaymentContext): Promise<void> {
  const limited = withLimit(ctx.guard, ctx.limits.submit);
  const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');
  // The intents are not under a form's path: the integration names the form, so any allowed origin may ask.
  for (const [url, scope] of [[PAYMENT_ROUTES.intents, 'all'], ['/svc/payments/stripe/payment-intents/:id/amount', 'all'], ['/svc/api/forms/:handle/payments/stripe/checkpoint', 'form']] as const) {
    app.options(url, { config: { cors: scope }, onRequest: ctx.guard }, preflightHandler(ctx.cors));
  }

  app.post(PAYMENT_ROUTES.intents, { config: { cors: 'all' }, onRequest: limited, schema: paymentIntentSchema }, async (request, reply) => {
    createCsrfGate(ctx, request).require();
    const { values, integration } = intentBody(request);
    resolveHeadlessForm(ctx, resolveIntegration(payments, integration).form.handle, 'submit');
    const idempotencyKey = idempotencyKeyOf(request);
    // The intent belongs to this browser (its binding cookie, which CSRF already asked for).
    const browser = readBrowserBinding(request, ctx.config.csrf);
    const intent = await createPaymentIntent(payments, { integration, values, ...(idempotencyKey ? { idempotencyKey } : {}), ...(browser ? { browser } : {}) });
    // Freeform answers 201 with `id` and `secret` at the top; the official extension reads them there.
    return noStore(reply).code(201).send({ success: true, ...intent });
  });

  app.post<{ Params: { id: string } }>('/svc/payments/stripe/payment-intents/:id/amount', { config: { cors: 'all' }, onRequest: limited, schema: paymentAmountSchema }, async (request, reply) => {
    createCsrfGate(ctx, request).require();
    const { values, integration } = intentBody(request);
    resolveHeadlessForm(ctx, resolveIntegration(payments, integration).form.handle, 'submit');
    const browser = readBrowserBinding(request, ctx.config.csrf);
    const updated = await updatePaymentIntentAmount(payments, { intentId: intentIdOf(request.params.id), integration, values, ...(browser ? { browser } : {}) });
    // No `client_secret`: to the official extension one means "re-enter the card".
    return noStore(reply).send({ success: true, ...updated });
  });

  app.post<{ Params: { handle: string } }>(
    '/svc/api/forms/:handle/payments/stripe/checkpoint',
    { config: { cors: 'form' }, onRequest: limited, schema: paymentCheckpointSchema },
    async (request, reply) => {
      const headless = resolveHeadlessForm(ctx, request.params.handle, 'submit');
      const body = request.body;
      if (!isRecord(body)) throw new SvcError('PAYLOAD_INVALID', 'The body must be a JSON object.');
      const { integration, paymentIntentId, intent, ...rest } = body;
      if (intent !== undefined && intent !== 'submit') throw new SvcError('INTENT_UNSUPPORTED', 'A payment checkpoint is a final submit: intent must be submit.');
      const submitRequest = parseSubmitRequest({ ...rest, intent: 'submit' });
      // issue #34: the site as a submit names it (`context.site`, then `?site=`), validated in its
      // language and recorded with the submission the payment stores; the landing page reads it.
      const site = ctx.sites.resolve(submitRequest.context.site ?? siteOfQuery(request.query));
      const form = ctx.localize(headless, site.language);
      const token = request.headers['x-csrf-token'];
      const browser = readBrowserBinding(request, ctx.config.csrf);
      const idempotencyKey = idempotencyKeyOf(request);
      const result = await checkpointPayment(payments, form, {
        request: submitRequest,
        site,
        csrf: { binding: readCookie(request, ctx.config.csrf.cookieName), token: Array.isArray(token) ? token[0] : token },
        ip: request.ip,
        integration,
        paymentIntentId: intentIdOf(paymentIntentId),
        ...(idempotencyKey ? { idempotencyKey } : {}),
        ...(browser ? { browser } : {}),
      });
      noStore(reply);
      if (result.body.status !== 'validated') return reply.code(result.httpStatus).send(result.body);
      return reply.send({ success: true, data: { paymentIntentId }, meta: { pluginVersion: SERVICE_VERSION } });
    },
  );

  app.get('/svc/payments/stripe/callback', { schema: paymentCallbackSchema }, async (request, reply) => answerCallback(payments, ctx, request, reply));

  // Stripe signs the exact bytes it sent: this scope keeps the body raw instead of parsing it.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post(PAYMENT_ROUTES.webhook, { schema: paymentWebhookSchema }, async (request, reply) => {
      reply.header('X-Request-Id', request.id);
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      let event;
      try {
        event = gatewayOf(payments).parseWebhook(raw, Array.isArray(signature) ? signature[0] : signature);
      } catch (error) {
        if (error instanceof WebhookSignatureError) throw new SvcError('WEBHOOK_SIGNATURE_INVALID');
        // Authentic but unreadable: a 400 Stripe shows on its dashboard, where a 500 would be
        // retried for days; the log says what was wrong with it.
        if (error instanceof WebhookEventInvalidError) {
          request.log.warn({ reason: error.message }, 'stripe webhook: signed event is malformed; nothing stored');
          throw new SvcError('PAYLOAD_INVALID', `The webhook event is malformed: ${error.message}.`);
        }
        throw error;
      }
      // Every authentic event gets a 2xx, handled or not, or the gateway disables the endpoint.
      const handled = await handleGatewayEvent(payments, event);
      return reply.send({ received: true, handled });
    });
  });
}
