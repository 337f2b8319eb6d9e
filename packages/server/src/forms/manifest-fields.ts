/**
 * One field of the manifest (contract §2 `fields`): common properties at the top, constraints in
 * `validation`, every type-specific property of interface.md §2.6 in `config` under its GraphQL
 * name, and the Freeform 5 shape the official clients read (§12): the wire `type`, `frontend`,
 * `attributes {container, label, input}`, `requiredMessage`, options with `default` and
 * `disabled`. Dynamic-recipient addresses are stripped: only option values ever leave the server.
 */
import {
  DEFAULT_MAX_RATING,
  FIELD_MESSAGES,
  INTERFACE_FIELD_PROPERTIES,
  MANIFEST_TOP_LEVEL_PROPERTIES,
  defaultFieldValue,
  wireFieldType,
  type Field,
  type FieldMessages,
  type FieldOption,
  type Form,
  type ManifestField,
  type ManifestOption,
} from '@svc/core';
import { buildFrontend } from './manifest-frontend.js';
import type { PaymentManifestOptions } from '../payments/payment-manifest.js';

export type { ManifestField };

/** Properties that are not type-specific and so never go into `config`. */
const COMMON = new Set([
  'type', 'handle', 'label', 'instructions', 'required', 'rules', 'options', 'id', 'uid', 'hash',
  'pageIndex', 'rowIndex', 'placeholder', 'value', 'values', 'inputAttributes', 'labelAttributes',
  'errorAttributes', 'instructionAttributes', 'target',
  // A server-side marker (issue #37): which fields feed the privacy blind index; clients need nothing of it.
  'personal',
]);

/** Constraints of interface.md §8 (and patterns), repeated in `validation` for client-side checks. */
const CONSTRAINTS = [
  'maxLength', 'minLength', 'minValue', 'maxValue', 'decimalCount', 'allowNegative', 'decimalSeparator',
  'thousandsSeparator', 'pattern', 'message', 'maxFileSizeKB', 'fileCount', 'fileKinds', 'maxRows',
  'minDate', 'maxDate',
] as const;

function manifestOptions(options: readonly FieldOption[]): ManifestOption[] {
  return options.map((o) => ({ value: o.value, label: o.label, checked: o.checked, default: o.checked, disabled: false }));
}

/**
 * Options as every client reads them. Opinion scales and ratings are choices too: the official
 * renderers draw them from `options`, so their scales (or 1..maxValue) are offered there.
 */
function optionsOf(field: Field): ManifestOption[] | null {
  if ('options' in field) return manifestOptions(field.options);
  if (field.type === 'opinionScale') return manifestOptions(field.scales.map((s) => ({ ...s, checked: s.value === field.value })));
  if (field.type === 'rating') {
    const max = field.maxValue ?? DEFAULT_MAX_RATING;
    return manifestOptions(Array.from({ length: max }, (_, i) => ({ value: String(i + 1), label: String(i + 1), checked: String(i + 1) === field.value })));
  }
  return null;
}

export function buildManifestField(form: Form, field: Field, ceilingKB: number, payments: PaymentManifestOptions | null = null, messages: FieldMessages = FIELD_MESSAGES): ManifestField {
  const source = field as unknown as Record<string, unknown>;
  const config: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (!COMMON.has(key) && value !== undefined) config[key] = value;
  }
  if (field.type === 'confirmation') {
    config.targetFieldHash = form.fieldsByHandle.get(field.target)?.hash ?? null;
    config.target = field.target;
  }
  if (field.type === 'table') config.tableLayout = JSON.stringify(field.columns);
  // Every §2.6 property is present, null when the form leaves it unset (issue #11).
  for (const name of INTERFACE_FIELD_PROPERTIES[field.type]) {
    if (!MANIFEST_TOP_LEVEL_PROPERTIES.has(name) && !Object.hasOwn(config, name)) config[name] = null;
  }
  // A checkbox's `value` is what a ticked box stands for, not a default: clients need it to
  // evaluate rules and validate exactly as the server does.
  if (field.type === 'checkbox' && field.value) config.value = field.value;
  const validation: Record<string, unknown> = {};
  for (const key of CONSTRAINTS) {
    if (source[key] !== undefined) validation[key] = source[key];
  }
  // Freeform names a regex field's message `patternMessage` (contract §2).
  if (field.type === 'regex' && field.message !== undefined) validation.patternMessage = field.message;
  const attributes: Record<string, Readonly<Record<string, string>>> = { container: {}, label: {}, input: {} };
  for (const kind of ['input', 'label', 'error', 'instruction'] as const) {
    const map = field[`${kind}Attributes`];
    if (map && Object.keys(map).length > 0) attributes[kind] = map;
  }
  return {
    id: field.id,
    uid: field.uid,
    hash: field.hash,
    handle: field.handle as string,
    type: wireFieldType(field),
    label: field.label,
    instructions: field.instructions ?? null,
    required: field.required ?? false,
    requiredMessage: messages.required,
    defaultValue: defaultFieldValue(field),
    placeholder: typeof source.placeholder === 'string' ? source.placeholder : null,
    pageIndex: field.pageIndex,
    validation,
    options: optionsOf(field),
    config,
    attributes,
    frontend: buildFrontend(form, field, config, ceilingKB, payments),
  };
}
