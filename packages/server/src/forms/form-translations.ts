/**
 * A form file's `translations` (issue #34): per language, the strings a person reads, keyed as the
 * form file names them (field handles, option values, page indexes). A site reads its form through
 * the best-matching language; every string a translation leaves out falls back to the form's own,
 * so a half-translated form is never blank.
 */
import type { Field, FieldOption, Form, OpinionScale, Page } from '@svc/core';

export interface FieldTranslation {
  readonly label?: string;
  readonly instructions?: string;
  readonly placeholder?: string;
  /** A regex field's `message`, shown when the pattern does not match. */
  readonly message?: string;
  /** Option (or opinion-scale) value -> label. */
  readonly options?: Readonly<Record<string, string>>;
}

export interface FormTranslation {
  readonly name?: string;
  readonly description?: string;
  readonly successMessage?: string;
  readonly errorMessage?: string;
  readonly loadingText?: string;
  /** Page index (as the manifest's `layout.pages[].index`, from 0) -> label. */
  readonly pages?: Readonly<Record<string, string>>;
  readonly fields?: Readonly<Record<string, FieldTranslation>>;
  /** The submit fields' labels: submit (last page), next (earlier pages), back, save and continue later. */
  readonly submitButton?: string;
  readonly nextButton?: string;
  readonly backButton?: string;
  readonly saveButton?: string;
}

/** Language tag as written in the form file -> its strings. */
export type FormTranslations = Readonly<Record<string, FormTranslation>>;

/**
 * The translation for `language`: the exact tag, else the tag shortened a subtag at a time
 * (`de-DE` takes `de`), compared case-insensitively as BCP 47 tags are. Null when none matches.
 * Email templates pick their language variants the same way (notifications/email-template-files.ts).
 */
export function pickTranslation<T = FormTranslation>(translations: Readonly<Record<string, T>>, language: string): { readonly tag: string; readonly strings: T } | null {
  const byLower = new Map(Object.keys(translations).map((tag) => [tag.toLowerCase(), tag]));
  const parts = language.toLowerCase().split('-');
  for (let length = parts.length; length > 0; length -= 1) {
    const tag = byLower.get(parts.slice(0, length).join('-'));
    if (tag !== undefined) return { tag, strings: translations[tag] as T };
  }
  return null;
}

function translateOptions<T extends FieldOption | OpinionScale>(options: readonly T[], labels: Readonly<Record<string, string>> | undefined): readonly T[] {
  if (!labels) return options;
  return options.map((option) => (labels[option.value] === undefined ? option : { ...option, label: labels[option.value] as string }));
}

/** A field with its translated strings; only strings the field has are replaced, none are added. */
function translateField(field: Field, form: FormTranslation): Field {
  const source = field as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { ...source };
  if (field.type === 'submit') {
    if (form.submitButton !== undefined) out.label = form.submitButton;
    if (form.nextButton !== undefined) out.labelNext = form.nextButton;
    if (form.backButton !== undefined) out.labelPrev = form.backButton;
    if (form.saveButton !== undefined) out.saveButtonLabel = form.saveButton;
    return out as unknown as Field;
  }
  const strings = form.fields?.[field.handle as string];
  if (!strings) return field;
  if (strings.label !== undefined) out.label = strings.label;
  for (const key of ['instructions', 'placeholder', 'message'] as const) {
    if (strings[key] !== undefined && typeof source[key] === 'string') out[key] = strings[key];
  }
  if ('options' in field) out.options = translateOptions(field.options, strings.options);
  if (field.type === 'opinionScale') out.scales = translateOptions(field.scales, strings.options);
  return out as unknown as Field;
}

/** The form as a site in that language reads it: same identities and rules, translated strings. */
export function translateForm(form: Form, strings: FormTranslation): Form {
  const fields: Field[] = [];
  const pages: Page[] = form.pages.map((page) => ({
    ...page,
    label: strings.pages?.[String(page.index)] ?? page.label,
    rows: page.rows.map((row) => ({
      ...row,
      fields: row.fields.map((field) => {
        const translated = translateField(field, strings);
        if (translated.type !== 'submit') fields.push(translated);
        return translated;
      }),
    })),
  }));
  const s = form.settings;
  return {
    ...form,
    name: strings.name ?? form.name,
    settings: {
      ...s,
      successMessage: strings.successMessage ?? s.successMessage,
      errorMessage: strings.errorMessage ?? s.errorMessage,
      description: s.description === null ? null : (strings.description ?? s.description),
      loadingText: s.loadingText === null ? null : (strings.loadingText ?? s.loadingText),
    },
    pages,
    fields,
    fieldsByHandle: new Map(fields.map((field) => [field.handle as string, field])),
  };
}

/**
 * Translated forms per language, made once per form version: the manifest cache and the submit
 * path key on the Form object, so a site must get the same object on every request.
 */
export function createFormLocalizer(translationsOf: (form: Form) => FormTranslations | undefined) {
  const cache = new WeakMap<Form, Map<string, Form>>();
  return (form: Form, language: string): Form => {
    const translations = translationsOf(form);
    if (!translations) return form;
    let byLanguage = cache.get(form);
    if (!byLanguage) {
      byLanguage = new Map();
      cache.set(form, byLanguage);
    }
    let localized = byLanguage.get(language);
    if (!localized) {
      const picked = pickTranslation(translations, language);
      localized = picked ? translateForm(form, picked.strings) : form;
      byLanguage.set(language, localized);
    }
    return localized;
  };
}
export type FormLocalizer = ReturnType<typeof createFormLocalizer>;
