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

/** Hears every answered step of every transport, once, after it is answered. Must not throw. */
export type StepListener = (step: AnsweredStep) => void;

export function emptyTrace(): StepTrace {
  return { state: null, multiPage: false, resumed: false, replay: false };
}
