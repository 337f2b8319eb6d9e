/**
 * The figures of one form over a period (issue #38), read from the hourly aggregates: a handful of
 * grouped sums over one primary-key range per table, so the answer takes the same time for a
 * thousand submissions as for a million. Exact counts; the console's "<5" is the console's.
 */
import type { Kysely } from 'kysely';
import type { Form } from '@svc/core';
import type { Database } from '../storage/database-schema.js';
import { FORM_LEVEL, HOUR_MS } from './insights-recorder.js';
import { medianOf } from './insights-durations.js';

export interface InsightsPage {
  readonly index: number;
  /** Journeys that came to this page. */
  readonly reached: number;
  /** Journeys whose last page this is, without a stored submission. */
  readonly left: number;
  /** The median time spent on the page by journeys that went on from it (a bucket's floor); null when none did. */
  readonly medianSeconds: number | null;
}

export interface InsightsField {
  readonly handle: string;
  readonly errors: number;
  readonly messages: readonly { readonly key: string; readonly count: number }[];
}

export interface InsightsReport {
  readonly form: string;
  readonly from: string;
  readonly to: string;
  readonly site: string | null;
  readonly views: number;
  readonly starts: number;
  readonly completions: number;
  /** completions / starts, rounded to 4 places; 0 when nothing started. */
  readonly completionRate: number;
  readonly pages: readonly InsightsPage[];
  /** Fields with errors, most first. */
  readonly fields: readonly InsightsField[];
  readonly drafts: { readonly saves: number; readonly resumes: number };
}

export interface ReportQuery {
  readonly from: Date;
  /** Exclusive. */
  readonly to: Date;
  readonly site: string | null;
}

const num = (value: unknown) => Number(value ?? 0);

export async function insightsReport(db: Kysely<Database>, form: Form, query: ReportQuery): Promise<InsightsReport> {
  // An hour counts when it starts inside the period: [from, to) rounded down to whole hours.
  const first = Math.floor(query.from.getTime() / HOUR_MS);
  const last = Math.ceil(query.to.getTime() / HOUR_MS) - 1;
  type Table = 'svc_insight_counts' | 'svc_insight_steps' | 'svc_insight_field_errors' | 'svc_insight_durations';
  const scoped = <T extends Table>(table: T) => {
    let q = db.selectFrom(table as Table).where('form_id', '=', form.id).where('hour', '>=', first).where('hour', '<=', last);
    if (query.site !== null) q = q.where('site', '=', query.site);
    return q;
  };
  const [counts, drafts, errors, durations] = await Promise.all([
    scoped('svc_insight_counts').select(['kind', 'page']).select((eb) => eb.fn.sum<number>('n').as('n')).groupBy(['kind', 'page']).execute(),
    scoped('svc_insight_steps').where('intent', '=', 'saveDraft').where('outcome', '=', 'draft_saved').select((eb) => eb.fn.sum<number>('n').as('n')).executeTakeFirst(),
    db
      .selectFrom('svc_insight_field_errors')
      .where('form_id', '=', form.id)
      .where('hour', '>=', first)
      .where('hour', '<=', last)
      .$if(query.site !== null, (q) => q.where('site', '=', query.site as string))
      .select(['field', 'message_key'])
      .select((eb) => eb.fn.sum<number>('n').as('n'))
      .groupBy(['field', 'message_key'])
      .execute(),
    db
      .selectFrom('svc_insight_durations')
      .where('form_id', '=', form.id)
      .where('hour', '>=', first)
      .where('hour', '<=', last)
      .$if(query.site !== null, (q) => q.where('site', '=', query.site as string))
      .select(['page', 'seconds'])
      .select((eb) => eb.fn.sum<number>('n').as('n'))
      .groupBy(['page', 'seconds'])
      .execute(),
  ]);
  const count = (kind: string, page: number) => num(counts.find((c) => c.kind === kind && num(c.page) === page)?.n);
  const views = count('view', FORM_LEVEL);
  const starts = count('start', FORM_LEVEL);
  const completions = count('complete', FORM_LEVEL);
  const pages = form.pages.map((_, index) => ({
    index,
    reached: count('reach', index),
    // Arrivals minus departures; a period that cuts a journey in two may see one side only.
    left: Math.max(0, count('at', index)),
    medianSeconds: medianOf(durations.filter((d) => num(d.page) === index).map((d) => ({ seconds: num(d.seconds), n: num(d.n) }))),
  }));
  const byField = new Map<string, { key: string; count: number }[]>();
  for (const row of errors) {
    const list = byField.get(row.field) ?? [];
    list.push({ key: row.message_key, count: num(row.n) });
    byField.set(row.field, list);
  }
  const fields = [...byField]
    .map(([handle, messages]) => ({
      handle,
      errors: messages.reduce((sum, m) => sum + m.count, 0),
      messages: messages.sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)),
    }))
    .sort((a, b) => b.errors - a.errors || a.handle.localeCompare(b.handle));
  return {
    form: form.handle,
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    site: query.site,
    views,
    starts,
    completions,
    completionRate: starts === 0 ? 0 : Math.round((completions / starts) * 10_000) / 10_000,
    pages,
    fields,
    drafts: { saves: num(drafts?.n), resumes: count('resume', FORM_LEVEL) },
  };
}
