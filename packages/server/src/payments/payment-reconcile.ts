/**
 * `svc payments reconcile` and its hourly job (issue #12): a respondent who paid is never left
 * without a submission because a webhook was lost and the tab was closed. The job also cancels
 * intents nobody paid (so no half-made payment can be completed days later) and drops expired
 * checkpoints.
 */
import type { FastifyBaseLogger } from 'fastify';
import { gatewayOf, type PaymentContext } from './payment-context.js';
import { finalisePayment } from './payment-finaliser.js';
import { GatewayRefusedError } from './payment-gateway.js';
import { deleteExpiredCheckpoints, setPaymentStatus, staleUnpaid } from './payment-repository.js';

export interface ReconcileReport {
  /** Intents the gateway listed. */
  readonly checked: number;
  /** Paid intents turned into submissions now. */
  readonly finalised: number;
  /** Paid intents that already had their submission. */
  readonly alreadyDone: number;
  /** Paid intents svc created but holds no checkpoint for (nothing to store: said loudly). */
  readonly withoutCheckpoint: number;
  /** Unpaid intents cancelled at the gateway. */
  readonly cancelled: number;
  readonly expiredCheckpoints: number;
}

const CANCEL_BATCH = 100;

export async function reconcilePayments(ctx: PaymentContext, options: { since: Date }): Promise<ReconcileReport> {
  const gateway = gatewayOf(ctx);
  let checked = 0;
  let finalised = 0;
  let alreadyDone = 0;
  let withoutCheckpoint = 0;
  for await (const intent of gateway.listIntents(Math.floor(options.since.getTime() / 1000))) {
    checked += 1;
    if (intent.status !== 'succeeded') continue;
    const outcome = await finalisePayment(ctx, intent.id, intent);
    if (outcome.kind === 'finalised') finalised += 1;
    else if (outcome.kind === 'done') alreadyDone += 1;
    else if (outcome.kind === 'no_checkpoint') withoutCheckpoint += 1;
  }
  const cancelled = await cancelUnpaid(ctx);
  const expiredCheckpoints = await deleteExpiredCheckpoints(ctx.db, ctx.now().toISOString());
  return { checked, finalised, alreadyDone, withoutCheckpoint, cancelled, expiredCheckpoints };
}

async function cancelUnpaid(ctx: PaymentContext): Promise<number> {
  const gateway = gatewayOf(ctx);
  const before = new Date(ctx.now().getTime() - ctx.cancelUnpaidAfterHours * 3_600_000).toISOString();
  let cancelled = 0;
  for (const payment of await staleUnpaid(ctx.db, before, CANCEL_BATCH)) {
    try {
      const intent = await gateway.cancelIntent(payment.intentId);
      await setPaymentStatus(ctx.db, payment.intentId, intent.status, payment.amountRefunded, ctx.now().toISOString());
      cancelled += 1;
    } catch (error) {
      if (!(error instanceof GatewayRefusedError)) throw error;
      // Paid or cancelled in the meantime: learn which, and finish it if it was paid.
      const outcome = await finalisePayment(ctx, payment.intentId);
      // Record what the gateway says it is, so the next run does not ask again.
      if (outcome.kind === 'failed' || outcome.kind === 'pending') {
        await setPaymentStatus(ctx.db, payment.intentId, outcome.status, payment.amountRefunded, ctx.now().toISOString());
      }
    }
  }
  return cancelled;
}

export function startReconcileJob(ctx: PaymentContext, intervalMinutes: number, log: FastifyBaseLogger): { stop(): void } {
  if (intervalMinutes === 0 || !ctx.gateway) return { stop: () => undefined };
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    // Everything a live checkpoint could still be waiting for, with an hour to spare.
    const since = new Date(ctx.now().getTime() - (ctx.checkpointTtlHours + 1) * 3_600_000);
    reconcilePayments(ctx, { since })
      .then(
        (report) => {
          if (report.finalised + report.cancelled + report.withoutCheckpoint > 0) log.info(report, 'payments reconciled');
        },
        (error: unknown) => log.error({ err: error }, 'payment reconcile failed; will retry'),
      )
      .finally(() => {
        running = false;
      });
  };
  const timer = setInterval(run, intervalMinutes * 60_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
