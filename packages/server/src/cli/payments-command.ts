/**
 * `svc payments reconcile [--since DATE|HOURSh]`: finish paid intents whose webhook and callback
 * were lost, cancel intents nobody paid, drop expired checkpoints, and say what was done
 * (issue #12). The server runs the same every `payments.reconcileIntervalMinutes`.
 */
import { SvcError } from '@svc/core';
import { buildApp } from '../app.js';
import { reconcilePayments } from '../payments/payment-reconcile.js';
import { commandConfig, type CommandOptions } from './command-options.js';

/** `48h` (hours back) or an ISO date; default: as far back as a checkpoint lives, plus an hour. */
export function parseSince(value: string | undefined, now: Date, defaultHours: number): Date {
  if (value === undefined) return new Date(now.getTime() - defaultHours * 3_600_000);
  const hours = /^(\d{1,5})h$/.exec(value);
  if (hours) return new Date(now.getTime() - Number(hours[1]) * 3_600_000);
  const date = /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new SvcError('PAYLOAD_INVALID', `--since: "${value}" is neither a date (2026-11-24) nor hours back (48h)`);
  return date;
}

export async function runPaymentsReconcile(options: CommandOptions & { since?: string }): Promise<number> {
  const config = commandConfig(options);
  const since = parseSince(options.since, new Date(), config.payments.checkpointTtlHours + 1);
  const svc = await buildApp(config, { logger: false });
  try {
    const report = await reconcilePayments(svc.context.payments, { since });
    process.stdout.write(
      `Checked ${report.checked} intent(s) since ${since.toISOString()}: ${report.finalised} paid intent(s) finished as submissions, ` +
        `${report.alreadyDone} already had theirs, ${report.withoutCheckpoint} paid without a checkpoint (see the log), ` +
        `${report.cancelled} unpaid intent(s) cancelled, ${report.expiredCheckpoints} expired checkpoint(s) dropped.\n`,
    );
    return 0;
  } finally {
    await svc.close();
  }
}
