/**
 * A payment's status from its whole event log (issue #12, FormSG's design): events are ordered by
 * the gateway's time and, within one second, by lifecycle, and nothing before `succeeded` can
 * follow it. Replayed or out-of-order deliveries therefore cannot move a status backwards.
 */
import { PAYMENT_STATUSES, type PaymentStatus } from './payment-gateway.js';

const RANK: ReadonlyMap<PaymentStatus, number> = new Map(PAYMENT_STATUSES.map((status, index) => [status, index]));
const SUCCEEDED = RANK.get('succeeded') as number;

export interface LoggedStatus {
  readonly status: string;
  readonly occurredAt: number;
  readonly amountRefunded: number;
}

function rankOf(status: string): number {
  return RANK.get(status as PaymentStatus) ?? 0;
}

export function foldStatus(initial: PaymentStatus, events: readonly LoggedStatus[]): { status: PaymentStatus; amountRefunded: number } {
  const ordered = [...events].sort((a, b) => a.occurredAt - b.occurredAt || rankOf(a.status) - rankOf(b.status));
  let status: PaymentStatus = initial;
  let amountRefunded = 0;
  for (const event of ordered) {
    const rank = rankOf(event.status);
    // A paid intent is paid: a stale "requires action" or "failed" seen later is history.
    if (rankOf(status) >= SUCCEEDED && rank < SUCCEEDED) continue;
    status = event.status as PaymentStatus;
    amountRefunded = Math.max(amountRefunded, event.amountRefunded);
  }
  return { status, amountRefunded };
}
