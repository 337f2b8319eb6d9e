/**
 * Upper bounds of the lists inside a form, measured on the live forms, for the query cost rule.
 * A form's pages, rows and options are bounded by what the site owner wrote, not by the caller,
 * so costing them at the real maximum keeps an honest full-form query cheap while aliases and
 * `forms` (the lists a caller can multiply) stay costed as before.
 */
import { FIELD_TYPES, type Field, type Form } from '@svc/core';
import { fieldTypeName } from './graphql-field-types.js';
import { MAX_LIMIT } from './graphql-queries.js';

const FORM_TYPES = ['SvcFormInterface', 'SvcForm', 'FormInterface'];
const PAGE_TYPES = ['SvcPageInterface', 'SvcPage', 'PageInterface'];
const ROW_TYPES = ['SvcRowInterface', 'SvcRow', 'RowInterface'];
const FIELD_TYPE_NAMES = ['SvcFieldInterface', 'FieldInterface', ...FIELD_TYPES.map(fieldTypeName)];
const ATTRIBUTE_LISTS = ['inputAttributes', 'labelAttributes', 'errorAttributes', 'instructionAttributes'] as const;

function listLength(field: Field, key: string): number {
  const value = (field as unknown as Record<string, unknown>)[key];
  return Array.isArray(value) ? value.length : 0;
}

export function formListBounds(forms: readonly Form[]): ReadonlyMap<string, number> {
  const max = { pages: 0, formFields: 0, mailingLists: 0, rows: 0, rowFields: 0, options: 0, attributes: 0, legends: 0, scales: 0, kinds: 0, values: 0 };
  for (const form of forms) {
    max.pages = Math.max(max.pages, form.pages.length);
    const all = form.pages.flatMap((p) => p.rows.flatMap((r) => r.fields));
    max.formFields = Math.max(max.formFields, all.length);
    max.mailingLists = Math.max(max.mailingLists, form.fields.filter((f) => f.type === 'mailingList').length);
    for (const page of form.pages) {
      max.rows = Math.max(max.rows, page.rows.length);
      for (const row of page.rows) max.rowFields = Math.max(max.rowFields, row.fields.length);
    }
    for (const field of all) {
      max.options = Math.max(max.options, listLength(field, 'options'));
      max.legends = Math.max(max.legends, listLength(field, 'legends'));
      max.scales = Math.max(max.scales, listLength(field, 'scales'));
      max.kinds = Math.max(max.kinds, listLength(field, 'fileKinds'));
      max.values = Math.max(max.values, listLength(field, 'values'));
      for (const kind of ATTRIBUTE_LISTS) max.attributes = Math.max(max.attributes, Object.keys(field[kind] ?? {}).length);
    }
  }
  const bounds = new Map<string, number>([['Svc.forms', Math.min(MAX_LIMIT, forms.length)]]);
  for (const type of FORM_TYPES) {
    bounds.set(`${type}.pages`, max.pages);
    bounds.set(`${type}.fields`, max.formFields);
    bounds.set(`${type}.mailingListName`, max.mailingLists);
  }
  for (const type of PAGE_TYPES) bounds.set(`${type}.rows`, max.rows);
  for (const type of ROW_TYPES) bounds.set(`${type}.fields`, max.rowFields);
  for (const type of FIELD_TYPE_NAMES) {
    for (const kind of ATTRIBUTE_LISTS) bounds.set(`${type}.${kind}`, max.attributes);
    bounds.set(`${type}.options`, max.options);
    bounds.set(`${type}.legends`, max.legends);
    bounds.set(`${type}.scales`, max.scales);
    bounds.set(`${type}.fileKinds`, max.kinds);
    bounds.set(`${type}.values`, max.values);
  }
  return bounds;
}
