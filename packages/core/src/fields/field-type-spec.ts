import type { FieldOfType, FieldType, FieldValue, Values } from '../form-model.js';

export type NormaliseOutcome =
  | { readonly ok: true; readonly value: FieldValue }
  | { readonly ok: false; readonly error: string };

export interface FieldTypeSpec<T extends FieldType = FieldType> {
  readonly type: T;
  /**
   * Wire value -> stored shape. Lenient about representation (a number sent as a string, a single
   * string for a list), strict about shape (an object for a text field is an error).
   */
  normalise(field: FieldOfType<T>, raw: unknown): NormaliseOutcome;
  /**
   * Constraint messages for a normalised, NON-EMPTY value; [] when valid. `values` = all
   * normalised values known for the form (for confirmation).
   */
  validate(field: FieldOfType<T>, value: FieldValue, values: Values): string[];
  /** The value a field starts with (from value/values/checked/option.checked). */
  defaultValue(field: FieldOfType<T>): FieldValue;
}

export function accept(value: FieldValue): NormaliseOutcome {
  return { ok: true, value };
}

export function reject(error: string): NormaliseOutcome {
  return { ok: false, error };
}

/** A spec's default derived from its own normaliser, so a badly written default never reaches a form. */
export function normalisedDefault<T extends FieldType>(
  spec: Pick<FieldTypeSpec<T>, 'normalise'>,
  field: FieldOfType<T>,
  raw: unknown,
  empty: FieldValue,
): FieldValue {
  const outcome = spec.normalise(field, raw);
  return outcome.ok ? outcome.value : empty;
}
