/**
 * What `svc forms check` refuses in a payment field (issue #12): an amount that cannot be computed
 * on the server, and a form asking for two payments at once (one checkpoint pays for one field).
 */
import { DEFAULT_MAX_AMOUNT, DEFAULT_MIN_AMOUNT, type FieldType } from '@svc/core';
import { formatPath, type PathSegments } from './definition-problems.js';
import type { FieldLocation } from './definition-normalise.js';

type Report = (path: PathSegments, message: string) => void;

/** Field types whose value can be read as an amount. */
const AMOUNT_TYPES: ReadonlySet<FieldType> = new Set(['number', 'select', 'radioGroup']);

export function checkPaymentFields(fields: readonly FieldLocation[], report: Report): void {
  const byHandle = new Map(fields.filter((l) => l.field.handle !== null).map((l) => [l.field.handle as string, l.field]));
  let first: PathSegments | null = null;
  for (const { field, path } of fields) {
    if (field.type !== 'payment') continue;
    if (first) {
      report(path, `a form has at most one payment field (this form has one at ${formatPath(first)})`);
      continue;
    }
    first = path;
    const amountFields = field.amountFields ?? [];
    if (field.amount === undefined && amountFields.length === 0) report(path, 'needs `amount` or `amountFields`');
    amountFields.forEach((handle, index) => {
      const target = byHandle.get(handle);
      if (!target) report([...path, 'amountFields', index], `no input field "${handle}" in this form`);
      else if (!AMOUNT_TYPES.has(target.type)) {
        report([...path, 'amountFields', index], `"${handle}" is a ${target.type} field; an amount comes from a number, select or radioGroup field`);
      }
    });
    const min = field.minAmount ?? DEFAULT_MIN_AMOUNT;
    const max = field.maxAmount ?? DEFAULT_MAX_AMOUNT;
    if (min > max) report([...path, 'maxAmount'], `must not be less than minAmount (${min})`);
    if (field.amount !== undefined && (field.amount < min || field.amount > max)) {
      report([...path, 'amount'], `must be between ${min} and ${max}`);
    }
  }
}
