/** What the payment services share (issue #12): storage, the gateway port, the forms, the clock. */
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { computePaymentAmount, computeVisibility, SvcError, type Field, type Form, type PaymentAmount, type PaymentField, type Values } from '@svc/core';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { DialectName } from '../storage/database-factory.js';
import type { Site } from '../sites/site-registry.js';
import type { FormRegistry } from '../forms/form-registry.js';
import type { SubmitServices } from '../submissions/submit-pipeline.js';
import { normaliseAll } from '../submissions/submit-steps.js';
import type { PaymentGateway } from './payment-gateway.js';
import type { IntegrationTokens } from './payment-integration-token.js';
import { paymentFieldOf } from './payment-manifest.js';

export interface PaymentContext {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /** Null when no gateway is configured: the routes answer 503 PAYMENTS_NOT_CONFIGURED. */
  readonly gateway: PaymentGateway | null;
  readonly forms: FormRegistry;
  readonly tokens: IntegrationTokens;
  /** Key of the sealed checkpoints. */
  readonly sealKey: Buffer;
  readonly submit: SubmitServices;
  readonly checkpointTtlHours: number;
  readonly cancelUnpaidAfterHours: number;
  readonly now: () => Date;
  readonly log: FastifyBaseLogger;
  /**
   * The callback's own outcome page, for a form that names no URL to send the payer to: svc's
   * plain page by default, the demo's look when svc runs as the demo (issue #31). `form` is the
   * site's translation and `site` the payment's (issue #34); the title and lines are in its language.
   */
  readonly outcomePage?: (reply: FastifyReply, status: number, title: string, lines: readonly string[], form: Form, site: Site) => FastifyReply;
}

export type PaidField = Field & PaymentField;

export function gatewayOf(ctx: PaymentContext): PaymentGateway {
  if (!ctx.gateway) throw new SvcError('PAYMENTS_NOT_CONFIGURED');
  return ctx.gateway;
}

/** The form and payment field an integration token names; PAYMENT_NOT_OWNED for anything else. */
export function resolveIntegration(ctx: PaymentContext, token: unknown): { form: Form; field: PaidField; token: string } {
  const target = ctx.tokens.verify(token);
  const form = target ? ctx.forms.list().find((f) => f.uid === target.formUid) : undefined;
  const field = form ? paymentFieldOf(form) : null;
  if (!target || !form || !field || field.uid !== target.fieldUid) throw new SvcError('PAYMENT_NOT_OWNED');
  return { form, field, token: token as string };
}

/** The amount of `field` for raw (posted) values, computed as the server will charge it. */
export function amountForRaw(form: Form, field: PaidField, raw: Readonly<Record<string, unknown>>): PaymentAmount {
  const normalised = normaliseAll(form, { ...raw });
  return computePaymentAmount(form, field, normalised, computeVisibility(form, normalised));
}

/** The amount for stored values: only visible fields were stored, so every field present counts. */
export function amountForStored(form: Form, field: PaidField, values: Values): PaymentAmount {
  return computePaymentAmount(form, field, values, { hiddenFields: new Set() });
}

/** `12.50` for 1250 minor units of `usd`, `1250` of `jpy`. */
export function formatMajor(minor: number, factor: number): string {
  return factor === 1 ? String(minor) : (minor / factor).toFixed(2);
}
