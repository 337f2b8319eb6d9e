/**
 * Choice controls: select, multiple select, single checkbox, mailing-list opt-in, radio and
 * checkbox groups, dynamic recipients, opinion scales and ratings. Groups are fieldsets with a
 * legend (the wrapper adds it), so every option keeps its own `<label>`.
 */
import { formatMessage } from '@svc/core';
import { h } from './dom-builder.js';
import { configNumber, listOf, textOf, type ControlView, type FieldRenderContext } from './field-view.js';

interface Choice {
  readonly value: string;
  readonly label: string;
}

function optionsOf(ctx: FieldRenderContext): Choice[] {
  return (ctx.field.options ?? []).map((o) => ({ value: o.value, label: o.label || o.value }));
}

function select(ctx: FieldRenderContext, multiple: boolean): ControlView {
  const choices = optionsOf(ctx);
  const selected = new Set(listOf(ctx.value));
  const control = h(
    'select',
    { id: ctx.id, name: ctx.field.handle, multiple, required: ctx.field.required, size: multiple ? Math.min(Math.max(choices.length, 2), 6) : undefined },
    // A single select starts on an explicit "no answer" so nothing is chosen by accident.
    !multiple && h('option', { value: '' }, formatMessage(ctx.session.language, 'element.choose')),
    choices.map((c) => h('option', { value: c.value, selected: selected.has(c.value) }, c.label)),
  );
  control.addEventListener('change', () => {
    const values = Array.from(control.selectedOptions).map((o) => o.value);
    ctx.change(multiple ? values : (values[0] ?? ''));
  });
  return { layout: 'label', body: control, described: [control], focusTarget: () => control };
}

/**
 * A fieldset body of radios or checkboxes; ids are `svc-HANDLE-N`, the fieldset itself carries
 * `svc-HANDLE` so the wrapper, errors and focus treat the group as one control.
 */
function group(ctx: FieldRenderContext, type: 'radio' | 'checkbox', choices: readonly Choice[], oneLine: boolean): ControlView {
  const checked = new Set(listOf(ctx.value));
  const inputs = choices.map((c, i) =>
    h('input', { type, id: `${ctx.id}-${i}`, name: ctx.field.handle, value: c.value, checked: checked.has(c.value) }),
  );
  const body = h(
    'div',
    { part: 'options', class: oneLine ? 'options one-line' : 'options' },
    choices.map((c, i) => h('div', { part: 'option', class: 'option' }, inputs[i], h('label', { for: `${ctx.id}-${i}` }, c.label))),
  );
  const read = () => {
    const values = inputs.filter((input) => input.checked).map((input) => input.value);
    ctx.change(type === 'radio' ? (values[0] ?? '') : values);
  };
  for (const input of inputs) input.addEventListener('change', read);
  return {
    layout: 'group',
    body,
    described: [],
    focusTarget: () => inputs.find((input) => input.checked) ?? inputs[0] ?? null,
  };
}

/** A single checkbox sends its configured value (default "1") when checked, nothing otherwise. */
function checkbox(ctx: FieldRenderContext, asBoolean: boolean): ControlView {
  const onValue = textOf(ctx.field.config.value) || '1';
  const current = ctx.value;
  const isChecked = current === true || (typeof current === 'string' && current !== '' && current !== '0' && current !== 'false');
  const input = h('input', { type: 'checkbox', id: ctx.id, name: ctx.field.handle, value: onValue, checked: isChecked, required: ctx.field.required });
  input.addEventListener('change', () => ctx.change(asBoolean ? input.checked : input.checked ? onValue : ''));
  return { layout: 'check', body: input, described: [input], focusTarget: () => input };
}

/** A hidden mailing-list opt-in is the site owner's decision: nothing for the person to tick. */
function mailingList(ctx: FieldRenderContext): ControlView {
  if (ctx.field.config.hidden === true) {
    return { layout: 'hidden', body: h('input', { type: 'hidden', id: ctx.id, name: ctx.field.handle, value: '1' }), described: [], focusTarget: () => null };
  }
  return checkbox(ctx, true);
}

function dynamicRecipients(ctx: FieldRenderContext): ControlView {
  const oneLine = ctx.field.config.oneLine === true;
  if (ctx.field.config.showAsCheckboxes === true) return group(ctx, 'checkbox', optionsOf(ctx), oneLine);
  if (ctx.field.config.showAsRadio === true) return group(ctx, 'radio', optionsOf(ctx), oneLine);
  return select(ctx, false);
}

/** Scales are radios; the two legends (low and high end) are shown around them. */
function opinionScale(ctx: FieldRenderContext): ControlView {
  const scales = Array.isArray(ctx.field.config.scales) ? (ctx.field.config.scales as { value?: unknown; label?: unknown }[]) : [];
  const choices = scales.map((s) => ({ value: textOf(s.value), label: textOf(s.label) || textOf(s.value) }));
  const view = group(ctx, 'radio', choices, true);
  const legends = Array.isArray(ctx.field.config.legends) ? ctx.field.config.legends.map(textOf).filter((l) => l !== '') : [];
  if (legends.length === 0) return view;
  const body = h('div', { class: 'scale' }, view.body, h('p', { part: 'scale-legends', class: 'scale-legends' }, legends.map((l) => h('span', {}, l))));
  return { ...view, body };
}

/** Ratings are 1..max radios; the visible label is the number so contrast never depends on star colours. */
function rating(ctx: FieldRenderContext): ControlView {
  const max = configNumber(ctx.field, 'maxValue') ?? 5;
  const choices = Array.from({ length: max }, (_v, i) => ({ value: String(i + 1), label: `${i + 1} of ${max}` }));
  return group(ctx, 'radio', choices, true);
}

export const CHOICE_RENDERERS: Readonly<Record<string, (ctx: FieldRenderContext) => ControlView>> = {
  select: (ctx) => select(ctx, false),
  multipleSelect: (ctx) => select(ctx, true),
  checkbox: (ctx) => checkbox(ctx, false),
  mailingList,
  radioGroup: (ctx) => group(ctx, 'radio', optionsOf(ctx), ctx.field.config.oneLine === true),
  checkboxGroup: (ctx) => group(ctx, 'checkbox', optionsOf(ctx), ctx.field.config.oneLine === true),
  dynamicRecipients,
  opinionScale,
  rating,
};
