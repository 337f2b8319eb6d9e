/**
 * Single-line and multi-line text controls: text, email, number, phone, regex, confirmation,
 * datetime, textarea and hidden. Values are sent as typed; @svc/core normalises them the same
 * way on both sides, so the renderer never reformats what the person wrote.
 */
import { fieldTypeFromWire } from '@svc/core';
import { h, type Attributes } from './dom-builder.js';
import { configNumber, configString, textOf, type ControlView, type FieldRenderContext } from './field-view.js';
import { preparePhoneNumbers } from './phone-number-loading.js';

function labelled(control: HTMLElement): ControlView {
  return { layout: 'label', body: control, described: [control], focusTarget: () => control };
}

function textInput(ctx: FieldRenderContext, attributes: Attributes): ControlView {
  const { field } = ctx;
  const input = h('input', {
    type: 'text',
    id: ctx.id,
    name: field.handle,
    value: textOf(ctx.value),
    placeholder: field.placeholder,
    required: field.required,
    maxlength: configNumber(field, 'maxLength'),
    ...attributes,
  });
  input.addEventListener('input', () => ctx.change(input.value));
  return labelled(input);
}

/**
 * A phone number. On a hosted page its metadata arrives on the field's first focus or input
 * (phone-number-loading.ts); a check made before then lets the number through and the server,
 * which always checks it, answers for it (a Next or Submit that quick gets the server's error).
 */
function phoneInput(ctx: FieldRenderContext): ControlView {
  const view = textInput(ctx, { type: 'tel', autocomplete: 'tel', placeholder: ctx.field.placeholder ?? configString(ctx.field, 'pattern') });
  const input = view.body as HTMLInputElement;
  const prepare = () => {
    input.removeEventListener('focus', prepare);
    input.removeEventListener('input', prepare);
    // A failed load is tried again by the next check that needs the metadata.
    preparePhoneNumbers().catch(() => undefined);
  };
  input.addEventListener('focus', prepare);
  input.addEventListener('input', prepare);
  return view;
}

/** Number fields may use `,` as decimal separator, which `type=number` refuses: text + inputmode. */
function numberInput(ctx: FieldRenderContext): ControlView {
  const decimals = configNumber(ctx.field, 'decimalCount');
  return textInput(ctx, { inputmode: decimals === 0 ? 'numeric' : 'decimal', autocomplete: 'off' });
}

/** Native pickers emit the ISO shapes @svc/core stores (`2025-01-31`, `13:05`, `…T13:05`). */
const DATETIME_INPUT: Readonly<Record<string, string>> = { date: 'date', time: 'time', both: 'datetime-local' };

function datetimeInput(ctx: FieldRenderContext): ControlView {
  const kind = configString(ctx.field, 'dateTimeType') ?? 'date';
  const type = DATETIME_INPUT[kind] ?? 'date';
  const minDate = configString(ctx.field, 'minDate');
  const maxDate = configString(ctx.field, 'maxDate');
  const bound = (date: string | undefined, time: string) => (date === undefined || type === 'time' ? undefined : type === 'date' ? date : `${date}T${time}`);
  return textInput(ctx, { type, min: bound(minDate, '00:00'), max: bound(maxDate, '23:59'), placeholder: null });
}

/** A confirmation repeats its target, so it uses the target's input type (email for emails). */
function confirmationInput(ctx: FieldRenderContext): ControlView {
  const target = configString(ctx.field, 'target');
  const targetType = target ? ctx.manifest.fields[target]?.type : undefined;
  return textInput(ctx, targetType !== undefined && fieldTypeFromWire(targetType) === 'email' ? { type: 'email', autocomplete: 'off' } : { autocomplete: 'off' });
}

function textarea(ctx: FieldRenderContext): ControlView {
  const { field } = ctx;
  const control = h('textarea', {
    id: ctx.id,
    name: field.handle,
    rows: configNumber(field, 'rows') ?? 4,
    placeholder: field.placeholder,
    required: field.required,
    maxlength: configNumber(field, 'maxLength'),
  });
  control.value = textOf(ctx.value);
  control.addEventListener('input', () => ctx.change(control.value));
  return labelled(control);
}

function hiddenInput(ctx: FieldRenderContext): ControlView {
  const input = h('input', { type: 'hidden', id: ctx.id, name: ctx.field.handle, value: textOf(ctx.value) });
  return { layout: 'hidden', body: input, described: [], focusTarget: () => null };
}

export const TEXT_RENDERERS: Readonly<Record<string, (ctx: FieldRenderContext) => ControlView>> = {
  text: (ctx) => textInput(ctx, {}),
  regex: (ctx) => textInput(ctx, {}),
  email: (ctx) => textInput(ctx, { type: 'email', autocomplete: 'email' }),
  phone: phoneInput,
  number: numberInput,
  datetime: datetimeInput,
  confirmation: confirmationInput,
  textarea,
  hidden: hiddenInput,
};
