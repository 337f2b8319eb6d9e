/**
 * The contract between the element and the per-type renderers: a renderer gets the manifest
 * field, its current value and callbacks, and returns the native controls plus which element
 * carries the field's ARIA state. The element owns the wrapper (label, instructions, errors).
 */
import type { FormSession, Manifest, ManifestField, UploadedFile } from '@svc/client';
import type { PaymentFlow } from './payment-flow.js';

export interface FieldRenderContext {
  readonly field: ManifestField;
  readonly manifest: Manifest;
  readonly session: FormSession;
  /** `svc-HANDLE`: the id of the control (or of the fieldset of a group). */
  readonly id: string;
  /** The value the session holds for the field now. */
  readonly value: unknown;
  /** Drag-and-drop uploads already made for this field (kept across page changes). */
  readonly uploads: UploadedFile[];
  /** The person changed the value: the element stores it and re-applies rules. */
  change(value: unknown): void;
  /** Something other than the value changed (an upload added or removed): re-check only. */
  refresh(): void;
  /**
   * Files were chosen in the field's file input: `problems` are theirs (none = fine), shown on
   * the field at once; null when the input is empty again.
   */
  picked(problems: readonly string[] | null): void;
  /**
   * Uploads or a delete failed: their messages (the server's own words for a refused file) are
   * shown on the field together, and each is reported as `svc:error`.
   */
  fail(...errors: unknown[]): void;
  /** The form's payment (its Stripe Elements and intent), given to the payment field's renderer. */
  readonly payment?: PaymentFlow | null;
}

/**
 * How the wrapper is laid out: `label` (label + control), `check` (a single checkbox with its
 * label after it), `group` (fieldset + legend), `hidden` (no visible wrapper content).
 */
export type FieldLayout = 'label' | 'check' | 'group' | 'hidden';

export interface ControlView {
  readonly layout: FieldLayout;
  readonly body: Node;
  /** Elements that get aria-invalid; the first of them also gets aria-describedby. */
  readonly described: readonly HTMLElement[];
  /** Where focus goes when the field is the first invalid one. */
  focusTarget(): HTMLElement | null;
}

/** Text of a stored value for a text-like control; lists and objects are not text. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** A stored value as a list of strings (multi-choice fields, uploads). */
export function listOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' && value !== '' ? [value] : [];
}

/** A number from the field's config, or undefined when absent or not a number. */
export function configNumber(field: ManifestField, name: string): number | undefined {
  const value = field.config[name] ?? field.validation[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function configString(field: ManifestField, name: string): string | undefined {
  const value = field.config[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
