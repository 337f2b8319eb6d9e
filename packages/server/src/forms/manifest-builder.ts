/**
 * The REST manifest (contract §2). Built once per form version and kept as serialised bytes with
 * its ETag: a manifest GET is then a header check and a write, which is what lets it run near the
 * speed of a static route.
 */
import { createHash } from 'node:crypto';
import { FIELD_MESSAGES, buildConditionals, fieldMessages, formatMessage, type Form, type Page, type SubmitField } from '@svc/core';
import type { SpamFieldNames } from '../security/spam-fields.js';
import type { ActiveCaptcha, CaptchaVerifier } from '../security/captcha-verifier.js';
import { FILL_TIMESTAMP_PLACEHOLDER, FILL_TIMESTAMP_SEPARATOR } from '../security/fill-timestamps.js';
import { CSRF_FIELD_NAME } from '../security/csrf-tokens.js';
import { MINIMUM_CLIENT_VERSION, SCHEMA_VERSION, SERVICE_VERSION } from '../version.js';
import { buildManifestField, type ManifestField } from './manifest-fields.js';
import { paymentEndpoints, paymentFieldOf, type PaymentManifestOptions } from '../payments/payment-manifest.js';
import { requiredExtensions } from './manifest-frontend.js';
import type { Site } from '../sites/site-registry.js';

export const MANIFEST_MAX_AGE = 300;

/**
 * Sent by svc's own pages when they read a form's parts for something other than a person's new
 * journey (the hosted page's no-JavaScript fallback): no view is counted for it (issue #38).
 * Anyone may send it; it only leaves their own view uncounted.
 */
export const NOT_A_VIEW_HEADER = 'x-svc-not-a-view';

export interface ManifestOptions {
  readonly csrfEnabled: boolean;
  readonly spamFields: SpamFieldNames;
  readonly captcha: Pick<CaptchaVerifier, 'activeFor'>;
  /** `files.maxFileSizeKB`: no field takes more, whatever it says. */
  readonly fileCeilingKB: number;
  /** `server.publicUrl`: the site's base URL (`site.baseUrl`), or '' to let clients use their own. */
  readonly publicUrl: string | null;
  /** The site of requests that name none (issue #34); absent: `default` in en-US at publicUrl. */
  readonly defaultSite?: Site;
  /** Keys and URLs a payment field's client needs (issue #12); null when payments are off. */
  readonly payments?: PaymentManifestOptions | null;
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
  /** `body` in UTF-8, cut at each placeholder (one piece when it has none). */
  readonly bodyPieces: readonly Buffer[];
}

/** The manifest body with this response's fill timestamp in place of the placeholder. */
export function manifestBody(manifest: CachedManifest, timestamp: () => string): string {
  if (!manifest.fillTimestamp) return manifest.body;
  // One timestamp per response, wherever the placeholder stands (honeypot and javascript test).
  const stamp = timestamp();
  return manifest.body.replaceAll(FILL_TIMESTAMP_PLACEHOLDER, stamp);
}

/** The last bytes spliced per manifest: responses in the same millisecond share a timestamp. */
const spliced = new WeakMap<CachedManifest, { readonly stamp: string; readonly bytes: Buffer }>();

/**
 * The manifest body as bytes, with this response's fill timestamp between the pieces. Spliced
 * from bytes encoded once: `replaceAll` makes a string of joined parts, which the socket write
 * then flattens and encodes on every response (2.1 µs against 0.9 for the 3.9 KB contact
 * manifest, micro-benchmark, issue #17). Nothing writes to a response's bytes, so responses with
 * the same timestamp share them.
 */
export function manifestBytes(manifest: CachedManifest, timestamp: () => string): Buffer {
  const pieces = manifest.bodyPieces;
  if (pieces.length === 1) return pieces[0] as Buffer;
  const stamp = timestamp();
  const previous = spliced.get(manifest);
  if (previous?.stamp === stamp) return previous.bytes;
  const stampBytes = Buffer.from(stamp);
  const list: Buffer[] = [];
  for (let i = 0; i < pieces.length; i += 1) {
    if (i > 0) list.push(stampBytes);
    list.push(pieces[i] as Buffer);
  }
  const bytes = Buffer.concat(list);
  spliced.set(manifest, { stamp, bytes });
  return bytes;
}

/** The manifest data with this response's fill timestamp (the GraphQL headless adapter). */
export function manifestData(manifest: CachedManifest, timestamp: () => string): CachedManifest['data'] {
  if (!manifest.fillTimestamp) return manifest.data;
  return JSON.parse(manifestBody(manifest, timestamp)).data as CachedManifest['data'];
}

export function formEndpoints(form: Form) {
  const base = `/svc/api/forms/${form.handle}`;
  // Plain file inputs travel only in a multipart submit; everything else is JSON.
  const multipart = form.fields.some((f) => f.type === 'file' && !f.dragAndDrop);
  return {
    manifest: { method: 'GET', url: `${base}/manifest` },
    submit: {
      method: 'POST',
      url: `${base}/submit`,
      encodings: ['application/json', 'multipart/form-data'],
      defaultEncoding: multipart ? 'multipart/form-data' : 'application/json',
    },
  };
}

function submitFieldOf(page: Page): SubmitField | undefined {
  return page.rows.flatMap((row) => row.fields).find((f) => f.type === 'submit') as SubmitField | undefined;
}

/**
 * Buttons as the official clients read them: `submit` on every page (its label is the Next
 * button's on earlier pages), `back`, `save` when a submit field enables it, and `next` null.
 */
function pageButtons(form: Form, page: Page, language: string) {
  const submit = submitFieldOf(page);
  const isLast = page.index === form.pages.length - 1;
  // A label the form leaves out is the catalogue's, in the site's language (issue #34); the
  // catalogue has no word for Next yet, so that one stays English until a form translates it.
  const label = isLast ? (submit?.label ?? formatMessage(language, 'element.submit')) : (submit?.labelNext ?? 'Next');
  const back = page.index > 0 && !submit?.disablePrev ? { label: submit?.labelPrev ?? formatMessage(language, 'element.back') } : null;
  // Save and continue is a form-wide offer: the page's own submit field, else the first that enables it.
  const saver = submit?.enableSaveButton ? submit : form.pages.map(submitFieldOf).find((f) => f?.enableSaveButton);
  const save = saver ? { label: saver.saveButtonLabel ?? formatMessage(language, 'element.saveLater') } : null;
  return { submit: { label, position: submit?.position ?? null }, back, save, next: null };
}

function buildLayout(form: Form, language: string) {
  return {
    pages: form.pages.map((page) => ({
      // Freeform numbers pages; svc's are known by index, so the id is the index counted from 1.
      id: page.index + 1,
      index: page.index,
      uid: page.uid,
      label: page.label,
      buttons: pageButtons(form, page, language),
      rows: page.rows
        .map((row) => ({ id: row.id, uid: row.id, fields: row.fields.filter((f) => f.handle !== null).map((f) => f.handle as string) }))
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
    const value = options.spamFields.javascriptTestValue(form);
    security.javascriptTest = {
      name: options.spamFields.javascriptTestName(form),
      // The official clients echo this value but not the honeypot's timestamp (contract §12), so
      // with a minimum fill time the value carries the timestamp too.
      value: form.settings.spam.minimumFillSeconds > 0 ? `${value}${FILL_TIMESTAMP_SEPARATOR}${FILL_TIMESTAMP_PLACEHOLDER}` : value,
    };
  }
  // Only a captcha with keys configured is listed (and then required): contract §2.
  const captcha = options.captcha.activeFor(form);
  security.captchas = captcha ? [manifestCaptcha(captcha)] : [];
  return security;
}

/**
 * A captcha as Freeform 5 describes it (contract §12): the official extensions match `provider`
 * exactly (`recaptcha`, with `version` v2-checkbox or v3) and post the token under `name`.
 * `scriptUrl` is what <svc-form> loads; reCAPTCHA v3 also names the action tokens are asked for.
 */
function manifestCaptcha(captcha: ActiveCaptcha) {
  const { provider, ...rest } = captcha;
  const shape =
    provider === 'recaptchaV2' ? { provider: 'recaptcha', version: 'v2-checkbox' }
    : provider === 'recaptchaV3' ? { provider: 'recaptcha', version: 'v3' }
    : { provider, version: null };
  return { ...shape, ...rest, enabled: true, handle: 'captcha' };
}

/** The manifest's `site` block (contract §2), in the key order the official clients have always read. */
function siteBlock(site: Site | undefined, options: ManifestOptions) {
  if (!site) return { id: 1, handle: 'default', language: 'en-US', baseUrl: options.publicUrl ?? '' };
  return { id: site.id, handle: site.handle, language: site.language, baseUrl: site.baseUrl };
}

export function buildManifestData(form: Form, options: ManifestOptions, generatedAt: string, site: Site | undefined = options.defaultSite) {
  const language = site?.language ?? 'en-US';
  const messages = site ? fieldMessages(language) : FIELD_MESSAGES;
  const fields: Record<string, ManifestField> = {};
  for (const field of form.fields) fields[field.handle as string] = buildManifestField(form, field, options.fileCeilingKB, options.payments ?? null, messages);
  const s = form.settings;
  const multiPage = form.pages.length > 1;
  return {
    schemaVersion: SCHEMA_VERSION,
    pluginVersion: SERVICE_VERSION,
    minimumClientVersion: MINIMUM_CLIENT_VERSION,
    generatedAt,
    // The site served (issue #34): `?site=` names it, the default serves requests that name none.
    site: siteBlock(site, options),
    form: { id: form.id, uid: form.uid, handle: form.handle, name: form.name, hash: form.hash, type: 'regular', multiPage },
    endpoints: {
      ...formEndpoints(form),
      csrf: { method: 'GET', url: '/svc/tokens', required: options.csrfEnabled },
      ...(paymentFieldOf(form) ? { payments: paymentEndpoints(form) } : {}),
    },
    settings: {
      multiPage,
      ajax: s.ajaxEnabled,
      mode: 'public',
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
    layout: buildLayout(form, language),
    fields,
    conditionals: buildConditionals(form),
    security: buildSecurity(form, options),
    cache: { visibility: 'public', maxAge: MANIFEST_MAX_AGE },
    requiredExtensions: requiredExtensions(Object.values(fields).map((f) => f.frontend)),
    metadata: {},
  };
}

export function createManifestCache(options: ManifestOptions, now: () => Date = () => new Date()) {
  const cache = new WeakMap<Form, CachedManifest>();
  // Other sites' manifests, per form and site handle: a form without translations is the same
  // Form object on every site, and each site's manifest (its `site` block, its ETag) differs.
  const bySite = new WeakMap<Form, Map<string, CachedManifest>>();
  const build = (form: Form, site: Site | undefined): CachedManifest => {
    const data = buildManifestData(form, options, now().toISOString(), site);
    const { generatedAt: _omit, ...stable } = data;
    const etag = `"${createHash('sha256').update(JSON.stringify(stable)).digest('base64url').slice(0, 27)}"`;
    const body = JSON.stringify({ success: true, data, meta: { pluginVersion: SERVICE_VERSION } });
    const bodyPieces = body.split(FILL_TIMESTAMP_PLACEHOLDER).map((piece) => Buffer.from(piece));
    return { data, body, etag, fillTimestamp: bodyPieces.length > 1, bodyPieces };
  };
  return {
    /** The manifest of `form` (already translated for the site) on `site`; absent: the default site. */
    get(form: Form, site?: Site): CachedManifest {
      if (!site || site === options.defaultSite) {
        let entry = cache.get(form);
        if (!entry) {
          entry = build(form, options.defaultSite);
          cache.set(form, entry);
        }
        return entry;
      }
      let sites = bySite.get(form);
      if (!sites) {
        sites = new Map();
        bySite.set(form, sites);
      }
      let entry = sites.get(site.handle);
      if (!entry) {
        entry = build(form, site);
        sites.set(site.handle, entry);
      }
      return entry;
    },
    /**
     * A manifest handed to a client that does not hold it yet, for a journey not under way: one
     * view in insights (issue #38). The transport says when (a 304, or the next page of a classic
     * journey, is none); insights replace this (insights-feature countViews), the cache counts nothing.
     * `at` is the request's clock reading when the transport has one already.
     */
    view(_form: Form, _site?: Site, _at?: Date): void {},
  };
}
export type ManifestCache = ReturnType<typeof createManifestCache>;
