/**
 * One field of the demo's server-rendered pages (issue #14), drawn from the properties JSON alone:
 * native, labelled controls whose names are the entries a classic post carries (interface.md
 * §4.7), showing the values and errors the JSON hands back. Every value goes through escapeHtml.
 */
import { fieldTypeFromWire, type ManifestField } from '@svc/core';
import { escapeHtml } from './demo-html.js';
import { renderClassicTable } from './demo-classic-table.js';
import { ENGLISH_DEMO, type DemoLanguage } from './demo-language.js';

const INPUT_TYPES: Readonly<Record<string, string>> = { email: 'email', number: 'number', phone: 'tel', datetime: 'text' };

function attrs(pairs: Readonly<Record<string, string | number | boolean | null | undefined>>): string {
  return Object.entries(pairs)
    .filter(([, value]) => value !== null && value !== undefined && value !== false)
    .map(([name, value]) => (value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`))
    .join('');
}

function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return value === undefined || value === null || value === '' ? [] : [String(value)];
}

function options(field: ManifestField): readonly { value: string; label: string; checked?: boolean }[] {
  return (field.options ?? []) as readonly { value: string; label: string; checked?: boolean }[];
}

/**
 * @example
 * renderClassicField(manifest.fields.email, 'ann@example.test', ['Enter a valid email address'], true);
 */
export function renderClassicField(field: ManifestField, value: unknown, errors: readonly string[], fresh: boolean, language: DemoLanguage = ENGLISH_DEMO): string {
  const type = fieldTypeFromWire(field.type) ?? 'text';
  const id = `f-${field.handle}`;
  const errorsId = `${id}-errors`;
  const invalid = errors.length > 0;
  const described = [invalid ? errorsId : null, field.instructions ? `${id}-help` : null].filter(Boolean).join(' ') || null;
  const shown = fresh && (value === undefined || value === null) ? field.defaultValue : value;
  const aria = { 'aria-invalid': invalid ? 'true' : null, 'aria-describedby': described };
  const help = field.instructions ? `<p class="help" id="${id}-help">${escapeHtml(field.instructions)}</p>` : '';
  const errorList = `<ul class="errors" id="${errorsId}">${errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul>`;
  const label = `${escapeHtml(field.label)}${field.required ? ' <span aria-hidden="true">*</span>' : ''}`;
  const name = field.handle;
  const group = (inputs: string) =>
    `<fieldset class="field"${attrs(aria)}><legend>${label}</legend>${help}${inputs}${errorList}</fieldset>`;
  const single = (control: string) => `<div class="field"><label for="${id}">${label}</label>${help}${control}${errorList}</div>`;
  switch (type) {
    case 'hidden':
      return `<input type="hidden"${attrs({ name, value: list(shown)[0] ?? '' })}>`;
    case 'textarea':
      return single(`<textarea${attrs({ id, name, rows: 4, required: field.required, ...aria })}>${escapeHtml(list(shown)[0] ?? '')}</textarea>`);
    case 'select':
    case 'multipleSelect': {
      const multiple = type === 'multipleSelect';
      const chosen = new Set(list(shown));
      const opts = options(field).map((o) => `<option${attrs({ value: o.value, selected: chosen.size > 0 ? chosen.has(o.value) : fresh && o.checked === true })}>${escapeHtml(o.label)}</option>`);
      const blank = multiple ? '' : `<option value="">${escapeHtml(language.element('element.choose'))}</option>`;
      return single(`<select${attrs({ id, name: multiple ? `${name}[]` : name, multiple, required: field.required, ...aria })}>${blank}${opts.join('')}</select>`);
    }
    case 'radioGroup':
    case 'checkboxGroup':
    case 'dynamicRecipients': {
      // Recipients shown as radios (showAsRadio) are one choice, drawn as the element draws them.
      const radio = type === 'radioGroup' || (type === 'dynamicRecipients' && field.config.showAsRadio === true);
      const chosen = new Set(list(shown));
      const items = options(field).map((o, i) => {
        const checked = chosen.size > 0 ? chosen.has(o.value) : fresh && o.checked === true;
        return `<label class="choice"><input${attrs({ type: radio ? 'radio' : 'checkbox', id: `${id}-${i}`, name: radio ? name : `${name}[]`, value: o.value, checked })}> ${escapeHtml(o.label)}</label>`;
      });
      return group(items.join(''));
    }
    case 'checkbox':
    case 'mailingList': {
      const on = ['1', 'true', 'on', 'yes'].includes(String(list(shown)[0] ?? '').toLowerCase());
      // The hidden "0" first: an unticked box still says so, and a ticked one's "1" comes last.
      return `<div class="field check"><input type="hidden"${attrs({ name, value: '0' })}><input${attrs({ type: 'checkbox', id, name, value: '1', checked: on, required: field.required, ...aria })}><label for="${id}">${label}</label>${help}${errorList}</div>`;
    }
    case 'rating': {
      // Stars as radios, highest first in the markup so `:checked ~` can light the lower ones
      // (the row is reversed on screen); each keeps its number for screen readers. CSS only.
      const chosen = list(shown)[0] ?? '';
      const stars = options(field).map((o, i) => {
        const input = `<input${attrs({ type: 'radio', id: `${id}-${i}`, name, value: o.value, checked: chosen === o.value, class: 'visually-hidden' })}>`;
        const spoken = language.text('demo.ratingOf', { value: o.label, count: options(field).length });
        return `${input}<label for="${id}-${i}"><span aria-hidden="true">★</span><span class="visually-hidden">${escapeHtml(spoken)}</span></label>`;
      });
      return group(`<span class="stars">${stars.reverse().join('')}</span>`);
    }
    case 'table':
      return group(renderClassicTable(field, shown, id, language));
    case 'file':
      return single(`<input${attrs({ type: 'file', id, name: `${name}[]`, multiple: true, ...aria })}>`);
    case 'signature':
    case 'payment':
      return `<div class="field"><p>${language.html('demo.notDrawn', { label, type: escapeHtml(type), link: `<a href="/demo/${escapeHtml(language.query)}">${escapeHtml(language.text('demo.elementDemo'))}</a>` })}</p>${errorList}</div>`;
    default:
      return single(`<input${attrs({ type: INPUT_TYPES[type] ?? 'text', id, name, value: list(shown)[0] ?? '', required: field.required, step: type === 'number' ? 'any' : null, ...aria })}>`);
  }
}
