/**
 * The insights counters for Prometheus (issue #38), on the app's metrics registry: views, starts,
 * completions and field errors by form (and field). Counts since the process started, as
 * Prometheus expects; the figures per period come from the aggregates.
 */
import { Counter, type Registry } from 'prom-client';

export interface InsightsMetrics {
  view(form: string): void;
  start(form: string): void;
  complete(form: string): void;
  fieldError(form: string, field: string, count: number): void;
}

export function createInsightsMetrics(registry: Registry): InsightsMetrics {
  const views = new Counter({ name: 'svc_form_views_total', help: 'Form manifests served, by form (issue #38).', labelNames: ['form'] as const, registers: [registry] });
  const starts = new Counter({ name: 'svc_form_starts_total', help: 'Journeys started (first successful next or first validate), by form.', labelNames: ['form'] as const, registers: [registry] });
  const completions = new Counter({ name: 'svc_form_completions_total', help: 'Journeys completed by a stored submission, by form.', labelNames: ['form'] as const, registers: [registry] });
  const viewsOf = new Map<string, ReturnType<typeof views.labels>>();
  const errors = new Counter({ name: 'svc_form_field_errors_total', help: 'Validation errors answered, by form and field.', labelNames: ['form', 'field'] as const, registers: [registry] });
  return {
    // One child counter per form, so a view hashes no label set (the manifest is the hottest route).
    view: (form) => {
      let child = viewsOf.get(form);
      if (child === undefined) viewsOf.set(form, (child = views.labels({ form })));
      child.inc();
    },
    start: (form) => starts.inc({ form }),
    complete: (form) => completions.inc({ form }),
    fieldError: (form, field, count) => errors.inc({ form, field }, count),
  };
}
