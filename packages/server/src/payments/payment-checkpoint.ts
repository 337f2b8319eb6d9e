/**
 * The checkpoint of contract §8: validate the whole form as a final submit without storing it,
 * make sure the intent is this form's and says what the server would charge, and keep the
 * validated submission sealed until the payment's webhook or callback stores it.
 */
import { SvcError, type Form } from '@svc/core';
import { openJson, sealJson } from '../security/token-crypto.js';
import { submitForm, type SubmitInput } from '../submissions/submit-pipeline.js';
import type { PreparedSubmission } from '../submissions/submission-persist.js';
import type { SubmitResult } from '../submissions/submit-response.js';
import { heldJourney, type HeldJourney } from '../submissions/submit-trace.js';
import type { MultiPageState } from '../submissions/state-token.js';
import { allIds, fileSlots } from '../submissions/submit-files.js';
import { withKeys } from '../submissions/object-shapes.js';
import { amountForStored, gatewayOf, resolveIntegration, type PaymentContext } from './payment-context.js';
import { findPayment, saveCheckpoint } from './payment-repository.js';
import { assertPaymentOwner } from './payment-intent-service.js';

/** What a checkpoint holds, sealed with the intent id as associated data. */
export interface SealedCheckpoint {
  readonly formUid: string;
  readonly fieldHandle: string;
  readonly integration: string;
  readonly amount: number;
  readonly currency: string;
  readonly prepared: PreparedSubmission;
  /** Where the journey stood (issue #38), so its paid submission completes it; absent in older checkpoints. */
  readonly journey?: HeldJourney;
}

/** A large form's values (signatures, tables) make a long seal; this bounds what is opened. */
const MAX_SEALED_CHARS = 8_000_000;

export function sealCheckpoint(ctx: Pick<PaymentContext, 'sealKey'>, intentId: string, value: SealedCheckpoint): string {
  return sealJson(ctx.sealKey, value, `checkpoint:${intentId}`);
}

export function openCheckpoint(ctx: Pick<PaymentContext, 'sealKey'>, intentId: string, sealed: string): SealedCheckpoint | null {
  return openJson(ctx.sealKey, sealed, `checkpoint:${intentId}`, MAX_SEALED_CHARS) as SealedCheckpoint | null;
}

export interface CheckpointInput extends Omit<SubmitInput, 'checkpoint' | 'wholeForm'> {
  readonly integration: unknown;
  readonly paymentIntentId: string;
}

/**
 * A refusal's message names the fields at fault: the official Stripe extension shows only
 * `errors.form[0]` or `message` of a refused checkpoint (contract §12), so "Please correct the
 * errors below" would point at nothing. svc's own clients show the field errors as well.
 */
function explained(form: Form, result: SubmitResult): SubmitResult {
  const { body } = result;
  const fields = Object.entries(body.errors.fields).filter(([, messages]) => messages.length > 0);
  if (body.status !== 'validation_failed' || body.errors.form.length > 0 || fields.length === 0) return result;
  const listed = fields.map(([handle, messages]) => `${form.fieldsByHandle.get(handle)?.label ?? handle}: ${messages[0]}`);
  const message = [body.message, ...listed.map((line) => (/[.!?]$/.test(line) ? line : `${line}.`))].filter(Boolean).join(' ');
  return { ...result, body: { ...body, message } };
}

/** The state the final submit was answered on; the pipeline has opened the same token already. */
function stateOf(ctx: PaymentContext, form: Form, input: CheckpointInput, now: Date): MultiPageState | null {
  const token = input.request.context.stateToken;
  return token === undefined ? null : ctx.submit.stateTokens.open(token, form.uid, now.getTime());
}

/** The pipeline's answer: `validated` (checkpoint stored) or the submit object that refused it. */
export async function checkpointPayment(ctx: PaymentContext, form: Form, input: CheckpointInput): Promise<SubmitResult> {
  const { form: owner, field, token } = resolveIntegration(ctx, input.integration);
  if (owner.id !== form.id) throw new SvcError('PAYMENT_NOT_OWNED');
  const payment = await findPayment(ctx.db, input.paymentIntentId);
  if (!payment || payment.formId !== form.id || payment.fieldHandle !== field.handle) throw new SvcError('PAYMENT_NOT_OWNED');
  // Before anything is validated or asked of the gateway: another browser learns nothing here.
  assertPaymentOwner(payment, input.browser);
  if (payment.finalisedAt !== null) throw new SvcError('PAYMENT_UNVERIFIED', 'This payment is already complete.');
  const gateway = gatewayOf(ctx);
  // The payment field's value is its intent (the official extension sets it so); a client that
  // leaves it out is not refused for it, and one that names another intent does not decide it.
  // withKeys for the fixed-shape objects (object-shapes.ts); the values stay a spread: a record.
  const request = withKeys(input.request, { values: { ...input.request.values, [field.handle as string]: input.paymentIntentId } });
  const result = await submitForm(ctx.submit, form, withKeys(input, {
    request,
    checkpoint: async (prepared: PreparedSubmission) => {
      const computed = amountForStored(form, field, prepared.values);
      if (!computed.ok) throw new SvcError('PAYMENT_AMOUNT_INVALID', computed.message);
      const intent = await gateway.retrieveIntent(input.paymentIntentId);
      const matches =
        intent !== null &&
        intent.metadata['integration'] === token &&
        intent.amount === computed.minor &&
        intent.currency === computed.currency &&
        intent.status !== 'canceled';
      if (!matches) throw new SvcError('PAYMENT_UNVERIFIED');
      const now = ctx.now();
      const expiresAt = new Date(now.getTime() + ctx.checkpointTtlHours * 3_600_000);
      const sealed = sealCheckpoint(ctx, intent.id, {
        formUid: form.uid,
        fieldHandle: field.handle as string,
        integration: token,
        amount: intent.amount,
        currency: intent.currency,
        prepared,
        journey: heldJourney(form, stateOf(ctx, form, input, now)),
      });
      // Through the submit path's writer: on SQLite concurrent checkpoints share one commit.
      await ctx.submit.writes.run((trx) => saveCheckpoint(trx, { intentId: intent.id, formId: form.id, sealed, at: now.toISOString(), expiresAt: expiresAt.toISOString() }));
      // The files the submission names wait for the payment as long as the checkpoint does.
      await ctx.submit.uploads.hold(form, allIds(fileSlots(form, prepared.values)), expiresAt);
    },
  }));
  return explained(form, result);
}
