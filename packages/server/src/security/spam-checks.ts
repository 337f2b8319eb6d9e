/**
 * Spam signals read from the submit `meta` (interface.md §5.5). They are weak on their own against
 * direct API callers, which is why a hit is stored flagged by default (contract §4
 * `simulate_success`) rather than refused: a bot learns nothing about what gave it away.
 */
import type { Form } from '@svc/core';
import type { SubmitMeta } from '../submissions/submit-request.js';
import type { SpamFieldNames } from './spam-fields.js';
import { safeEqual } from './token-crypto.js';
import { FILL_TIMESTAMP_SEPARATOR, type FillTimestamps } from './fill-timestamps.js';

export type SpamReason = 'honeypot' | 'javascript_test' | 'fill_time';

export interface SpamCheckOptions {
  /** The tools to check the fill timestamp. Every transport carries every signal (issue #11). */
  readonly fillTime: { readonly timestamps: FillTimestamps; readonly now: number } | null;
  /**
   * contract §11: interface §4.8 gives `save_<handle>_Submission` no javascript-test argument, so
   * there an absent test says nothing of the client; one that is sent is still checked.
   */
  readonly javascriptTestOptional?: boolean;
}

export function detectSpam(form: Form, meta: SubmitMeta, names: SpamFieldNames, options: SpamCheckOptions): SpamReason[] {
  const reasons: SpamReason[] = [];
  const { spam } = form.settings;
  if (spam.honeypot) {
    const honeypot = meta.honeypot;
    // Absent, renamed or filled in: a real client copies the manifest's name and leaves it empty.
    if (!honeypot || honeypot.name !== names.honeypotName(form) || honeypot.value !== '') reasons.push('honeypot');
  }
  // The javascript test's value may carry the fill timestamp after a separator (manifest-builder.ts).
  const [testValue = '', carriedTimestamp] = (meta.javascriptTest?.value ?? '').split(FILL_TIMESTAMP_SEPARATOR, 2);
  const test = meta.javascriptTest;
  // An optional test (contract §11) is judged only when the client sent one.
  if (spam.javascriptTest && (test !== undefined || options.javascriptTestOptional !== true)) {
    if (!test || test.name !== names.javascriptTestName(form) || !safeEqual(testValue, names.javascriptTestValue(form))) {
      reasons.push('javascript_test');
    }
  }
  const minimum = spam.minimumFillSeconds;
  if (minimum > 0 && options.fillTime) {
    const timestamp = meta.honeypot?.timestamp ?? carriedTimestamp;
    const age = options.fillTime.timestamps.age(form, timestamp, options.fillTime.now);
    // Missing, forged, or sooner than a person could fill the form in.
    if (age === null || age < minimum) reasons.push('fill_time');
  }
  return reasons;
}
