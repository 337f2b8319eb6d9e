/**
 * Renderer selection of the official React/Vue packages (`resolveFieldRenderer` without user or
 * theme overrides): the built-in keys of react-vue-demos.md §1.4. A field none of them draws shows
 * "Unsupported field type".
 */
import type { OfficialField } from './official-client-state.js';

/** Built-in renderer keys of the React/Vue packages (react-vue-demos.md §1.4). */
export const BUILTIN_FRONTEND_RENDERERS: ReadonlySet<string> = new Set([
  'text', 'textarea', 'email', 'number', 'range', 'phone', 'website', 'regex', 'password', 'confirm', 'hidden',
  'select', 'dropdown', 'multiple-select', 'checkbox', 'checkboxes', 'radio', 'radios', 'opinion-scale', 'rating',
  'cards', 'datetime', 'file', 'file-upload', 'file-dnd', 'html', 'rich-text', 'image', 'table', 'signature',
  'calculation', 'payment.stripe', 'payment.square', 'payment.paypal', 'payment.mollie',
]);

export const BUILTIN_TYPE_RENDERERS: ReadonlySet<string> = new Set([
  'text', 'textarea', 'email', 'number', 'range', 'phone', 'website', 'regex', 'password', 'confirm', 'hidden',
  'select', 'dropdown', 'multiple-select', 'checkbox', 'checkboxes', 'radio', 'radios', 'radiobox', 'opinion-scale',
  'rating', 'cards', 'datetime', 'file', 'file-upload', 'file-dnd', 'html', 'rich-text', 'image', 'table',
  'signature', 'calculation', 'stripe', 'square', 'paypal', 'mollie',
]);

/** `resolveFieldRenderer` without user or theme overrides: the built-in key used, or `_unsupported`. */
export function resolveBuiltinRenderer(field: OfficialField): string {
  const key = field.frontend?.renderer ?? undefined;
  if (key && BUILTIN_FRONTEND_RENDERERS.has(key)) return key;
  if (key && BUILTIN_TYPE_RENDERERS.has(key)) return key;
  if (BUILTIN_TYPE_RENDERERS.has(field.type)) return field.type;
  return '_unsupported';
}
