import type { FieldOfType, FieldType, FieldValue, Values } from '../form-model.js';
import type { FieldMessages } from './field-messages.js';

export type NormaliseOutcome =
  | { readonly ok: true; readonly value: FieldValue }
  | { readonly ok: false; readonly error: string };

/** What checking a value needs: the part of a field type the server and the browser client share. */
export interface FieldTypeChecks<T extends FieldType = FieldType> {
  readonly type: T;
  /**
   * Wire value -> stored shape. Lenient about representation (a number sent as a string, a single
   * string for a list), strict about shape (an object for a text field is an error). `messages`
   * are the refusals' words (English when omitted); their `locale` also lets numbers and dates be
   * typed the way that language writes them.
   */
  normalise(field: FieldOfType<T>, raw: unknown, messages?: FieldMessages): NormaliseOutcome;
  /**
   * Constraint messages for a normalised, NON-EMPTY value; [] when valid. `values` = all
   * normalised values known for the form (for confirmation).
   */
  validate(field: FieldOfType<T>, value: FieldValue, values: Values, messages?: FieldMessages): string[];
}

export interface FieldTypeSpec<T extends FieldType = FieldType> extends FieldTypeChecks<T> {
  /** The value a field starts with (from value/values/checked/option.checked). */
  defaultValue(field: FieldOfType<T>): FieldValue;
}

/**
 * A type's checks with its default. Defaults reach clients in the manifest (contract §2
 * `defaultValue`), so only the server reads them: each call is marked pure, and a bundle that only
 * checks values (the browser client's) leaves the spec and its default out.
 */
export function withDefault<T extends FieldType>(
  checks: FieldTypeChecks<T>,
  defaultValue: (field: FieldOfType<T>) => FieldValue,
): FieldTypeSpec<T> {
  return { ...checks, defaultValue };
}

export function accept(value: FieldValue): NormaliseOutcome {
  return { ok: true, value };
}

export function reject(error: string): NormaliseOutcome {
  return { ok: false, error };
}

/** A spec's default derived from its own normaliser, so a badly written default never reaches a form. */
export function normalisedDefault<T extends FieldType>(
  spec: Pick<FieldTypeChecks<T>, 'normalise'>,
  field: FieldOfType<T>,
  raw: unknown,
  empty: FieldValue,
): FieldValue {
  const outcome = spec.normalise(field, raw);
  return outcome.ok ? outcome.value : empty;
}
