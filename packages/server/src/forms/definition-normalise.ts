/**
 * Turns schema-valid file data into the `FormDefinition` model: settings completed with their
 * defaults, the `fields` single-page shortcut and `{fields: [...]}` rows expanded, option and
 * scale strings expanded into objects, numbers stored as strings. Properties that were not
 * written stay absent; only `rules` is always present (null when not written).
 */
import type {
  FieldDefinition,
  FieldOption,
  FormDefinition,
  FormSettings,
  OpinionScale,
  PageDefinition,
  RecipientOption,
  TableColumn,
} from '@svc/core';
import type { PathSegments } from './definition-problems.js';
import type { RawColumn, RawField, RawFormFile, RawOption, RawRow } from './definition-schema.js';

/** The settings a definition gets for every key it does not write (interface.md §2.1). */
export const DEFAULT_FORM_SETTINGS: FormSettings = {
  description: null,
  color: null,
  returnUrl: null,
  storeData: true,
  submissionTitleFormat: '{{ dateCreated }}',
  extraPostUrl: null,
  extraPostTriggerPhrase: null,
  ipCollectingEnabled: false,
  ajaxEnabled: true,
  showSpinner: true,
  showLoadingText: false,
  loadingText: null,
  defaultStatus: 'open',
  formTemplate: null,
  gtmEnabled: false,
  gtmId: null,
  gtmEventName: null,
  successBehavior: 'message',
  successMessage: 'Thanks, your submission was received.',
  errorMessage: 'Please correct the errors below.',
  disableSubmit: true,
  disableReset: false,
  saveRedirectUrl: null,
  spam: { honeypot: true, javascriptTest: false, behavior: 'simulate_success', blockedKeywords: [], blockedEmails: [], blockedIps: [], minimumFillSeconds: 0 },
  limits: { total: null, perIp: null },
  captcha: { enabled: false, provider: null },
  notifications: { admin: [], webhooks: [] },
  purgeAfterDays: null,
  hostedPage: false,
  hostedIndexable: false,
  hostedTheme: null,
};

export const DEFAULT_SUBMIT_LABEL = 'Submit';

/** A field of the normalised definition and where it was written in the file. */
export interface FieldLocation {
  readonly field: FieldDefinition;
  readonly pageIndex: number;
  readonly path: PathSegments;
}

export interface NormalisedDefinition {
  readonly definition: FormDefinition;
  /** Every field in definition order, submit fields included. */
  readonly fields: readonly FieldLocation[];
  /** Where each page was written; null for the page made from the `fields` shortcut. */
  readonly pagePaths: readonly (PathSegments | null)[];
}

/** `handle` is the file's handle when the data has none (the file name without extension). */
export function normaliseDefinition(data: RawFormFile, fallbackHandle: string): NormalisedDefinition {
  const fields: FieldLocation[] = [];
  const pagePaths: (PathSegments | null)[] = [];
  const pages: PageDefinition[] = [];

  if (data.pages) {
    data.pages.forEach((page, pageIndex) => {
      const pagePath = ['pages', pageIndex];
      pagePaths.push(pagePath);
      const rows = page.rows.map((row, rowIndex) =>
        rowFields(row, [...pagePath, 'rows', rowIndex]).map(({ raw, path }) => {
          const field = normaliseField(raw);
          fields.push({ field, pageIndex, path });
          return field;
        }),
      );
      pages.push({ label: page.label ?? `Page ${pageIndex + 1}`, rows, rules: page.rules ?? null });
    });
  } else {
    // The shortcut: one page, one field per row.
    pagePaths.push(null);
    const rows = (data.fields ?? []).map((raw, index) => {
      const field = normaliseField(raw);
      fields.push({ field, pageIndex: 0, path: ['fields', index] });
      return [field];
    });
    pages.push({ label: 'Page 1', rows, rules: null });
  }

  const definition: FormDefinition = {
    ...(data.uid !== undefined ? { uid: data.uid } : {}),
    handle: data.handle ?? fallbackHandle,
    name: data.name,
    settings: normaliseSettings(data.settings ?? {}),
    pages,
  };
  return { definition, fields, pagePaths };
}

function rowFields(row: RawRow, rowPath: PathSegments): { raw: RawField; path: PathSegments }[] {
  if (isFieldList(row)) return row.map((raw, index) => ({ raw, path: [...rowPath, index] }));
  return row.fields.map((raw, index) => ({ raw, path: [...rowPath, 'fields', index] }));
}

function isFieldList(row: RawRow): row is readonly RawField[] {
  return Array.isArray(row);
}

function normaliseSettings(raw: Readonly<Record<string, unknown>>): FormSettings {
  // The schema checked every key and type, so spreading over the defaults yields FormSettings.
  const spam = { ...DEFAULT_FORM_SETTINGS.spam, ...(raw['spam'] as object | undefined) };
  const captcha = { ...DEFAULT_FORM_SETTINGS.captcha, ...(raw['captcha'] as object | undefined) };
  const limits = { ...DEFAULT_FORM_SETTINGS.limits, ...(raw['limits'] as object | undefined) };
  const written = (raw['notifications'] ?? {}) as { admin?: { to: string | string[]; template?: string }[]; webhooks?: { url: string }[] };
  const notifications = {
    admin: (written.admin ?? []).map((a) => ({ to: typeof a.to === 'string' ? [a.to] : a.to, template: a.template ?? 'default' })),
    webhooks: written.webhooks ?? [],
  };
  return { ...DEFAULT_FORM_SETTINGS, ...raw, spam, captcha, limits, notifications } as FormSettings;
}

function normaliseField(raw: RawField): FieldDefinition {
  const { type, handle, label, rules, ...rest } = raw;
  const out: Record<string, unknown> = {
    type,
    handle: type === 'submit' ? null : handle,
    label: label ?? DEFAULT_SUBMIT_LABEL,
    ...rest,
    rules: rules ?? null,
  };
  if (raw.value !== undefined) out['value'] = String(raw.value);
  if (raw.values !== undefined) out['values'] = raw.values.map(String);
  if (raw.options !== undefined) {
    out['options'] =
      type === 'dynamicRecipients' ? raw.options.map(normaliseRecipientOption) : raw.options.map(normaliseOption);
  }
  if (raw.scales !== undefined) out['scales'] = raw.scales.map(normaliseScale);
  if (raw.columns !== undefined) out['columns'] = raw.columns.map(normaliseColumn);
  // Gateways and the manifest use lower-case ISO codes; authors write `USD` as often as `usd`.
  if (type === 'payment' && typeof raw['currency'] === 'string') out['currency'] = raw['currency'].toLowerCase();
  // The schema allowed exactly the properties of `type`, so this record is that type's shape.
  return out as unknown as FieldDefinition;
}

function normaliseOption(option: RawOption): FieldOption {
  if (typeof option !== 'object') return { value: String(option), label: String(option), checked: false };
  const value = String(option.value);
  return { value, label: option.label ?? value, checked: option.checked ?? false };
}

function normaliseRecipientOption(option: RawOption): RecipientOption {
  const base = normaliseOption(option);
  // The schema requires `recipients` on every dynamicRecipients option object.
  const recipients = typeof option === 'object' ? (option.recipients ?? []) : [];
  return { ...base, recipients: typeof recipients === 'string' ? [recipients] : [...recipients] };
}

function normaliseScale(scale: RawOption): OpinionScale {
  const { value, label } = normaliseOption(scale);
  return { value, label };
}

function normaliseColumn(column: RawColumn): TableColumn {
  return {
    label: column.label,
    type: column.type,
    ...(column.value !== undefined ? { value: String(column.value) } : {}),
    ...(column.options !== undefined ? { options: column.options.map(String) } : {}),
    ...(column.required !== undefined ? { required: column.required } : {}),
    ...(column.fileKinds !== undefined ? { fileKinds: column.fileKinds } : {}),
    ...(column.maxFileSizeKB !== undefined ? { maxFileSizeKB: column.maxFileSizeKB } : {}),
    ...(column.fileCount !== undefined ? { fileCount: column.fileCount } : {}),
  };
}
