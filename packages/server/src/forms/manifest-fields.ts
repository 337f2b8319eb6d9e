/**
 * One field of the manifest (contract §2 `fields`): common properties at the top, constraints in
 * `validation`, every type-specific property of interface.md §2.6 in `config` under its GraphQL
 * name. Dynamic-recipient addresses are stripped: only option values ever leave the server.
 */
import { defaultFieldValue, type Field, type ManifestField } from '@svc/core';

export type { ManifestField };

/** Properties that are not type-specific and so never go into `config`. */
const COMMON = new Set([
  'type', 'handle', 'label', 'instructions', 'required', 'rules', 'options', 'id', 'uid', 'hash',
  'pageIndex', 'rowIndex', 'placeholder', 'value', 'values', 'inputAttributes', 'labelAttributes',
  'errorAttributes', 'instructionAttributes', 'target',
]);

/** Constraints of interface.md §8 (and patterns), repeated in `validation` for client-side checks. */
const CONSTRAINTS = [
  'maxLength', 'minLength', 'minValue', 'maxValue', 'decimalCount', 'allowNegative', 'decimalSeparator',
  'thousandsSeparator', 'pattern', 'message', 'maxFileSizeKB', 'fileCount', 'fileKinds', 'maxRows',
  'minDate', 'maxDate',
] as const;

export function buildManifestField(field: Field, fieldsByHandle: ReadonlyMap<string, Field>): ManifestField {
  const source = field as unknown as Record<string, unknown>;
  const config: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (!COMMON.has(key) && value !== undefined) config[key] = value;
  }
  if (field.type === 'confirmation') {
    config.targetFieldHash = fieldsByHandle.get(field.target)?.hash ?? null;
    config.target = field.target;
  }
  if (field.type === 'table') config.tableLayout = JSON.stringify(field.columns);
  // A checkbox's `value` is what a ticked box stands for, not a default: clients need it to
  // evaluate rules and validate exactly as the server does.
  if (field.type === 'checkbox' && field.value) config.value = field.value;
  const validation: Record<string, unknown> = {};
  for (const key of CONSTRAINTS) {
    if (source[key] !== undefined) validation[key] = source[key];
  }
  const options =
    'options' in field
      ? field.options.map((o) => ({ value: o.value, label: o.label, checked: o.checked }))
      : null;
  const attributes: Record<string, Readonly<Record<string, string>>> = {};
  for (const kind of ['input', 'label', 'error', 'instruction'] as const) {
    const map = field[`${kind}Attributes`];
    if (map && Object.keys(map).length > 0) attributes[kind] = map;
  }
  return {
    id: field.id,
    uid: field.uid,
    hash: field.hash,
    handle: field.handle as string,
    type: field.type,
    label: field.label,
    instructions: field.instructions ?? null,
    required: field.required ?? false,
    defaultValue: defaultFieldValue(field),
    placeholder: typeof source.placeholder === 'string' ? source.placeholder : null,
    pageIndex: field.pageIndex,
    validation,
    options,
    config,
    attributes,
  };
}
