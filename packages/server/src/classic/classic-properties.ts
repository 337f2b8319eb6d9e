/**
 * The form-properties JSON (interface.md §2.10, contract §10) a server-side renderer reads to draw
 * a plain `<form>`: every key of §2.10 under its own name, and, so one call is enough, the page to
 * draw now (its rows and fields in the manifest's field shape) with the values and errors to show.
 * The per-visitor parts (hash, payload, CSRF, honeypot) are also served alone by a no-store route,
 * so a site may cache the rest with its page.
 */
import type { Form } from '@svc/core';
import type { CachedManifest } from '../forms/manifest-builder.js';
import type { CsrfTokens } from '../security/csrf-tokens.js';
import { CSRF_FIELD_NAME } from '../security/csrf-tokens.js';
import type { SpamFieldNames } from '../security/spam-fields.js';
import { CLASSIC_ACTION } from './classic-entries.js';
import type { ClassicFlash } from './classic-flash.js';
import type { ClassicStorage } from './classic-carrier.js';
import type { ClassicPayload, ClassicSeals } from './classic-payload.js';

export interface ClassicRenderDeps {
  readonly seals: ClassicSeals;
  readonly storage: ClassicStorage;
  readonly csrf: CsrfTokens | null;
  readonly spamFields: SpamFieldNames;
  /** Where the page posts: `/svc/submit` on this service. */
  readonly actionUrl: string;
  readonly now: () => Date;
}

/** What the page is drawn with: a fresh form, or the state a post handed back (a flash). */
export interface ClassicView {
  readonly payload: ClassicPayload;
  /** What the page carries for it: the sealed payload, or the stored session's id. */
  readonly carried: string;
  readonly pageIndex: number;
  readonly flash: ClassicFlash | null;
}

type ManifestData = CachedManifest['data'];

/** The CSRF input of a rendered form, bound to its payload: no svc cookie reaches the browser first. */
export function classicCsrf(deps: Pick<ClassicRenderDeps, 'csrf' | 'seals'>, payload: ClassicPayload): { name: string; token: string } | null {
  return deps.csrf ? { name: CSRF_FIELD_NAME, token: deps.seals.csrfToken(payload) } : null;
}

/**
 * The parts of the JSON that differ for every visitor and step.
 *
 * @example
 * const fresh = visitorParts(deps, form, manifest, { payload, pageIndex: 0, flash: null });
 * // { hash, svc_payload, csrf: {name, token}, honeypot: {name, value: ''} }
 */
export function visitorParts(deps: ClassicRenderDeps, form: Form, view: ClassicView) {
  const honeypotName = form.settings.spam.honeypot ? deps.spamFields.honeypotName(form) : null;
  const csrf = classicCsrf(deps, view.payload);
  const stored = deps.storage === 'database';
  return {
    hash: deps.seals.formHash(form, view.pageIndex, stored ? view.carried : null),
    // interface.md §2.10: present when the session storage type is the encrypted payload.
    ...(stored ? {} : { svc_payload: view.carried }),
    ...(csrf ? { csrf } : {}),
    ...(honeypotName ? { honeypot: { name: honeypotName, value: '' } } : {}),
  };
}

export function buildClassicProperties(deps: ClassicRenderDeps, form: Form, manifest: ManifestData, view: ClassicView) {
  const s = form.settings;
  const page = manifest.layout.pages[view.pageIndex] ?? manifest.layout.pages[0];
  const handles = (page?.rows ?? []).flatMap((row) => row.fields);
  const fields = Object.fromEntries(handles.flatMap((handle) => (manifest.fields[handle] ? [[handle, manifest.fields[handle]]] : [])));
  const captcha = (manifest.security as { captchas?: readonly ({ name: string; handle: string } & Record<string, unknown>)[] }).captchas?.[0];
  const mailingLists = form.fields.filter((f) => f.type === 'mailingList').map((f) => f.handle as string);
  const files = Object.values(fields).some((f) => f.type === 'file' || f.type === 'file-dnd');
  const flash = view.flash;
  return {
    ...visitorParts(deps, form, view),
    handle: form.handle,
    // `ajax` is the older name of `ajaxEnabled` (interface.md §2.10).
    ajax: s.ajaxEnabled,
    ajaxEnabled: s.ajaxEnabled,
    disableSubmit: s.disableSubmit,
    disableReset: s.disableReset,
    showSpinner: s.showSpinner,
    showLoadingText: s.showLoadingText,
    loadingText: s.loadingText ?? '',
    class: `svc-form svc-form-${form.handle}`,
    method: 'post',
    enctype: files ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
    successMessage: s.successMessage,
    errorMessage: s.errorMessage,
    anchor: `${form.handle}-form`,
    action: CLASSIC_ACTION,
    /** Not in §2.10: the URL the `<form>` posts to (the `action` entry names the handler). */
    actionUrl: deps.actionUrl,
    // §2.10's {enabled, handle, name}, plus what a template needs to draw the widget (provider, site key, script).
    ...(captcha ? { captcha: { ...captcha, enabled: true, handle: captcha.handle, name: captcha.name } } : {}),
    ...(mailingLists.length > 0 ? { mailingListName: mailingLists } : {}),
    // So a server renderer needs one call: the page to draw, what to show in it, and where it is.
    page: { index: page?.index ?? 0, label: page?.label ?? '', buttons: page?.buttons ?? null, rows: page?.rows ?? [], fields },
    pageCount: manifest.layout.pages.length,
    values: flash?.values ?? {},
    errors: flash?.errors ?? {},
    formErrors: flash?.formErrors ?? [],
    finished: flash?.finished ?? false,
    message: flash?.message ?? null,
    submissionId: flash?.submissionId ?? null,
    draft: flash?.draft ?? null,
  };
}
