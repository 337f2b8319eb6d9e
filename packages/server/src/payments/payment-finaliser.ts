/**
 * Turning a paid intent's checkpoint into exactly one submission (contract §8, issue #12). The
 * webhook, the return callback and the reconcile job all come through `finalisePayment`; the
 * payment's claim runs in the submission's transaction, so whichever arrives second stores nothing.
 */
import { currencyFactor } from '@svc/core';
import { storePaidSubmission } from '../submissions/submission-persist.js';
import { heldJourney } from '../submissions/submit-trace.js';
import type { GatewayEvent, GatewayIntent, PaymentStatus } from './payment-gateway.js';
import { formatMajor, gatewayOf, type PaymentContext } from './payment-context.js';
import { openCheckpoint } from './payment-checkpoint.js';
import { claimPayment, deleteCheckpoint, eventsOf, findCheckpoint, findPayment, lockPayment, recordEvent, setPaymentStatus, type PaymentRow } from './payment-repository.js';
import { foldStatus } from './payment-status.js';

export type FinaliseOutcome =
  | { readonly kind: 'finalised'; readonly payment: PaymentRow; readonly submissionUid: string | null }
  | { readonly kind: 'done'; readonly payment: PaymentRow }
  | { readonly kind: 'pending'; readonly payment: PaymentRow; readonly status: PaymentStatus }
  | { readonly kind: 'failed'; readonly payment: PaymentRow; readonly status: PaymentStatus; readonly reason: string }
  | { readonly kind: 'no_checkpoint'; readonly payment: PaymentRow }
  | { readonly kind: 'unverified'; readonly payment: PaymentRow }
  | { readonly kind: 'unknown' };

/** Thrown inside the transaction when another finaliser got there first: it rolls everything back. */
class AlreadyFinalised extends Error {}

const SUCCEEDED_OR_LATER: ReadonlySet<PaymentStatus> = new Set(['succeeded', 'partially_refunded', 'refunded', 'disputed']);

/**
 * `known` is the intent as a verified webhook carried it; without it the gateway is asked, so a
 * callback's query string (which anyone can type) never decides anything.
 */
export async function finalisePayment(ctx: PaymentContext, intentId: string, known?: GatewayIntent): Promise<FinaliseOutcome> {
  const payment = await findPayment(ctx.db, intentId);
  if (!payment) return { kind: 'unknown' };
  if (payment.finalisedAt !== null) return { kind: 'done', payment };
  const intent = known ?? (await gatewayOf(ctx).retrieveIntent(intentId));
  if (!intent) return { kind: 'unverified', payment };
  if (intent.status !== 'succeeded') {
    if (intent.status === 'processing' || intent.status === 'requires_action') return { kind: 'pending', payment, status: intent.status };
    return { kind: 'failed', payment, status: intent.status, reason: intent.failureMessage ?? (intent.status === 'canceled' ? 'The payment was cancelled.' : 'The payment did not go through.') };
  }
  const stored = await findCheckpoint(ctx.db, intentId);
  const checkpoint = stored ? openCheckpoint(ctx, intentId, stored.sealed) : null;
  if (!checkpoint) {
    // Another finaliser may have stored it and dropped the checkpoint since we looked.
    const now = await findPayment(ctx.db, intentId);
    if (now?.finalisedAt) return { kind: 'done', payment: now };
    // Paid with nothing to store: the checkpoint expired or was never made. Loud, never silent.
    ctx.log.error({ intentId, formId: payment.formId }, 'a succeeded payment has no checkpoint; no submission was made');
    return { kind: 'no_checkpoint', payment };
  }
  const form = ctx.forms.list().find((f) => f.uid === checkpoint.formUid);
  if (!form || intent.metadata['integration'] !== checkpoint.integration || intent.amount !== checkpoint.amount || intent.currency !== checkpoint.currency) {
    ctx.log.error({ intentId }, 'a succeeded payment does not match its checkpoint; no submission was made');
    return { kind: 'unverified', payment };
  }
  const status: PaymentStatus = SUCCEEDED_OR_LATER.has(payment.status) ? payment.status : 'succeeded';
  const at = ctx.now().toISOString();
  try {
    const submission = await storePaidSubmission(ctx.submit, form, checkpoint.prepared, {
      summary: {
        gateway: payment.gateway,
        intentId,
        amount: intent.amount,
        amountFormatted: formatMajor(intent.amount, currencyFactor(intent.currency)),
        currency: intent.currency,
        status,
      },
      claim: async (trx, submissionId) => {
        if (!(await claimPayment(trx, intentId, submissionId, at))) throw new AlreadyFinalised();
      },
    });
    await deleteCheckpoint(ctx.db, intentId);
    // issue #38: the journey that led to the payment completes in insights (spam flagged at the checkpoint does not).
    if (submission && checkpoint.prepared.spamReasons.length === 0) {
      ctx.submit.steps?.paid?.({ form, site: checkpoint.prepared.site ?? null, journey: checkpoint.journey ?? heldJourney(form, null), at: ctx.now() });
    }
    const done = (await findPayment(ctx.db, intentId)) as PaymentRow;
    return { kind: 'finalised', payment: done, submissionUid: submission?.uid ?? null };
  } catch (error) {
    if (!(error instanceof AlreadyFinalised)) throw error;
    return { kind: 'done', payment: (await findPayment(ctx.db, intentId)) as PaymentRow };
  }
}

/**
 * One verified gateway event: logged once, the status recomputed from the whole log, and a
 * success finalised. Events of intents svc did not create are acknowledged and ignored.
 */
export async function handleGatewayEvent(ctx: PaymentContext, event: GatewayEvent): Promise<'ignored' | 'recorded' | 'replayed'> {
  if (!event.intentId || !event.status) return 'ignored';
  const payment = await findPayment(ctx.db, event.intentId);
  if (!payment) return 'ignored';
  const at = ctx.now().toISOString();
  const intentId = event.intentId;
  const status = event.status;
  // One transaction per event, the payment row locked first: two events of one payment arriving
  // together each fold a log that holds the other's, and the last write is the whole story.
  const fresh = await ctx.db.transaction().execute(async (trx) => {
    const locked = (await lockPayment(trx, intentId, ctx.dialect)) ?? payment;
    const recorded = await recordEvent(trx, { eventId: event.id, intentId, type: event.type, status, amountRefunded: event.amountRefunded, occurredAt: event.occurredAt, at });
    // The row's own status stands for what svc saw before any event (creation, or a finalisation).
    const base = SUCCEEDED_OR_LATER.has(locked.status) ? 'succeeded' : 'requires_payment_method';
    const folded = foldStatus(base, await eventsOf(trx, intentId));
    await setPaymentStatus(trx, intentId, folded.status, folded.amountRefunded, at);
    return recorded;
  });
  // A replay still finishes a success an earlier delivery could not (e.g. the server stopped).
  if (event.status === 'succeeded' && event.intent) await finalisePayment(ctx, event.intentId, event.intent);
  return fresh ? 'recorded' : 'replayed';
}
