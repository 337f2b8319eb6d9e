/** What the outbox holds (issue #5): one delivery job per notification, webhook, extra POST or list opt-in. */

export type DeliveryKind = 'email' | 'webhook' | 'extraPost' | 'mailingList';
export type DeliveryStatus = 'pending' | 'delivered' | 'dead';

export type DeliveryTarget =
  | { readonly kind: 'email'; readonly template: string; readonly to: readonly string[]; readonly reason: 'admin' | 'user' | 'dynamic'; readonly field?: string }
  | { readonly kind: 'webhook'; readonly url: string }
  | { readonly kind: 'extraPost'; readonly url: string; readonly triggerPhrase: string | null }
  | { readonly kind: 'mailingList'; readonly field: string; readonly list: string; readonly email: string | null };

/** The submission as it was when the job was written: deliveries never depend on later edits. */
export interface DeliveryPayload {
  readonly form: { readonly id: number; readonly uid: string; readonly handle: string; readonly name: string };
  readonly submission: { readonly id: number | null; readonly uid: string; readonly title: string; readonly createdAt: string; readonly status: string };
  readonly values: Readonly<Record<string, unknown>>;
  /** Paid submissions only (issue #12): gateway, intentId, amount (minor units), amountFormatted, currency, status. */
  readonly payment?: { readonly gateway: string; readonly intentId: string; readonly amount: number; readonly amountFormatted: string; readonly currency: string; readonly status: string };
  readonly files: readonly { readonly id: string; readonly field: string; readonly name: string; readonly kind: string; readonly size: number }[];
  /**
   * The site it was made on and that site's language (issue #34): its emails are written in it.
   * Absent in jobs written before sites existed, which are the default site's.
   */
  readonly site?: { readonly handle: string; readonly language: string };
}

export interface DeliveryJob {
  readonly id: number;
  readonly uid: string;
  readonly submissionId: number | null;
  readonly formId: number;
  readonly target: DeliveryTarget;
  readonly payload: DeliveryPayload;
  /** Attempts so far, this one included. */
  readonly attempts: number;
}

export interface DeliveryRecord {
  readonly id: number;
  readonly uid: string;
  readonly kind: DeliveryKind;
  /** A readable description of where it goes (`email admin → ops@…`, a URL). */
  readonly destination: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly nextAttemptAt: string | null;
  readonly lastError: string | null;
  readonly createdAt: string;
  readonly deliveredAt: string | null;
  readonly log: readonly { readonly attempt: number; readonly at: string; readonly ok: boolean; readonly detail: string | null; readonly durationMs: number }[];
}

/** A failure that no retry can fix (a missing template, a refused address): dead at once. */
export class PermanentDeliveryError extends Error {}

export function describeTarget(target: DeliveryTarget): string {
  switch (target.kind) {
    case 'email':
      return `email ${target.reason} (${target.template}) → ${target.to.join(', ')}`;
    case 'webhook':
      return `webhook → ${target.url}`;
    case 'extraPost':
      return `extra POST → ${target.url}`;
    case 'mailingList':
      return `mailing list ${target.list} ← ${target.email ?? '(no email)'}`;
  }
}
