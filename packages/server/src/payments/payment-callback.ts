/**
 * `GET /svc/payments/stripe/callback`: where the payer's browser lands after paying, with or
 * without a 3-D Secure redirect. It finishes the payment as the webhook would (contract §8), then
 * sends the payer to the field's success or failure URL. The query only names the intent; what
 * happened is always asked of the gateway.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SvcError, type Form } from '@svc/core';
import { resolveIntegration, type PaidField, type PaymentContext } from './payment-context.js';
import { finalisePayment, type FinaliseOutcome } from './payment-finaliser.js';
import { isIntentId } from './payment-intent-service.js';
import { plainPage } from '../http/html-page.js';

function first(value: unknown): string | undefined {
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function withQuery(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
  return target.toString();
}

function outcomePage(ctx: PaymentContext, reply: FastifyReply, status: number, title: string, lines: readonly string[], form: Form): FastifyReply {
  return ctx.outcomePage ? ctx.outcomePage(reply, status, title, lines, form) : plainPage(reply, status, title, lines);
}

function succeed(ctx: PaymentContext, reply: FastifyReply, form: Form, field: PaidField, intentId: string, status: string): FastifyReply {
  const url = field.successUrl ?? form.settings.returnUrl;
  if (url) return reply.redirect(withQuery(url, { payment_intent: intentId, payment_status: status }), 303);
  const message = status === 'succeeded' ? form.settings.successMessage : 'Your payment is being processed; your submission is stored once it completes.';
  return outcomePage(ctx, reply, 200, 'Thank you', [message], form);
}

function fail(ctx: PaymentContext, reply: FastifyReply, form: Form, field: PaidField, intentId: string, reason: string): FastifyReply {
  const url = field.failureUrl ?? null;
  if (url) return reply.redirect(withQuery(url, { payment_intent: intentId, payment_status: 'failed', reason }), 303);
  return outcomePage(ctx, reply, 402, 'Payment not completed', [`${reason} Nothing was submitted; please go back to the form and try again.`], form);
}

export async function answerCallback(ctx: PaymentContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  reply.header('X-Request-Id', request.id).header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
  const query = (request.query ?? {}) as Record<string, unknown>;
  // The official extension sends `stripe_token` (older Freeform `token`); Stripe adds `payment_intent`.
  const intentId = first(query['payment_intent']) ?? first(query['stripe_token']) ?? first(query['token']);
  if (!isIntentId(intentId)) throw new SvcError('PAYLOAD_INVALID', 'The callback names no payment intent.');
  const { form, field } = resolveIntegration(ctx, first(query['integration']));
  const outcome: FinaliseOutcome = await finalisePayment(ctx, intentId);
  if (outcome.kind === 'unknown' || (outcome.kind !== 'unverified' && outcome.payment.formId !== form.id)) throw new SvcError('PAYMENT_NOT_OWNED');
  switch (outcome.kind) {
    case 'finalised':
    case 'done':
      return succeed(ctx, reply, form, field, intentId, 'succeeded');
    case 'pending':
      return succeed(ctx, reply, form, field, intentId, outcome.status);
    case 'failed':
      return fail(ctx, reply, form, field, intentId, outcome.reason);
    case 'no_checkpoint':
      return fail(ctx, reply, form, field, intentId, 'The payment could not be matched to a submission; please contact the site owner.');
    case 'unverified':
      throw new SvcError('PAYMENT_UNVERIFIED');
  }
}
