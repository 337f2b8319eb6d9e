/** A submission's payment as the admin API and exports show it (issue #12). */
import { currencyFactor } from '@svc/core';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import { formatMajor } from './payment-context.js';
import { paymentsOfSubmissions } from './payment-repository.js';

export interface PaymentRecord {
  readonly gateway: string;
  readonly intentId: string;
  /** Minor units, and the same in major units as text. */
  readonly amount: number;
  readonly amountFormatted: string;
  readonly amountRefunded: number;
  readonly currency: string;
  readonly status: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The payments of these submissions, by submission id. */
export async function paymentRecords(db: Kysely<Database> | Transaction<Database>, submissionIds: readonly number[]): Promise<Map<number, PaymentRecord>> {
  const rows = await paymentsOfSubmissions(db, submissionIds);
  return new Map(
    rows.map((row) => [
      row.submissionId as number,
      {
        gateway: row.gateway,
        intentId: row.intentId,
        amount: row.amount,
        amountFormatted: formatMajor(row.amount, currencyFactor(row.currency)),
        amountRefunded: row.amountRefunded,
        currency: row.currency,
        status: row.status,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
      },
    ]),
  );
}
