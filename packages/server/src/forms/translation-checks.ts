/**
 * What `svc forms check` and the boot say of a form's translations (issue #34): a translation that
 * names a field, page or option the form does not have is an error (a renamed handle would
 * otherwise leave its translation silently unused); a string the form shows that a language leaves
 * out is a warning, listed per language, since it falls back to the form's own.
 */
import type { FieldDefinition, FormDefinition } from '@svc/core';
import type { PathProblem } from './definition-problems.js';
import type { FormTranslation, FormTranslations } from './form-translations.js';

function optionValues(field: FieldDefinition): readonly string[] | null {
  if ('options' in field) return field.options.map((option) => option.value);
  if (field.type === 'opinionScale') return field.scales.map((scale) => scale.value);
  return null;
}

function inputFields(definition: FormDefinition): FieldDefinition[] {
  return definition.pages.flatMap((page) => page.rows.flat()).filter((field) => field.type !== 'submit');
}

/** Translations naming what the form does not have. */
export function translationProblems(definition: FormDefinition, translations: FormTranslations): PathProblem[] {
  const problems: PathProblem[] = [];
  const fields = new Map(inputFields(definition).map((field) => [field.handle as string, field]));
  for (const [language, strings] of Object.entries(translations)) {
    let tagValid = true;
    try {
      Intl.getCanonicalLocales(language);
    } catch {
      tagValid = false;
    }
    if (!tagValid) problems.push({ path: ['translations', language], message: `"${language}" is not a BCP 47 language tag (de, de-DE, ar)` });
    for (const index of Object.keys(strings.pages ?? {})) {
      if (!/^\d+$/.test(index) || Number(index) >= definition.pages.length) {
        problems.push({ path: ['translations', language, 'pages', index], message: `the form has no page ${index} (pages are counted from 0; it has ${definition.pages.length})` });
      }
    }
    for (const [handle, field] of Object.entries(strings.fields ?? {})) {
      const target = fields.get(handle);
      if (!target) {
        problems.push({ path: ['translations', language, 'fields', handle], message: `the form has no field "${handle}"` });
        continue;
      }
      const values = optionValues(target);
      for (const value of Object.keys(field.options ?? {})) {
        if (!values?.includes(value)) problems.push({ path: ['translations', language, 'fields', handle, 'options', value], message: `field "${handle}" has no option "${value}"` });
      }
    }
  }
  return problems;
}

/** Every string of the definition a person reads, as `path -> present in this translation`. */
function readStrings(definition: FormDefinition, strings: FormTranslation): [string, boolean][] {
  const list: [string, boolean][] = [['name', strings.name !== undefined]];
  const s = definition.settings;
  list.push(['successMessage', strings.successMessage !== undefined], ['errorMessage', strings.errorMessage !== undefined]);
  if (s.description !== null) list.push(['description', strings.description !== undefined]);
  if (s.loadingText !== null && s.showLoadingText) list.push(['loadingText', strings.loadingText !== undefined]);
  const multiPage = definition.pages.length > 1;
  if (multiPage) definition.pages.forEach((_page, index) => list.push([`pages.${index}`, strings.pages?.[String(index)] !== undefined]));
  list.push(['submitButton', strings.submitButton !== undefined]);
  if (multiPage) list.push(['nextButton', strings.nextButton !== undefined], ['backButton', strings.backButton !== undefined]);
  const saves = definition.pages.some((page) => page.rows.flat().some((field) => field.type === 'submit' && field.enableSaveButton));
  if (saves) list.push(['saveButton', strings.saveButton !== undefined]);
  for (const field of inputFields(definition)) {
    if (field.type === 'hidden') continue;
    const handle = field.handle as string;
    const own = strings.fields?.[handle];
    const source = field as unknown as Record<string, unknown>;
    list.push([`fields.${handle}.label`, own?.label !== undefined]);
    for (const key of ['instructions', 'placeholder', 'message'] as const) {
      if (typeof source[key] === 'string' && source[key] !== '') list.push([`fields.${handle}.${key}`, own?.[key] !== undefined]);
    }
    for (const value of optionValues(field) ?? []) list.push([`fields.${handle}.options.${value}`, own?.options?.[value] !== undefined]);
  }
  return list;
}

/** Per language of the file, the strings it leaves untranslated (they show the form's own). */
export function untranslatedStrings(definition: FormDefinition, translations: FormTranslations): { readonly language: string; readonly paths: readonly string[] }[] {
  return Object.entries(translations)
    .map(([language, strings]) => ({ language, paths: readStrings(definition, strings).filter(([, done]) => !done).map(([path]) => path) }))
    .filter((entry) => entry.paths.length > 0);
}
