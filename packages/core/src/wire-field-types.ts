/**
 * Field `type` strings on the wire (contract §2): Freeform 5's, so the official clients pick their
 * built-in renderers (`dropdown`, `radios`, `checkboxes`, …). Form files and @svc/core keep svc's
 * own names; this is the one place the two are translated, both ways.
 */
import type { FieldType } from './form-model.js';

export const WIRE_FIELD_TYPES: { readonly [T in FieldType]: string } = {
  text: 'text',
  textarea: 'textarea',
  select: 'dropdown',
  checkbox: 'checkbox',
  multipleSelect: 'multiple-select',
  checkboxGroup: 'checkboxes',
  radioGroup: 'radios',
  email: 'email',
  dynamicRecipients: 'dynamic-recipients',
  number: 'number',
  file: 'file',
  confirmation: 'confirm',
  datetime: 'datetime',
  opinionScale: 'opinion-scale',
  phone: 'phone',
  rating: 'rating',
  regex: 'regex',
  signature: 'signature',
  table: 'table',
  mailingList: 'mailing-list',
  hidden: 'hidden',
  // Freeform's type for a Stripe payment field; its Stripe extension mounts on it (contract §12).
  payment: 'stripe',
  submit: 'submit',
};

/** Drag and drop is a type of its own in Freeform 5; in svc it is a file field's option. */
export const FILE_DND_WIRE_TYPE = 'file-dnd';

const FROM_WIRE: ReadonlyMap<string, FieldType> = new Map([
  ...Object.entries(WIRE_FIELD_TYPES).map(([type, wire]) => [wire, type as FieldType] as const),
  [FILE_DND_WIRE_TYPE, 'file'],
]);

/**
 * The wire type of a field.
 *
 * @example
 * wireFieldType({ type: 'radioGroup' }); // 'radios'
 * wireFieldType({ type: 'file', dragAndDrop: true }); // 'file-dnd'
 */
export function wireFieldType(field: { readonly type: FieldType; readonly dragAndDrop?: boolean }): string {
  if (field.type === 'file' && field.dragAndDrop === true) return FILE_DND_WIRE_TYPE;
  return WIRE_FIELD_TYPES[field.type];
}

/**
 * svc's type for a wire type; svc's own names are understood too, so an older manifest still reads.
 *
 * @example
 * fieldTypeFromWire('dropdown'); // 'select'
 */
export function fieldTypeFromWire(type: string): FieldType | undefined {
  return FROM_WIRE.get(type) ?? (Object.hasOwn(WIRE_FIELD_TYPES, type) ? (type as FieldType) : undefined);
}
