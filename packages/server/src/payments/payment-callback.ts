/**
 * `GET /svc/payments/stripe/callback`: where the payer's browser lands after paying, with or
 * without a 3-D Secure redirect. It finishes the payment as the webhook would (contract §8), then
 * sends the payer to the field's success or failure URL. The query only names the intent; what
 * happened is always asked of the gateway. A form that names no URL gets svc's own page, in the
 * language of the payment's site (issue #34 item 4: payment-site.ts), words from the pages'
 * catalogue; an English site's page is the one svc always drew.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SvcError, formatPageMessage, resolveLanguage, type Form } from '@svc/core';
import { resolveIntegration, type PaidField, type PaymentContext } from './payment-context.js';
import { finalisePayment, type FinaliseOutcome } from './payment-finaliser.js';
import { isIntentId } from './payment-intent-service.js';
import { callbackSite } from './payment-site.js';
import type { PaymentStatus } from './payment-gateway.js';
import { plainPage } from '../http/html-page.js';
import { pageLanguage } from '../http/page-language.js';
import type { FormLocalizer } from '../forms/form-translations.js';
import type { Site, SiteRegistry } from '../sites/site-registry.js';

/** What the callback needs of the app beyond the payment services: the sites and their forms. */
export interface CallbackSites {
  readonly sites: SiteRegistry;
  readonly localize: FormLocalizer;
}

/** The outcome page's form (the site's translation) and site. */
interface Landing {
  readonly form: Form;
  readonly site: Site;
}

function first(value: unknown): string | undefined {
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function withQuery(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
  return target.toString();
}

function outcomePage(ctx: PaymentContext, reply: FastifyReply, status: number, title: string, lines: readonly string[], landing: Landing): FastifyReply {
  if (ctx.outcomePage) return ctx.outcomePage(reply, status, title, lines, landing.form, landing.site);
  return plainPage(reply, status, title, lines, pageLanguage(landing.site.language));
}

function succeed(ctx: PaymentContext, reply: FastifyReply, landing: Landing, field: PaidField, intentId: string, status: string): FastifyReply {
  const { form, site } = landing;
  const url = field.successUrl ?? form.settings.returnUrl;
  if (url) return reply.redirect(withQuery(url, { payment_intent: intentId, payment_status: status }), 303);
  const message = status === 'succeeded' ? form.settings.successMessage : formatPageMessage(site.language, 'payment.processing');
  return outcomePage(ctx, reply, 200, formatPageMessage(site.language, 'page.thankYou'), [message], landing);
}

/**
 * Why the payment failed, for the payer: the gateway's own words (English) on an English site, the
 * catalogue's on any other, so a page never mixes two languages.
 */
function failureReason(language: string, reason: string, status: PaymentStatus | null): string {
  if (resolveLanguage(language) === 'en') return reason;
  if (status === null) return formatPageMessage(language, 'payment.unmatched');
  return formatPageMessage(language, status === 'canceled' ? 'payment.cancelled' : 'payment.notThrough');
}

/** `reason` goes to a failure URL as it always did; the page words it in the site's language. */
function fail(ctx: PaymentContext, reply: FastifyReply, landing: Landing, field: PaidField, intentId: string, reason: string, status: PaymentStatus | null): FastifyReply {
  const url = field.failureUrl ?? null;
  if (url) return reply.redirect(withQuery(url, { payment_intent: intentId, payment_status: 'failed', reason }), 303);
  const language = landing.site.language;
  const words = formatPageMessage(language, 'payment.tryAgain', { reason: failureReason(language, reason, status) });
  return outcomePage(ctx, reply, 402, formatPageMessage(language, 'payment.notCompleted'), [words], landing);
}

export async function answerCallback(ctx: PaymentContext, app: CallbackSites, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  reply.header('X-Request-Id', request.id).header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
  const query = (request.query ?? {}) as Record<string, unknown>;
  // The official extension sends `stripe_token` (older Freeform `token`); Stripe adds `payment_intent`.
  const intentId = first(query['payment_intent']) ?? first(query['stripe_token']) ?? first(query['token']);
  if (!isIntentId(intentId)) throw new SvcError('PAYLOAD_INVALID', 'The callback names no payment intent.');
  const { form, field } = resolveIntegration(ctx, first(query['integration']));
  const outcome: FinaliseOutcome = await finalisePayment(ctx, intentId);
  if (outcome.kind === 'unknown' || (outcome.kind !== 'unverified' && outcome.payment.formId !== form.id)) throw new SvcError('PAYMENT_NOT_OWNED');
  if (outcome.kind === 'unverified') throw new SvcError('PAYMENT_UNVERIFIED');
  const site = await callbackSite(ctx, app.sites, request, outcome.payment);
  const landing: Landing = { form: app.localize(form, site.language), site };
  switch (outcome.kind) {
    case 'finalised':
    case 'done':
      return succeed(ctx, reply, landing, field, intentId, 'succeeded');
    case 'pending':
      return succeed(ctx, reply, landing, field, intentId, outcome.status);
    case 'failed':
      return fail(ctx, reply, landing, field, intentId, outcome.reason, outcome.status);
    case 'no_checkpoint':
      return fail(ctx, reply, landing, field, intentId, formatPageMessage(null, 'payment.unmatched'), null);
  }
}
