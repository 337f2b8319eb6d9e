/**
 * A signed profile link without JavaScript (issue #36 item 4). The page of a `requiresSignedToken`
 * profile draws, inside `<svc-form>`, a plain form from the manifest's layout with the link's
 * context applied (its default and locked values filled in). It posts to the page's own address,
 * whose query carries the link's token and properties, and goes through the profile submit every
 * transport shares (profile-submit.ts): locked and hidden values forced, the profile recorded, a
 * single-use link spent in the submission's transaction. The signed link stands in for CSRF, as
 * it does for the JSON submit. A form of several pages carries its state token from page to page.
 *
 * Not drawn for a profile that needs a bearer token (a page without a script cannot send one) or
 * an open one (it would need a CSRF cookie first): those pages need JavaScript, as before.
 */
import type { Form, ManifestField } from '@svc/core';
import type { CachedManifest } from '../forms/manifest-builder.js';
import { CSRF_FIELD_NAME } from '../security/csrf-tokens.js';
import type { SpamFieldNames } from '../security/spam-fields.js';
import { entryValue, readClassicPost, type Entries } from '../classic/classic-entries.js';
import type { SubmitRequest } from '../submissions/submit-request.js';
import type { ResolvedProfile } from '../profiles/profile-registry.js';
import type { ClassicPageProperties } from '../demo/demo-classic-page.js';
import type { FallbackForm } from './hosted-fallback.js';

/** The hidden inputs the form carries back (none is trusted: the state token and fill timestamp are signed). */
const STATE = 'svc_state';
const FILL = 'svc_fill';
const PAGE = 'svc_page';

/** Whether a profile's page can work without JavaScript: a signed link that accepts submissions. */
export function hasProfileFallback(profile: ResolvedProfile): boolean {
  return profile.config.requiresSignedToken && !profile.config.requiresAuth && profile.config.allowSubmit;
}

/** Where a profile link's form stands: the page to draw and what to show on it. */
export interface ProfileFormState {
  readonly pageIndex: number;
  readonly values: Readonly<Record<string, unknown>>;
  /** The link was just opened: fields the context leaves empty show their own defaults. */
  readonly fresh: boolean;
  readonly errors: Readonly<Record<string, readonly string[]>>;
  readonly formErrors: readonly string[];
  readonly stateToken: string | null;
  /** The signed fill timestamp of the page's first drawing (the honeypot's minimum fill time). */
  readonly fillTimestamp: string | null;
}

/**
 * @example
 * renderFallbackForm(profileFallback(form, manifest.data, spamFields, '/f/contact?profile=feedback&token=…', state), demoLanguage(site));
 */
export function profileFallback(form: Form, manifest: CachedManifest['data'], spamFields: SpamFieldNames, actionUrl: string, state: ProfileFormState): FallbackForm {
  const pages = manifest.layout.pages;
  const page = pages[state.pageIndex] ?? pages[0];
  const rows = page?.rows ?? [];
  const fields: Record<string, ManifestField> = {};
  for (const handle of rows.flatMap((row) => row.fields)) if (manifest.fields[handle]) fields[handle] = manifest.fields[handle] as ManifestField;
  return {
    page: { index: page?.index ?? 0, label: page?.label ?? '', buttons: (page?.buttons ?? null) as ClassicPageProperties['page']['buttons'], rows, fields },
    pageCount: pages.length,
    values: state.values,
    fresh: state.fresh,
    errors: state.errors,
    formErrors: state.formErrors,
    draft: null,
    anchor: `${form.handle}-form`,
    class: `svc-form svc-form-${form.handle}`,
    actionUrl,
    // Files need the element: this post is read as form entries only.
    enctype: 'application/x-www-form-urlencoded',
    hidden: [
      [PAGE, String(page?.index ?? 0)],
      ...(state.stateToken ? [[STATE, state.stateToken] as const] : []),
      ...(state.fillTimestamp ? [[FILL, state.fillTimestamp] as const] : []),
    ],
    honeypot: form.settings.spam.honeypot ? { name: spamFields.honeypotName(form) } : null,
    // A link's draft would come back without the link: as the element, no "save for later".
    allowSave: false,
  };
}

/**
 * The submit request of a profile form's post: its entries read as the classic route reads them
 * (lists, tables, the honeypot), "submit" on an earlier page meaning the next one, and the
 * JavaScript test answered by the server, as for a classic page that runs no script.
 */
export function readProfilePost(form: Form, entries: Entries, spamFields: SpamFieldNames): { readonly request: SubmitRequest; readonly pageIndex: number } {
  const post = readClassicPost(form, entries, {
    csrfName: CSRF_FIELD_NAME,
    honeypotName: form.settings.spam.honeypot ? spamFields.honeypotName(form) : null,
    captchaNames: [],
    fillTimestamp: entryValue(entries, FILL) ?? null,
    stateToken: entryValue(entries, STATE) ?? null,
  });
  const posted = Number.parseInt(entryValue(entries, PAGE) ?? '0', 10);
  const pageIndex = Number.isInteger(posted) && posted >= 0 && posted < form.pages.length ? posted : 0;
  // The pipeline reads the page from the signed state token; this only tells Next from Submit.
  const intent = post.request.intent === 'submit' && pageIndex < form.pages.length - 1 ? 'next' : post.request.intent;
  const javascriptTest = form.settings.spam.javascriptTest ? { javascriptTest: { name: spamFields.javascriptTestName(form), value: spamFields.javascriptTestValue(form) } } : {};
  return { request: { ...post.request, intent, meta: { ...post.request.meta, ...javascriptTest } }, pageIndex };
}

/** The fill timestamp a post carried, to draw again with the next page. */
export function postedFillTimestamp(entries: Entries): string | null {
  return entryValue(entries, FILL) ?? null;
}
