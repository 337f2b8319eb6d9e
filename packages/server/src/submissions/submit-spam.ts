/**
 * The spam verdict step of the submit pipeline (DESIGN.md principle 3): every signal the request
 * carries, and the refusal `display_errors` answers. Where the verdict runs is the pipeline's
 * business; this file only says what it finds.
 */
import type { Values } from '@svc/core';
import { detectSpam } from '../security/spam-checks.js';
import type { SpamFieldNames } from '../security/spam-fields.js';
import type { SpamLists } from '../security/spam-lists.js';
import type { FillTimestamps } from '../security/fill-timestamps.js';
import type { StateTokens } from './state-token.js';
import { resultParts, sealNext, type Step } from './submit-steps.js';
import { submitResult, type SubmitResult } from './submit-response.js';

export interface SpamServices {
  readonly spamFields: SpamFieldNames;
  readonly spamLists: SpamLists;
  readonly fillTimestamps: FillTimestamps;
  readonly stateTokens: StateTokens;
  readonly now: () => Date;
}

export interface SpamSignalOptions {
  readonly ip: string | null;
  /** contract §11: the transport has no way to send the javascript test, so only a sent one counts. */
  readonly javascriptTestOptional?: boolean;
}

export const DRAFT_REFUSED =
  "The draft was not saved: the request did not pass the form's spam checks (send the manifest's honeypot and javascript test).";

/** Every spam signal: the meta the transport carried, and the blocked lists over values and IP. */
export function spamReasonsFor(services: SpamServices, step: Step, normalised: Values, options: SpamSignalOptions): string[] {
  return [
    ...detectSpam(step.form, step.request.meta, services.spamFields, {
      fillTime: { timestamps: services.fillTimestamps, now: services.now().getTime() },
      javascriptTestOptional: options.javascriptTestOptional === true,
    }),
    ...services.spamLists.check(step.form, normalised, options.ip),
  ];
}

/** contract §4 `display_errors`: 422 spam_rejected, the form's error message and one form error. */
export function spamRejected(services: SpamServices, step: Step, now: number, reason = 'The submission was rejected as spam.'): SubmitResult {
  return submitResult('spam_rejected', {
    ...resultParts(step, step.state.pageIndex, sealNext(services.stateTokens, step, step.state.pageIndex, step.state.pageHistory, now)),
    message: step.form.settings.errorMessage,
    formErrors: [reason],
  });
}
