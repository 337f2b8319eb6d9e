/**
 * What `<svc-form>` does with a submit answer (contract §4): success and redirects, saved
 * drafts, page changes, and refusals shown as field and form errors. The element supplies the
 * parts it owns through `ResponseHost`; the decisions live here.
 */
import type { FormSession, SubmitResponse } from '@svc/client';
import { formatMessage } from '@svc/core';
import type { ErrorSummary } from './error-summary.js';
import type { FieldElement } from './field-renderers.js';
import { renderSuccess } from './form-status-views.js';
import { withPickedFiles } from './picked-file-checks.js';

type FieldErrors = Readonly<Record<string, readonly string[]>>;

/** Where errors go: the rendered fields, the set of those marked invalid, the form-level box. */
export interface ErrorTargets {
  readonly session: FormSession | null;
  readonly fields: ReadonlyMap<string, FieldElement>;
  readonly invalid: Set<string>;
  readonly summary: ErrorSummary | null;
  /** Fields whose file input holds chosen files, with those files' problems (none = fine). */
  readonly picked: ReadonlyMap<string, readonly string[]>;
}

export interface ResponseHost extends ErrorTargets {
  readonly session: FormSession;
  emit(name: string, detail: unknown): void;
  /** A draft was saved: show its resume link. */
  showDraft(draft: FormSession['draft']): void;
  /** The session moved to another page: render it. */
  changePage(): void;
  /** The form was submitted: show this in place of the form. */
  replaceForm(success: HTMLElement): void;
  /** The captcha was refused: widgets ask again before the next submit. */
  captchaFailed(): void;
}

/** Field errors on their fields; errors of fields not shown here are listed with the form's. */
export function showErrors(targets: ErrorTargets, fieldErrors: FieldErrors, formErrors: readonly string[], message: string | null): void {
  const { fields, invalid } = targets;
  invalid.clear();
  for (const [handle, element] of fields) {
    const messages = element.view.layout === 'hidden' ? [] : withPickedFiles(fieldErrors[handle] ?? [], targets.picked.get(handle), targets.session?.language);
    element.showErrors(messages);
    if (messages.length > 0) invalid.add(handle);
  }
  const elsewhere = Object.entries(fieldErrors).flatMap(([handle, messages]) => {
    if (invalid.has(handle)) return [];
    const label = targets.session?.manifest.fields[handle]?.label ?? handle;
    return messages.map((m) => `${label}: ${m}`);
  });
  targets.summary?.show(message, [...formErrors, ...elsewhere], invalid.size > 0);
}

/**
 * Messages for one field that no answer brought (a card declined, an amount to choose), leaving
 * the others' as they are; a field not shown on this page has them said in the form's box.
 *
 * @example
 * showFieldMessages(targets, 'payment', ['Your card was declined.']);
 * showFieldMessages(targets, 'payment', []); // cleared again
 */
export function showFieldMessages(targets: ErrorTargets, handle: string, messages: readonly string[]): void {
  const element = targets.fields.get(handle);
  if (!element || element.wrapper.hidden) {
    if (messages.length > 0) showErrors(targets, { [handle]: messages }, [], null);
    return;
  }
  element.showErrors(messages);
  if (messages.length > 0) targets.invalid.add(handle);
  else targets.invalid.delete(handle);
  targets.summary?.update(targets.invalid.size > 0);
}

/**
 * After the person changed `changed`: it is checked again (so a fix clears its errors), fields
 * a rule has just hidden lose theirs (hidden fields are neither validated nor stored), and the
 * summary follows, going with the last field error (issue #11).
 */
export function recheckFields(targets: ErrorTargets, changed: string): void {
  const { session, fields, invalid } = targets;
  const stale = [...invalid].filter((handle) => handle === changed || fields.get(handle)?.wrapper.hidden);
  if (!session || stale.length === 0) return;
  const errors = session.validate('page');
  for (const handle of stale) {
    const element = fields.get(handle);
    const messages = !element || element.wrapper.hidden ? [] : withPickedFiles(errors[handle] ?? [], targets.picked.get(handle), targets.session?.language);
    element?.showErrors(messages);
    if (messages.length === 0) invalid.delete(handle);
  }
  targets.summary?.update(invalid.size > 0);
}

/**
 * The refusal of a Next or Submit while a shown file input holds files that failed their checks
 * (issue #11), with the page's other local errors; null when there are none. Those files were
 * never given to the session, so without this a field that is not required would go on empty.
 */
export function pickedFilesRefusal(targets: ErrorTargets): SubmitResponse | null {
  const { session, fields, picked } = targets;
  const refused = [...picked].filter(([handle, problems]) => problems.length > 0 && fields.get(handle)?.wrapper.hidden === false);
  if (!session || refused.length === 0) return null;
  const errors: Record<string, readonly string[]> = { ...session.validate('page') };
  for (const [handle, problems] of refused) errors[handle] = withPickedFiles(errors[handle] ?? [], problems, targets.session?.language);
  return localRefusal(session, errors);
}

/** A step refused in the browser, shaped as the client's own local refusals so `svc:error` listeners see one shape. */
function localRefusal(session: FormSession, fieldErrors: FieldErrors): SubmitResponse {
  session.errors = { fields: fieldErrors, form: [] };
  return {
    success: false,
    status: 'validation_failed',
    complete: false,
    submission: null,
    // handleSubmitResponse puts the form's errorMessage in, as for every validation_failed.
    message: null,
    redirect: null,
    page: { currentIndex: session.pageIndex, total: session.totalPages },
    state: { values: session.values, pageIndex: session.pageIndex, token: session.stateToken },
    draft: null,
    errors: { fields: fieldErrors, form: [] },
    warnings: [],
  };
}

export function focusFirstInvalid(fields: ReadonlyMap<string, FieldElement>, invalid: ReadonlySet<string>): void {
  for (const [handle, element] of fields) {
    if (!invalid.has(handle) || element.wrapper.hidden) continue;
    const target = element.view.focusTarget();
    if (target) {
      target.focus();
      return;
    }
  }
}

/** interface.md 2.8 onSuccess: redirect when the form says so, otherwise the success message. */
function succeed(host: ResponseHost, response: SubmitResponse): void {
  const settings = host.session.manifest.settings ?? {};
  const url = response.redirect?.url ?? settings.returnUrl ?? null;
  const message = response.message || settings.successMessage || formatMessage(host.session.language, 'element.thankYou');
  const delay = response.redirect?.delay ?? 0;
  if (settings.successBehavior === 'redirect' && url) {
    if (delay <= 0) {
      globalThis.location.assign(url);
      return;
    }
    setTimeout(() => globalThis.location.assign(url), delay * 1000);
  }
  const success = renderSuccess(message);
  host.replaceForm(success);
  success.focus();
}

export function handleSubmitResponse(host: ResponseHost, response: SubmitResponse, pageBefore: number): void {
  const { session } = host;
  switch (response.status) {
    case 'submitted':
      host.emit('svc:submitted', response);
      succeed(host, response);
      return;
    case 'draft_saved': {
      const draft = session.draft ?? response.draft;
      showErrors(host, {}, [], null);
      if (draft) host.showDraft(draft);
      host.emit('svc:draft', draft);
      return;
    }
    case 'page_valid':
    case 'validated':
      if (session.pageIndex !== pageBefore) {
        host.changePage();
        host.emit('svc:page', { index: session.pageIndex, total: session.totalPages });
        // Focus follows the page change so keyboard and screen-reader users start at its top.
        const first = [...host.fields.values()].find((f) => !f.wrapper.hidden && f.view.focusTarget());
        first?.view.focusTarget()?.focus();
      } else {
        showErrors(host, response.errors.fields, response.errors.form, null);
      }
      return;
    default: {
      if (response.status === 'captcha_failed') host.captchaFailed();
      const message = response.message ?? (response.status === 'validation_failed' ? (session.manifest.settings.errorMessage ?? null) : null);
      showErrors(host, response.errors.fields, response.errors.form, message);
      focusFirstInvalid(host.fields, host.invalid);
      host.emit('svc:error', { response });
    }
  }
}
