/**
 * The submit path as one ordered pipeline (DESIGN.md principle 3): CSRF -> state -> spam ->
 * rules -> validate -> persist -> respond. Transports (REST, GraphQL, classic post) parse their
 * input into a SubmitRequest and call `submitForm`; none of them validates or stores on its own.
 */
import { randomUUID } from 'node:crypto';
import {
  SvcError,
  computeVisibility,
  nextVisiblePage,
  normaliseFieldValue,
  previousVisiblePage,
  validateValues,
  type Field,
  type FieldValue,
  type Form,
  type Values,
  type Visibility,
} from '@svc/core';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { CsrfTokens } from '../security/csrf-tokens.js';
import type { SpamFieldNames } from '../security/spam-fields.js';
import { detectSpam } from '../security/spam-checks.js';
import { randomAlphanumeric, sha256 } from '../security/token-crypto.js';
import type { MultiPageState, StateTokens } from './state-token.js';
import type { SubmitRequest } from './submit-request.js';
import { submitResult, type SubmitResult } from './submit-response.js';
import { renderSubmissionTitle } from './submission-title.js';
import { insertSubmission } from './submission-repository.js';

export interface SubmitServices {
  readonly db: Kysely<Database>;
  readonly csrf: CsrfTokens | null;
  readonly stateTokens: StateTokens;
  readonly spamFields: SpamFieldNames;
  readonly now: () => Date;
}

export interface SubmitInput {
  readonly request: SubmitRequest;
  /** What the transport found: the cookie binding and token, or 'trusted' (e.g. a bearer token). */
  readonly csrf: { readonly binding: string | undefined; readonly token: string | undefined } | 'trusted';
  readonly ip: string | null;
  /**
   * Submit every page at once, without a state token: transports with one call per submission
   * (the GraphQL mutation) use it. Values of all fields are read; all visible fields validated.
   */
  readonly wholeForm?: boolean;
  /** False where the transport has no way to carry the javascript test (GraphQL mutations). */
  readonly javascriptTest?: boolean;
}

interface Step {
  readonly form: Form;
  readonly request: SubmitRequest;
  readonly multiPage: boolean;
  readonly state: MultiPageState;
  /** Earlier pages' raw values with this request's values for the current page laid over them. */
  readonly raw: Record<string, unknown>;
}

function assertCsrf(services: SubmitServices, input: SubmitInput): void {
  if (!services.csrf || input.csrf === 'trusted') return;
  if (!services.csrf.verify(input.csrf.binding, input.csrf.token, services.now().getTime())) throw new SvcError('CSRF_INVALID');
}

/** Load (or start) the multi-page state; null result = the request is answered already. */
function loadState(services: SubmitServices, form: Form, input: SubmitInput, now: number): MultiPageState | SubmitResult {
  const { request } = input;
  const fresh: MultiPageState = { formUid: form.uid, pageIndex: 0, pageHistory: [], values: {}, issuedAt: now };
  if (form.pages.length === 1 || input.wholeForm) return fresh;
  const token = request.context.stateToken;
  if (token === undefined) {
    // contract §4: back and submit need to know where the client is.
    if (request.intent === 'back' || request.intent === 'submit') {
      return submitResult('context_required', {
        pageIndex: 0,
        totalPages: form.pages.length,
        values: {},
        stateToken: null,
        formErrors: ['This form has several pages; send context.stateToken from the previous response.'],
      });
    }
    return fresh;
  }
  const state = services.stateTokens.open(token, form.uid, now);
  if (!state || state.pageIndex >= form.pages.length) {
    return submitResult('context_invalid', {
      pageIndex: 0,
      totalPages: form.pages.length,
      values: {},
      stateToken: null,
      formErrors: ['Your progress could not be restored or has expired; please start again.'],
    });
  }
  return state;
}

/** Only declared fields are read; on a multi-page form only those of the current page. */
function mergeValues(form: Form, state: MultiPageState, posted: Readonly<Record<string, unknown>>, wholeForm: boolean): Record<string, unknown> {
  const raw: Record<string, unknown> = { ...state.values };
  const multiPage = form.pages.length > 1 && !wholeForm;
  for (const field of form.fields) {
    const handle = field.handle as string;
    if (multiPage && field.pageIndex !== state.pageIndex) continue;
    if (Object.hasOwn(posted, handle)) raw[handle] = posted[handle];
  }
  return raw;
}

function normaliseAll(form: Form, raw: Record<string, unknown>): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const field of form.fields) {
    const outcome = normaliseFieldValue(field, raw[field.handle as string]);
    values[field.handle as string] = outcome.ok ? outcome.value : null;
  }
  return values;
}

function isShown(field: Field, visibility: Visibility): boolean {
  return !visibility.hiddenPages.has(field.pageIndex) && !visibility.hiddenFields.has(field.handle as string);
}

function validateScope(step: Step, scope: 'page' | 'form') {
  const normalised = normaliseAll(step.form, step.raw);
  const visibility = computeVisibility(step.form, normalised);
  const fields = step.form.fields.filter(
    (f) => isShown(f, visibility) && (scope === 'form' || !step.multiPage || f.pageIndex === step.state.pageIndex),
  );
  const { values, errors } = validateValues(fields, step.raw, normalised);
  return { values, errors, visibility, normalised };
}

function resultParts(step: Step, pageIndex: number, stateToken: string | null) {
  return { pageIndex, totalPages: step.form.pages.length, values: step.raw, stateToken };
}

function sealNext(services: SubmitServices, step: Step, pageIndex: number, history: readonly number[], now: number): string | null {
  if (!step.multiPage) return null;
  return services.stateTokens.seal({ formUid: step.form.uid, pageIndex, pageHistory: history, values: step.raw, issuedAt: now });
}

/** Values to store: visible fields only (contract §4: hidden values are neither validated nor stored). */
function storedValues(form: Form, normalised: Values, visibility: Visibility, validated: Values): Values {
  const out: Record<string, FieldValue> = {};
  for (const field of form.fields) {
    if (!isShown(field, visibility)) continue;
    const handle = field.handle as string;
    out[handle] = Object.hasOwn(validated, handle) ? (validated[handle] as FieldValue) : (normalised[handle] ?? null);
  }
  return out;
}

async function persist(services: SubmitServices, form: Form, values: Values, spamReasons: readonly string[], ip: string | null, date: Date) {
  if (!form.settings.storeData) return null;
  const token = randomAlphanumeric(32);
  const uid = randomUUID();
  const id = await insertSubmission(services.db, {
    uid,
    formId: form.id,
    tokenHash: sha256(token),
    title: renderSubmissionTitle(form.settings.submissionTitleFormat, { values, formName: form.name, dateCreated: date }),
    status: form.settings.defaultStatus,
    isSpam: spamReasons.length > 0,
    spamReasons,
    ip: form.settings.ipCollectingEnabled ? ip : null,
    values,
    createdAt: date.toISOString(),
  });
  return { id, uid, token };
}

function withStored(result: SubmitResult, values: Values, date: Date): SubmitResult {
  return { ...result, stored: { values, createdAt: date.toISOString() } };
}

function successParts(form: Form) {
  const url = form.settings.returnUrl;
  return { message: form.settings.successMessage, redirect: url ? { url, delay: 0 } : null };
}

export async function submitForm(services: SubmitServices, form: Form, input: SubmitInput): Promise<SubmitResult> {
  assertCsrf(services, input);
  const date = services.now();
  const now = date.getTime();
  const { request } = input;
  const loaded = loadState(services, form, input, now);
  if ('httpStatus' in loaded) return loaded;
  const wholeForm = input.wholeForm === true;
  const step: Step = {
    form,
    request,
    multiPage: form.pages.length > 1 && !wholeForm,
    state: loaded,
    raw: mergeValues(form, loaded, request.values, wholeForm),
  };

  if (request.intent === 'saveDraft') throw new SvcError('NOT_IMPLEMENTED', 'Drafts are not available yet.');

  if (request.intent === 'back') {
    const visibility = computeVisibility(form, normaliseAll(form, step.raw));
    const history = [...step.state.pageHistory];
    const target = history.pop() ?? previousVisiblePage(form, visibility, step.state.pageIndex) ?? 0;
    return submitResult('page_valid', resultParts(step, target, sealNext(services, step, target, history, now)));
  }

  if (request.intent === 'submit') {
    const spamReasons = detectSpam(form, request.meta, services.spamFields, { javascriptTest: input.javascriptTest !== false });
    const { values, errors, visibility, normalised } = validateScope(step, 'form');
    if (spamReasons.length > 0) {
      if (form.settings.spam.behavior === 'display_errors') {
        return submitResult('spam_rejected', {
          ...resultParts(step, step.state.pageIndex, sealNext(services, step, step.state.pageIndex, step.state.pageHistory, now)),
          message: form.settings.errorMessage,
          formErrors: ['The submission was rejected as spam.'],
        });
      }
      // contract §4 simulate_success: stored flagged, answered exactly like a real success.
      const stored = storedValues(form, normalised, visibility, values);
      const submission = await persist(services, form, stored, spamReasons, input.ip, date);
      return withStored(submitResult('submitted', { ...resultParts(step, step.state.pageIndex, null), ...successParts(form), submission }), stored, date);
    }
    if (Object.keys(errors).length > 0) {
      return submitResult('validation_failed', {
        ...resultParts(step, step.state.pageIndex, sealNext(services, step, step.state.pageIndex, step.state.pageHistory, now)),
        message: form.settings.errorMessage,
        fieldErrors: errors,
      });
    }
    const stored = storedValues(form, normalised, visibility, values);
    const submission = await persist(services, form, stored, [], input.ip, date);
    return withStored(submitResult('submitted', { ...resultParts(step, step.state.pageIndex, null), ...successParts(form), submission }), stored, date);
  }

  // validate and next check the current page (or the whole single-page form).
  const { errors, visibility } = validateScope(step, 'page');
  const current = step.state.pageIndex;
  if (Object.keys(errors).length > 0) {
    return submitResult('validation_failed', {
      ...resultParts(step, current, sealNext(services, step, current, step.state.pageHistory, now)),
      message: form.settings.errorMessage,
      fieldErrors: errors,
    });
  }
  if (request.intent === 'validate') {
    return submitResult('validated', resultParts(step, current, sealNext(services, step, current, step.state.pageHistory, now)));
  }
  const next = step.multiPage ? nextVisiblePage(form, visibility, current) : null;
  if (next === null) {
    // `next` on the last visible page (or a single page): valid, and nowhere further to go.
    return submitResult('page_valid', resultParts(step, current, sealNext(services, step, current, step.state.pageHistory, now)));
  }
  const history = [...step.state.pageHistory, current];
  return submitResult('page_valid', resultParts(step, next, sealNext(services, step, next, history, now)));
}
