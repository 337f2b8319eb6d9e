/**
 * What one answered step looked like from inside the pipeline (issue #38), for those who count
 * steps (insights): where the client was before the step, and how it got there. Nothing of the
 * person: the state is the one their own token carried.
 */
import type { Form } from '@svc/core';
import type { MultiPageState } from './state-token.js';
import type { SubmitResult } from './submit-response.js';
import type { SubmitRequest } from './submit-request.js';

export interface StepTrace {
  /** The state the step started from (its token's, a loaded draft's, or page 0); null when it could not be loaded. */
  state: MultiPageState | null;
  /** A multi-page step carried by state tokens (not a whole-form submit, not a single page). */
  multiPage: boolean;
  /** A draft was loaded without a state token: a journey taken up again. */
  resumed: boolean;
  /** The answer is an idempotent replay of one already counted. */
  replay: boolean;
}

export interface AnsweredStep {
  readonly form: Form;
  readonly request: SubmitRequest;
  /** The site's handle; null for the default site. */
  readonly site: string | null;
  readonly result: SubmitResult;
  readonly trace: Readonly<StepTrace>;
  readonly at: Date;
}

/**
 * Where a journey stood when its final submit was held for a payment (the payment checkpoint),
 * sealed into the checkpoint so that the submission the payment stores completes that journey
 * (issue #38): the page it was on (null when no page was counted for it: a single-page form, or
 * a draft taken up without a state token) and whether it had started. Nothing of the person.
 */
export interface HeldJourney {
  readonly page: number | null;
  readonly started: boolean;
}

/** The journey of a final submit held for a payment, from the state it was answered on. */
export function heldJourney(form: Form, state: MultiPageState | null): HeldJourney {
  // A single page has no token: its start is counted with its completion, as a plain submit's is.
  if (form.pages.length === 1) return { page: null, started: false };
  if (state === null) return { page: null, started: true };
  return { page: state.pageIndex, started: state.journey?.started === true };
}

/** A submission held for a payment, stored once the payment succeeded. */
export interface PaidCompletion {
  readonly form: Form;
  /** The site's handle; null for the default site. */
  readonly site: string | null;
  readonly journey: HeldJourney;
  readonly at: Date;
}

/** Hears every answered step of every transport, once, after it is answered. Must not throw. */
export interface StepListener {
  (step: AnsweredStep): void;
  /** A held submission the payment stored (payment-finaliser.ts): its journey completes. Must not throw. */
  readonly paid?: (completion: PaidCompletion) => void;
}

export function emptyTrace(): StepTrace {
  return { state: null, multiPage: false, resumed: false, replay: false };
}
