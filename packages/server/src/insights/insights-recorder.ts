/**
 * What each answered step adds to the aggregates (issue #38). Every step: one count by page,
 * intent and outcome, and its field errors by message key. A multi-page journey is followed by
 * the marks its own state token carries (state-token.ts advanceJourney), never by anything kept
 * about it here: its start, the pages it reaches, its arrivals and departures per page (what is
 * left on a page is what arrived and never went on), and the time it spent on a page it left,
 * as a histogram bucket. A stored submission completes it. Nothing identifies anyone.
 */
import { FIELD_MESSAGES, fieldMessages, type Form } from '@svc/core';
import { advanceJourney } from '../submissions/state-token.js';
import type { AnsweredStep, PaidCompletion } from '../submissions/submit-trace.js';
import type { InsightsWriter } from './insights-writer.js';
import type { InsightsMetrics } from './insights-metrics.js';
import { messageKey } from './insights-message-keys.js';
import { durationBucket } from './insights-durations.js';

export const HOUR_MS = 3_600_000;
/** The `page` of the counts that belong to the whole form (views, starts, completions, resumes). */
export const FORM_LEVEL = -1;

export interface InsightsRecorder {
  step(step: AnsweredStep): void;
  /**
   * A submission held for a payment and stored when it was paid: a completion of the journey that
   * led to it, in the hour of the payment. Its last page is no longer where it was left.
   */
  paid(completion: PaidCompletion): void;
  /** A manifest handed to a client that did not hold it: one view of `form` on `site` (null: the default site). */
  view(form: Form, site: string | null, at: Date): void;
  /** Hands the views tallied since the last call to the writer. */
  takeViews(): void;
}

export interface RecorderOptions {
  readonly writer: InsightsWriter;
  readonly metrics: InsightsMetrics | null;
  /** The default site's handle: what a step or view that names no site is counted under. */
  readonly defaultSite: string;
  /** The site's language, for reading its messages back into keys. */
  readonly languageOf: (site: string) => string;
}

export function createInsightsRecorder(options: RecorderOptions): InsightsRecorder {
  const { writer, metrics } = options;
  /** Views not yet handed to the writer, all of hour `viewsHour`: form id -> site -> count. */
  const views = new Map<number, Map<string, number>>();
  let viewsHour = 0;

  function takeViews(): void {
    for (const [formId, bySite] of views) for (const [site, n] of bySite) writer.add('svc_insight_counts', [formId, viewsHour, site, 'view', FORM_LEVEL], n);
    views.clear();
  }

  function step(answered: AnsweredStep): void {
    const { form, request, result, trace } = answered;
    if (trace.replay) return;
    const site = answered.site ?? options.defaultSite;
    const hour = Math.floor(answered.at.getTime() / HOUR_MS);
    const now = answered.at.getTime();
    const base = [form.id, hour, site] as const;
    const count = (kind: string, page: number, n = 1) => writer.add('svc_insight_counts', [...base, kind, page], n);
    const { status } = result.body;
    const from = trace.state?.pageIndex ?? result.body.page.currentIndex;
    writer.add('svc_insight_steps', [...base, from, request.intent, result.spam ? 'spam' : status]);

    const fieldErrors = Object.entries(result.body.errors.fields);
    if (fieldErrors.length > 0) {
      const messages = answered.site ? fieldMessages(options.languageOf(site)) : FIELD_MESSAGES;
      for (const [handle, list] of fieldErrors) {
        const field = form.fields.find((f) => f.handle === handle);
        for (const message of list) writer.add('svc_insight_field_errors', [...base, handle, messageKey(messages, field, message)]);
        metrics?.fieldError(form.handle, handle, list.length);
      }
    }

    const completed = status === 'submitted' && result.spam !== true;
    if (trace.resumed) count('resume', FORM_LEVEL);
    if (!trace.multiPage || trace.state === null) {
      // Without a state token nothing joins one answer to another: a stored submission is a
      // journey started and completed in one step.
      if (completed) {
        count('start', FORM_LEVEL);
        count('complete', FORM_LEVEL);
        metrics?.start(form.handle);
        metrics?.complete(form.handle);
      }
      return;
    }
    const before = trace.state.journey;
    const fresh = before === undefined || !Array.isArray(before.seen);
    const to = result.body.state.pageIndex;
    const after = advanceJourney(fresh ? undefined : before, from, to, request.intent, now);
    const ended = status === 'submitted';
    if (!(fresh ? false : before.started) && (after.started || completed)) {
      count('start', FORM_LEVEL);
      metrics?.start(form.handle);
    }
    if (fresh) {
      count('reach', from);
      count('at', from);
    }
    if (!ended && to !== from) {
      if (!(fresh ? [from] : before.seen).includes(to)) count('reach', to);
      count('at', from, -1);
      count('at', to);
    }
    if (ended) count('at', from, -1);
    if (completed) {
      count('complete', FORM_LEVEL);
      metrics?.complete(form.handle);
    }
    // Time on a page is known when the journey leaves it; a first answer has no clock yet.
    if (!fresh && (ended || to !== from)) {
      writer.add('svc_insight_durations', [...base, from, durationBucket((now - before.pageSince) / 1000)]);
    }
  }

  return {
    step(answered) {
      try {
        step(answered);
      } catch {
        // Counting must never change an answer; a step it cannot read is simply not counted.
      }
    },
    paid({ form, site, journey, at }) {
      try {
        const base = [form.id, Math.floor(at.getTime() / HOUR_MS), site ?? options.defaultSite] as const;
        // The checkpoint answered `validated`, so the step itself counted no start and no end.
        if (!journey.started) {
          writer.add('svc_insight_counts', [...base, 'start', FORM_LEVEL]);
          metrics?.start(form.handle);
        }
        if (journey.page !== null) writer.add('svc_insight_counts', [...base, 'at', journey.page], -1);
        writer.add('svc_insight_counts', [...base, 'complete', FORM_LEVEL]);
        metrics?.complete(form.handle);
      } catch {
        // As with a step: counting never changes what the payment did.
      }
    },
    view(form, site, at) {
      // The manifest is svc's hottest route (issue #31 item 14): a view is one integer added to a
      // tally keyed by form id and site, with no key string or array made per request; the tally
      // reaches the writer once per window (takeViews), or as soon as the hour turns.
      const hour = Math.floor(at.getTime() / HOUR_MS);
      if (hour !== viewsHour) {
        takeViews();
        viewsHour = hour;
      }
      const handle = site ?? options.defaultSite;
      let bySite = views.get(form.id);
      if (bySite === undefined) views.set(form.id, (bySite = new Map()));
      bySite.set(handle, (bySite.get(handle) ?? 0) + 1);
      metrics?.view(form.handle);
    },
    takeViews,
  };
}
