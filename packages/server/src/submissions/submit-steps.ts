/**
 * The steps of the submit pipeline that shape state and values: where the client is (state token
 * or draft), which raw values count, what is visible, what validates, what is stored.
 */
import {
  FIELD_MESSAGES,
  computeVisibility,
  isEmptyValue,
  normaliseFieldValue,
  validateValues,
  type Field,
  type FieldMessages,
  type FieldValue,
  type Form,
  type Values,
  type Visibility,
} from '@svc/core';
import type { LoadedDraft } from '../drafts/draft-service.js';
import { advanceJourney, type MultiPageState, type StateTokens } from './state-token.js';
import type { SubmitRequest } from './submit-request.js';
import { submitResult, type SubmitResult } from './submit-response.js';

export interface Step {
  readonly form: Form;
  readonly request: SubmitRequest;
  readonly multiPage: boolean;
  readonly state: MultiPageState;
  /** Earlier pages' raw values with this request's values for the current page laid over them. */
  readonly raw: Record<string, unknown>;
  /** The built-in messages in the site's language (issue #34); its locale reads numbers too. */
  readonly messages: FieldMessages;
}

export function formError(status: 'context_invalid' | 'context_required', form: Form, message: string): SubmitResult {
  return submitResult(status, { pageIndex: 0, totalPages: form.pages.length, values: {}, stateToken: null, formErrors: [message] });
}

/** Where the client is: its state token, else its loaded draft, else the first page. */
export function loadState(
  stateTokens: StateTokens,
  form: Form,
  request: SubmitRequest,
  options: { wholeForm: boolean; draft: LoadedDraft | null; now: number; stateMaxAgeMs?: number },
): MultiPageState | SubmitResult {
  const { draft, now } = options;
  // A resumed draft goes on with a journey that has started (issue #38), on the draft's page.
  const start: MultiPageState = draft
    ? { formUid: form.uid, pageIndex: draft.pageIndex, pageHistory: draft.pageHistory, values: draft.values, issuedAt: now, journey: { started: true, seen: [...draft.pageHistory, draft.pageIndex], pageSince: now } }
    : { formUid: form.uid, pageIndex: 0, pageHistory: [], values: {}, issuedAt: now };
  if (form.pages.length === 1 || options.wholeForm) return { ...start, pageIndex: 0, pageHistory: [] };
  const token = request.context.stateToken;
  if (token === undefined) {
    // contract §4: back and submit need to know where the client is (a draft says so too).
    if (!draft && (request.intent === 'back' || request.intent === 'submit')) {
      return formError('context_required', form, 'This form has several pages; send context.stateToken from the previous response.');
    }
    return start;
  }
  const state = stateTokens.open(token, form.uid, now, options.stateMaxAgeMs);
  if (!state || state.pageIndex >= form.pages.length) {
    return formError('context_invalid', form, 'Your progress could not be restored or has expired; please start again.');
  }
  return state;
}

/**
 * Only declared fields are read; on a multi-page form only those of the current page. With a
 * loaded draft, an empty posted value does not overwrite a loaded one (contract §5).
 */
export function mergeValues(
  form: Form,
  state: MultiPageState,
  posted: Readonly<Record<string, unknown>>,
  options: { wholeForm: boolean; keepLoaded: boolean },
): Record<string, unknown> {
  const raw: Record<string, unknown> = { ...state.values };
  const multiPage = form.pages.length > 1 && !options.wholeForm;
  for (const field of form.fields) {
    const handle = field.handle as string;
    if (multiPage && field.pageIndex !== state.pageIndex) continue;
    if (!Object.hasOwn(posted, handle)) continue;
    const value = posted[handle];
    if (options.keepLoaded && raw[handle] !== undefined && isEmptyValue(value as FieldValue)) continue;
    raw[handle] = value;
  }
  return raw;
}

export function normaliseAll(form: Form, raw: Record<string, unknown>, messages: FieldMessages = FIELD_MESSAGES): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const field of form.fields) {
    const outcome = normaliseFieldValue(field, raw[field.handle as string], messages);
    values[field.handle as string] = outcome.ok ? outcome.value : null;
  }
  return values;
}

function isShown(field: Field, visibility: Visibility): boolean {
  return !visibility.hiddenPages.has(field.pageIndex) && !visibility.hiddenFields.has(field.handle as string);
}

/** Handles whose posted values this step reads: the current page's, or every field's (saveDraft too). */
export function readHandles(step: Step): Set<string> {
  const all = !step.multiPage || step.request.intent === 'saveDraft';
  return new Set(step.form.fields.filter((f) => all || f.pageIndex === step.state.pageIndex).map((f) => f.handle as string));
}

/** Validates the fields in scope; `extra` errors (files) count only for fields in scope and shown. */
export function validateScope(step: Step, scope: 'page' | 'form', extra: Readonly<Record<string, readonly string[]>> = {}) {
  const normalised = normaliseAll(step.form, step.raw, step.messages);
  const visibility = computeVisibility(step.form, normalised);
  const fields = step.form.fields.filter(
    (f) => isShown(f, visibility) && (scope === 'form' || !step.multiPage || f.pageIndex === step.state.pageIndex),
  );
  const validated = validateValues(fields, step.raw, normalised, step.messages);
  const errors: Record<string, string[]> = { ...validated.errors } as Record<string, string[]>;
  for (const field of fields) {
    const more = extra[field.handle as string];
    if (more && more.length > 0) errors[field.handle as string] = [...(errors[field.handle as string] ?? []), ...more];
  }
  return { values: validated.values, errors, visibility, normalised };
}

export function resultParts(step: Step, pageIndex: number, stateToken: string | null) {
  return { pageIndex, totalPages: step.form.pages.length, values: step.raw, stateToken };
}

export function sealNext(stateTokens: StateTokens, step: Step, pageIndex: number, history: readonly number[], now: number): string | null {
  if (!step.multiPage) return null;
  const journey = advanceJourney(step.state.journey, step.state.pageIndex, pageIndex, step.request.intent, now);
  return stateTokens.seal({ formUid: step.form.uid, pageIndex, pageHistory: history, values: step.raw, issuedAt: now, journey });
}

/** Values to store: visible fields only (contract §4: hidden values are neither validated nor stored). */
export function storedValues(form: Form, normalised: Values, visibility: Visibility, validated: Values): Values {
  const out: Record<string, FieldValue> = {};
  for (const field of form.fields) {
    if (!isShown(field, visibility)) continue;
    const handle = field.handle as string;
    out[handle] = Object.hasOwn(validated, handle) ? (validated[handle] as FieldValue) : (normalised[handle] ?? null);
  }
  return out;
}
