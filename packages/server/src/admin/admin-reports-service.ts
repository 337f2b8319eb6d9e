/**
 * A form's report (issue #35 item 6, Freeform's survey reports): submissions over time by day,
 * week or month of the site's time zone, by status and spam, and the distribution of answers of
 * every choice, rating and opinion-scale field. The database sums the counts kept at write time
 * (admin-reports-repository.ts); this folds UTC hours into local buckets, fills the empty ones and
 * labels the answers.
 *
 * The counts are per UTC hour, so the period is taken in whole hours: `from` rounded down and `to`
 * up to the hour, and the answer says which period it counted. A site zone a whole number of hours
 * from UTC (nearly all of them) gets exact days; in a zone such as Asia/Kolkata (+05:30) a day's
 * bucket holds the hours that start in it, so its edges are half an hour off.
 */
import type { Field, Form } from '@svc/core';
import type { AdminKey } from './admin-keys.js';
import { readableForm, type AdminServices } from './admin-service.js';
import { zonedMidnight, type ReportInterval, type ReportQuery } from './admin-reports-query.js';
import { HOUR_MS } from '../submissions/report-counts.js';
import { countAnswers, countByHour, countByStatus, type ReportPeriod } from './admin-reports-repository.js';

const DAY_MS = 86_400_000;
const SINGLE = new Set(['select', 'radioGroup', 'opinionScale', 'rating']);
const LIST = new Set(['multipleSelect', 'checkboxGroup']);

export interface ReportAnswer {
  readonly value: string;
  readonly label: string;
  readonly count: number;
}

export interface ReportField {
  readonly handle: string;
  readonly label: string;
  readonly type: string;
  /** Every option in the form's order (zero counts included), then answers no option has any more. */
  readonly answers: readonly ReportAnswer[];
}

export interface FormReport {
  readonly form: string;
  readonly from: string;
  readonly to: string;
  readonly interval: ReportInterval;
  /** The IANA zone the buckets are days, weeks or months of. */
  readonly timezone: string;
  /** Clean submissions of the period (what the answers are counted over). */
  readonly total: number;
  readonly spam: number;
  /** One per bucket, oldest first: `YYYY-MM-DD` (a week by its Monday) or `YYYY-MM`. */
  readonly series: readonly { readonly bucket: string; readonly clean: number; readonly spam: number }[];
  readonly statuses: readonly { readonly status: string; readonly clean: number; readonly spam: number }[];
  readonly fields: readonly ReportField[];
}

/** Whether a field has a distribution worth drawing. */
export function isReportedField(field: Field): boolean {
  return field.handle !== null && (SINGLE.has(field.type) || LIST.has(field.type));
}

function optionsOf(field: Field): readonly { value: string; label: string }[] {
  if (field.type === 'rating') return Array.from({ length: field.maxValue ?? 5 }, (_v, i) => ({ value: String(i + 1), label: `${i + 1} of ${field.maxValue ?? 5}` }));
  if (field.type === 'opinionScale') return field.scales;
  return 'options' in field ? (field.options as readonly { value: string; label: string }[]) : [];
}

/** A local calendar date `YYYY-MM-DD` moved by `days` (pure date arithmetic, no zone). */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

function bucketOf(date: string, interval: ReportInterval): string {
  if (interval === 'month') return date.slice(0, 7);
  if (interval === 'day') return date;
  const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  return addDays(date, -weekday);
}

/** The local calendar date of an instant in `timezone`. */
export function localDate(timezone: string): (at: Date) => string {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
  return (at) => format.format(at);
}

export async function buildReport(services: AdminServices, key: AdminKey, handle: string, query: ReportQuery, timezone: string): Promise<FormReport> {
  const form: Form = readableForm(services, key, handle);
  const period: ReportPeriod = { formId: form.id, fromHour: Math.floor(query.from.getTime() / HOUR_MS), toHour: Math.ceil(query.to.getTime() / HOUR_MS) };
  const from = new Date(period.fromHour * HOUR_MS);
  const to = new Date(period.toHour * HOUR_MS);
  const reported = form.fields.filter(isReportedField);
  const [hours, statuses, answers] = await Promise.all([countByHour(services.db, period), countByStatus(services.db, period), countAnswers(services.db, period)]);
  const dateOf = localDate(timezone);
  // Every bucket of the period, empty ones too, so the chart's time axis has no gaps; and where
  // each local day starts, so an hour finds its day by a binary search instead of a date format
  // (a year is 8,784 hours, each counted clean and spam).
  const series = new Map<string, { clean: number; spam: number }>();
  const starts: number[] = [];
  const dayBuckets: { clean: number; spam: number }[] = [];
  const last = dateOf(new Date(to.getTime() - 1));
  for (let day = dateOf(from); day <= last; day = addDays(day, 1)) {
    const bucket = bucketOf(day, query.interval);
    let entry = series.get(bucket);
    if (!entry) series.set(bucket, (entry = { clean: 0, spam: 0 }));
    starts.push(zonedMidnight(day, timezone).getTime());
    dayBuckets.push(entry);
  }
  for (const row of hours) {
    const at = row.hour * HOUR_MS;
    let low = 0;
    let high = starts.length - 1;
    // The last day that starts at or before the hour (the first day may start before the period).
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] as number) <= at) low = mid;
      else high = mid - 1;
    }
    const bucket = dayBuckets[low];
    if (!bucket) continue;
    if (row.spam) bucket.spam += row.n;
    else bucket.clean += row.n;
  }
  const byStatus = new Map<string, { clean: number; spam: number }>(services.statuses.map((s) => [s, { clean: 0, spam: 0 }]));
  for (const row of statuses) {
    const entry = byStatus.get(row.status) ?? { clean: 0, spam: 0 };
    if (row.spam) entry.spam += row.n;
    else entry.clean += row.n;
    byStatus.set(row.status, entry);
  }
  const byField = new Map<string, Map<string, number>>();
  for (const answer of answers) {
    const counted = byField.get(answer.handle) ?? new Map<string, number>();
    counted.set(answer.value, answer.n);
    byField.set(answer.handle, counted);
  }
  const fields = reported.map((field) => {
    const counted = byField.get(field.handle as string) ?? new Map<string, number>();
    const options = optionsOf(field);
    const known = new Set(options.map((o) => o.value));
    const rows: ReportAnswer[] = options.map((o) => ({ value: o.value, label: o.label, count: counted.get(o.value) ?? 0 }));
    for (const [value, count] of counted) if (!known.has(value)) rows.push({ value, label: value, count });
    return { handle: field.handle as string, label: field.label, type: field.type, answers: rows };
  });
  const statusRows = [...byStatus].map(([status, c]) => ({ status, ...c }));
  return {
    form: form.handle,
    from: from.toISOString(),
    to: to.toISOString(),
    interval: query.interval,
    timezone,
    total: statusRows.reduce((sum, s) => sum + s.clean, 0),
    spam: statusRows.reduce((sum, s) => sum + s.spam, 0),
    series: [...series].map(([bucket, c]) => ({ bucket, ...c })),
    statuses: statusRows,
    fields,
  };
}
