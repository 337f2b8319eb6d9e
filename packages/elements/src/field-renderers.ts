/**
 * One field as accessible native HTML: `<div part="field" data-field>` holding a label (or a
 * fieldset and legend for groups), the instructions, the control and an always-present errors
 * list, so tests and host styles find the same structure for every type.
 */
import { fieldTypeFromWire, formatMessage } from '@svc/core';
import { h, setAttribute } from './dom-builder.js';
import { CHOICE_RENDERERS } from './choice-field-renderers.js';
import { renderFile } from './file-field-renderer.js';
import type { ControlView, FieldRenderContext } from './field-view.js';
import { renderPayment } from './payment-field-renderer.js';
import { renderSignature } from './signature-field-renderer.js';
import { renderTable } from './table-field-renderer.js';
import { TEXT_RENDERERS } from './text-field-renderers.js';

const RENDERERS: Readonly<Record<string, (ctx: FieldRenderContext) => ControlView>> = {
  ...TEXT_RENDERERS,
  ...CHOICE_RENDERERS,
  file: renderFile,
  payment: renderPayment,
  signature: renderSignature,
  table: renderTable,
};

export interface FieldElement {
  readonly handle: string;
  readonly wrapper: HTMLElement;
  readonly view: ControlView;
  /** Shows these messages (none = valid) and sets aria-invalid / aria-describedby to match. */
  showErrors(messages: readonly string[]): void;
}

function labelText(ctx: FieldRenderContext): (Node | string)[] {
  // The asterisk is decoration; `required` on the control (or the legend text) tells assistive tech.
  return ctx.field.required ? [ctx.field.label, h('span', { part: 'required', class: 'required', 'aria-hidden': 'true' }, ' *')] : [ctx.field.label];
}

/**
 * A profile's locked field (contract §9): text stays readable and focusable (native `readonly`,
 * which assistive tech announces); controls with no read-only state (choices, files, buttons) are
 * disabled. The service forces the value
 * anyway; this only keeps the person from typing what would be thrown away.
 */
function lock(body: Node): void {
  if (!(body instanceof Element || body instanceof DocumentFragment)) return;
  const selector = 'input, textarea, select, button';
  const controls = [...(body instanceof Element && body.matches(selector) ? [body] : []), ...Array.from(body.querySelectorAll(selector))];
  for (const control of controls as (HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | HTMLButtonElement)[]) {
    const textLike = control instanceof HTMLTextAreaElement || (control instanceof HTMLInputElement && !['checkbox', 'radio', 'file', 'range', 'color', 'hidden'].includes(control.type));
    if (textLike) (control as HTMLInputElement | HTMLTextAreaElement).readOnly = true;
    else control.disabled = true;
  }
}

/** Builds one field; unknown types fall back to a text input rather than disappearing. */
export function renderField(ctx: FieldRenderContext): FieldElement {
  const { field, id } = ctx;
  // The manifest speaks Freeform's type names (contract §2); renderers are keyed by svc's.
  const type = fieldTypeFromWire(field.type) ?? field.type;
  const view = (RENDERERS[type] ?? TEXT_RENDERERS.text!)(ctx);
  const instructionsId = `${id}-instructions`;
  const errorsId = `${id}-errors`;
  const lockedNote = field.readOnly ? formatMessage(ctx.session.language, 'element.locked') : null;
  const instructionText = [field.instructions, lockedNote].filter(Boolean).join(' ');
  const instructions = instructionText ? h('p', { id: instructionsId, part: 'instructions', class: 'instructions' }, instructionText) : null;
  if (field.readOnly) lock(view.body);
  const errors = h('ul', { id: errorsId, part: 'errors', class: 'errors' });
  const wrapper = h('div', { part: 'field', class: `field type-${type}${field.readOnly ? ' locked' : ''}`, 'data-field': field.handle, 'data-type': type, 'data-locked': field.readOnly ? '' : null });
  // A group's own fieldset carries the id unless its control already does (the signature canvas).
  const controlOwnsId = view.described.some((element) => element.id === id);
  let fieldset: HTMLFieldSetElement | null = null;
  switch (view.layout) {
    case 'hidden':
      wrapper.append(view.body);
      break;
    case 'group':
      fieldset = h('fieldset', { id: controlOwnsId ? null : id, class: 'group' }, h('legend', { part: 'label' }, labelText(ctx)), instructions, view.body, errors);
      if (field.required) fieldset.setAttribute('data-required', '');
      wrapper.append(fieldset);
      break;
    case 'check':
      wrapper.append(h('div', { class: 'check' }, view.body, h('label', { for: id, part: 'label' }, labelText(ctx))), instructions ?? '', errors);
      break;
    default:
      wrapper.append(h('label', { for: id, part: 'label' }, labelText(ctx)), instructions ?? '', view.body, errors);
  }
  const targets: HTMLElement[] = [...(fieldset ? [fieldset] : []), ...view.described];
  const showErrors = (messages: readonly string[]) => {
    errors.replaceChildren(...messages.map((message) => h('li', {}, message)));
    const invalid = messages.length > 0;
    const describedBy = [invalid ? errorsId : null, instructions ? instructionsId : null].filter((part) => part !== null).join(' ');
    for (const target of targets) {
      setAttribute(target, 'aria-invalid', invalid ? 'true' : null);
      setAttribute(target, 'aria-describedby', describedBy === '' ? null : describedBy);
    }
    wrapper.classList.toggle('invalid', invalid);
  };
  showErrors([]);
  return { handle: field.handle, wrapper, view, showErrors };
}
