/**
 * The REST manifest (contract §2). Built once per form version and kept as serialised bytes with
 * its ETag: a manifest GET is then a header check and a write, which is what lets it run near the
 * speed of a static route.
 */
import { createHash } from 'node:crypto';
import { buildConditionals, type Form, type Page, type SubmitField } from '@svc/core';
import type { SpamFieldNames } from '../security/spam-fields.js';
import type { CaptchaVerifier } from '../security/captcha-verifier.js';
import { FILL_TIMESTAMP_PLACEHOLDER } from '../security/fill-timestamps.js';
import { CSRF_FIELD_NAME } from '../security/csrf-tokens.js';
import { MINIMUM_CLIENT_VERSION, SCHEMA_VERSION, SERVICE_VERSION } from '../version.js';
import { buildManifestField, type ManifestField } from './manifest-fields.js';

export const MANIFEST_MAX_AGE = 300;

export interface ManifestOptions {
  readonly csrfEnabled: boolean;
  readonly spamFields: SpamFieldNames;
  readonly captcha: Pick<CaptchaVerifier, 'activeFor'>;
}

export interface CachedManifest {
  /** The `data` object (the GraphQL headless adapter answers with it). */
  readonly data: ReturnType<typeof buildManifestData>;
  /** The whole response envelope, serialised. */
  readonly body: string;
  /** Strong ETag (quoted); depends on the definition and the config, not on the build time. */
  readonly etag: string;
  /** Whether `body` and `data` hold the fill-timestamp placeholder to splice per response. */
  readonly fillTimestamp: boolean;
}

/** The manifest body with this response's fill timestamp in place of the placeholder. */
export function manifestBody(manifest: CachedManifest, timestamp: () => string): string {
  return manifest.fillTimestamp ? manifest.body.replace(FILL_TIMESTAMP_PLACEHOLDER, timestamp()) : manifest.body;
}

/** The manifest data with this response's fill timestamp (the GraphQL headless adapter). */
export function manifestData(manifest: CachedManifest, timestamp: () => string): CachedManifest['data'] {
  if (!manifest.fillTimestamp) return manifest.data;
  return JSON.parse(manifestBody(manifest, timestamp)).data as CachedManifest['data'];
}

export function formEndpoints(form: Form) {
  const base = `/svc/api/forms/${form.handle}`;
  return {
    manifest: { method: 'GET', url: `${base}/manifest` },
    submit: { method: 'POST', url: `${base}/submit`, encodings: ['application/json', 'multipart/form-data'] },
  };
}

function pageButtons(form: Form, page: Page) {
  const submit = page.rows.flatMap((row) => row.fields).find((f) => f.type === 'submit') as SubmitField | undefined;
  const isLast = page.index === form.pages.length - 1;
  const label = isLast ? (submit?.label ?? 'Submit') : (submit?.labelNext ?? 'Next');
  const back = page.index > 0 && !submit?.disablePrev ? { label: submit?.labelPrev ?? 'Back' } : null;
  return { submit: { label, position: submit?.position ?? null }, back, save: null };
}

function buildLayout(form: Form) {
  return {
    pages: form.pages.map((page) => ({
      index: page.index,
      uid: page.uid,
      label: page.label,
      buttons: pageButtons(form, page),
      rows: page.rows
        .map((row) => ({ id: row.id, fields: row.fields.filter((f) => f.handle !== null).map((f) => f.handle as string) }))
        .filter((row) => row.fields.length > 0),
    })),
  };
}

function buildSecurity(form: Form, options: ManifestOptions) {
  const security: Record<string, unknown> = {};
  if (options.csrfEnabled) {
    security.csrf = {
      required: true,
      tokenEndpoint: '/svc/tokens',
      name: CSRF_FIELD_NAME,
      submitAs: { json: 'header', multipart: 'field' },
      header: 'X-CSRF-Token',
    };
  }
  if (form.settings.spam.honeypot || form.settings.spam.minimumFillSeconds > 0) {
    // The timestamp differs per response; the cached bytes hold a placeholder (fill-timestamps.ts).
    security.honeypot =
      form.settings.spam.minimumFillSeconds > 0
        ? { name: options.spamFields.honeypotName(form), timestamp: FILL_TIMESTAMP_PLACEHOLDER }
        : { name: options.spamFields.honeypotName(form) };
  }
  if (form.settings.spam.javascriptTest) {
    security.javascriptTest = {
      name: options.spamFields.javascriptTestName(form),
      value: options.spamFields.javascriptTestValue(form),
    };
  }
  // Only a captcha with keys configured is listed (and then required): contract §2.
  const captcha = options.captcha.activeFor(form);
  // scriptUrl is what the element loads; reCAPTCHA v3 also names the action tokens are asked for.
  security.captchas = captcha ? [{ ...captcha }] : [];
  return security;
}

export function buildManifestData(form: Form, options: ManifestOptions, generatedAt: string) {
  const fields: Record<string, ManifestField> = {};
  for (const field of form.fields) fields[field.handle as string] = buildManifestField(field, form.fieldsByHandle);
  const s = form.settings;
  return {
    schemaVersion: SCHEMA_VERSION,
    pluginVersion: SERVICE_VERSION,
    minimumClientVersion: MINIMUM_CLIENT_VERSION,
    generatedAt,
    form: { id: form.id, uid: form.uid, handle: form.handle, name: form.name, hash: form.hash, multiPage: form.pages.length > 1 },
    endpoints: {
      ...formEndpoints(form),
      csrf: { method: 'GET', url: '/svc/tokens', required: options.csrfEnabled },
    },
    settings: {
      ajaxEnabled: s.ajaxEnabled,
      successBehavior: s.successBehavior,
      successMessage: s.successMessage,
      errorMessage: s.errorMessage,
      returnUrl: s.returnUrl,
      description: s.description,
      color: s.color,
      showSpinner: s.showSpinner,
      showLoadingText: s.showLoadingText,
      loadingText: s.loadingText,
      disableSubmit: s.disableSubmit,
      disableReset: s.disableReset,
      formTemplate: s.formTemplate,
      gtm: s.gtmEnabled ? { id: s.gtmId, eventName: s.gtmEventName } : null,
      enctype: form.fields.some((f) => f.type === 'file') ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
    },
    layout: buildLayout(form),
    fields,
    conditionals: buildConditionals(form),
    security: buildSecurity(form, options),
    cache: { visibility: 'public', maxAge: MANIFEST_MAX_AGE },
    metadata: {},
  };
}

export function createManifestCache(options: ManifestOptions, now: () => Date = () => new Date()) {
  const cache = new WeakMap<Form, CachedManifest>();
  return {
    get(form: Form): CachedManifest {
      let entry = cache.get(form);
      if (!entry) {
        const data = buildManifestData(form, options, now().toISOString());
        const { generatedAt: _omit, ...stable } = data;
        const etag = `"${createHash('sha256').update(JSON.stringify(stable)).digest('base64url').slice(0, 27)}"`;
        const body = JSON.stringify({ success: true, data, meta: { pluginVersion: SERVICE_VERSION } });
        entry = { data, body, etag, fillTimestamp: body.includes(FILL_TIMESTAMP_PLACEHOLDER) };
        cache.set(form, entry);
      }
      return entry;
    },
  };
}
export type ManifestCache = ReturnType<typeof createManifestCache>;
