/** The submit object of contract §4 and its HTTP statuses, built in one place. */
import type { SubmitBody, SubmitStateFile, SubmitStatus } from '@svc/core';
import type { UploadRow } from '../files/upload-repository.js';
import { withKeys } from './object-shapes.js';

export type { SubmitBody, SubmitStatus };

const OUTCOMES: Readonly<Record<SubmitStatus, { success: boolean; complete: boolean; http: number }>> = {
  submitted: { success: true, complete: true, http: 200 },
  page_valid: { success: true, complete: false, http: 200 },
  validated: { success: true, complete: false, http: 200 },
  validation_failed: { success: false, complete: false, http: 422 },
  draft_saved: { success: true, complete: false, http: 200 },
  context_invalid: { success: false, complete: false, http: 422 },
  context_required: { success: false, complete: false, http: 422 },
  spam_rejected: { success: false, complete: false, http: 422 },
  captcha_failed: { success: false, complete: false, http: 422 },
  limit_reached: { success: false, complete: false, http: 429 },
};

export interface SubmitResult {
  readonly httpStatus: number;
  readonly body: SubmitBody;
  /** On `submitted`: the values as stored (visible fields, normalised) and when; never sent by REST. */
  readonly stored?: { readonly values: Readonly<Record<string, unknown>>; readonly createdAt: string; readonly files: readonly UploadRow[] };
  /** Stored flagged as spam while answered like a success (contract §4); for metrics, never sent. */
  readonly spam?: boolean;
}

export interface SubmitResultParts {
  readonly submission?: SubmitBody['submission'];
  readonly message?: string | null;
  readonly redirect?: SubmitBody['redirect'];
  readonly pageIndex: number;
  readonly totalPages: number;
  readonly values: Readonly<Record<string, unknown>>;
  readonly stateToken: string | null;
  readonly draft?: SubmitBody['draft'];
  readonly fieldErrors?: Readonly<Record<string, readonly string[]>>;
  readonly formErrors?: readonly string[];
  readonly warnings?: SubmitBody['warnings'];
}

export function submitResult(status: SubmitStatus, parts: SubmitResultParts): SubmitResult {
  const outcome = OUTCOMES[status];
  return {
    httpStatus: outcome.http,
    body: {
      success: outcome.success,
      status,
      complete: outcome.complete,
      submission: parts.submission ?? null,
      message: parts.message ?? null,
      redirect: parts.redirect ?? null,
      page: { currentIndex: parts.pageIndex, total: parts.totalPages },
      state: { values: parts.values, pageIndex: parts.pageIndex, token: parts.stateToken },
      draft: parts.draft ?? null,
      errors: { fields: parts.fieldErrors ?? {}, form: parts.formErrors ?? [] },
      warnings: parts.warnings ?? [],
    },
  };
}

/**
 * The answer with `state.files`: the uploads a loaded draft holds, by field handle (contract §5;
 * drafts/draft-files.ts). Additive: the answer is unchanged when there are none.
 */
export function withStateFiles(result: SubmitResult, files: Readonly<Record<string, readonly SubmitStateFile[]>>): SubmitResult {
  if (Object.keys(files).length === 0) return result;
  return withKeys(result, { body: withKeys(result.body, { state: withKeys(result.body.state, { files }) }) });
}
