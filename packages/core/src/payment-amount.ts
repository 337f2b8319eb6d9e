/**
 * The amount of a payment field, computed from the form definition and the values (issue #12).
 * The server charges what this returns and never what a client says; the browser uses the same
 * function only to show the amount before it asks the server.
 */
import type { Form, PaymentField, Values } from './form-model.js';
import type { Visibility } from './rules-engine.js';

/** Currencies Stripe counts in whole units (no minor unit). */
const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);

export const DEFAULT_MIN_AMOUNT = 0.5;
export const DEFAULT_MAX_AMOUNT = 999_999;

export type PaymentAmount =
  | { readonly ok: true; readonly minor: number; readonly major: number; readonly currency: string }
  | { readonly ok: false; readonly reason: 'missing' | 'out_of_range'; readonly message: string };

/** Minor units per major unit: 100 for `usd`, 1 for `jpy`. */
export function currencyFactor(currency: string): number {
  return ZERO_DECIMAL.has(currency.toLowerCase()) ? 1 : 100;
}

/** `12.5` → `1250` in `usd`; rounding to the minor unit, as a price typed in major units means. */
export function toMinorUnits(major: number, currency: string): number {
  return Math.round(major * currencyFactor(currency));
}

function numberOf(value: Values[string] | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const parsed = Number(value.trim());
  return Number.isFinite(parsed) ? parsed : null;
}

/**
 * The amount to charge. `values` are normalised; `visibility` says which amount fields count (a
 * hidden "other amount" field is not the amount, whatever it holds).
 *
 * @example
 * computePaymentAmount(form, field, { gift: '25' }, visibility); // { ok: true, minor: 2500, … }
 */
export function computePaymentAmount(
  form: Pick<Form, 'fieldsByHandle'>,
  field: PaymentField,
  values: Values,
  visibility: Pick<Visibility, 'hiddenFields'>,
): PaymentAmount {
  const currency = field.currency.toLowerCase();
  let major: number | null = field.amount ?? null;
  for (const handle of field.amountFields ?? []) {
    if (visibility.hiddenFields.has(handle) || !form.fieldsByHandle.has(handle)) continue;
    const found = numberOf(Object.hasOwn(values, handle) ? values[handle] : undefined);
    if (found !== null) {
      major = found;
      break;
    }
  }
  if (major === null) return { ok: false, reason: 'missing', message: 'Choose an amount to pay' };
  const min = field.minAmount ?? DEFAULT_MIN_AMOUNT;
  const max = field.maxAmount ?? DEFAULT_MAX_AMOUNT;
  if (major < min || major > max) {
    return { ok: false, reason: 'out_of_range', message: `The amount must be between ${min} and ${max} ${currency.toUpperCase()}` };
  }
  return { ok: true, minor: toMinorUnits(major, currency), major, currency };
}
