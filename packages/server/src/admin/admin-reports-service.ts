/**
 * A form's report (issue #35 item 6, Freeform's survey reports): submissions over time by day,
 * week or month of the site's time zone, by status and spam, and the distribution of answers of
 * every choice, rating and opinion-scale field. The database counts (admin-reports-repository.ts);
 * this folds UTC hours into local buckets, fills the empty ones and labels the answers.
 */
import type { Field, Form } from '@svc/core';
import type { DialectName } from '../storage/database-factory.js';
import type { AdminKey } from './admin-keys.js';
import { readableForm, type AdminServices } from './admin-service.js';
import type { ReportInterval, ReportQuery } from './admin-reports-query.js';
import { countAnswersInValues, countByHour, countByStatus, type ReportPeriod } from './admin-reports-repository.js';

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

export async function buildReport(services: AdminServices, dialect: DialectName, key: AdminKey, handle: string, query: ReportQuery, timezone: string): Promise<FormReport> {
  const form: Form = readableForm(services, key, handle);
  const period: ReportPeriod = { formId: form.id, from: query.from.toISOString(), to: query.to.toISOString() };
  const reported = form.fields.filter(isReportedField);
  const [hours, statuses, ...answers] = await Promise.all([
    countByHour(services.db, period),
    countByStatus(services.db, period),
    ...reported.map((f) => countAnswersInValues(services.db, dialect, period, f.handle as string, LIST.has(f.type))),
  ]);
  const dateOf = localDate(timezone);
  // Every bucket of the period, empty ones too, so the chart's time axis has no gaps.
  const series = new Map<string, { clean: number; spam: number }>();
  const last = dateOf(new Date(query.to.getTime() - 1));
  for (let day = dateOf(query.from); day <= last; day = addDays(day, 1)) {
    const bucket = bucketOf(day, query.interval);
    if (!series.has(bucket)) series.set(bucket, { clean: 0, spam: 0 });
  }
  for (const row of hours) {
    const bucket = series.get(bucketOf(dateOf(new Date(`${row.hour}:00:00Z`)), query.interval));
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
  const fields = reported.map((field, i) => {
    const counted = new Map((answers[i] ?? []).map((a) => [a.value, a.n]));
    const options = optionsOf(field);
    const known = new Set(options.map((o) => o.value));
    const rows: ReportAnswer[] = options.map((o) => ({ value: o.value, label: o.label, count: counted.get(o.value) ?? 0 }));
    for (const [value, count] of counted) if (!known.has(value)) rows.push({ value, label: value, count });
    return { handle: field.handle as string, label: field.label, type: field.type, answers: rows };
  });
  const statusRows = [...byStatus].map(([status, c]) => ({ status, ...c }));
  return {
    form: form.handle,
    from: period.from,
    to: period.to,
    interval: query.interval,
    timezone,
    total: statusRows.reduce((sum, s) => sum + s.clean, 0),
    spam: statusRows.reduce((sum, s) => sum + s.spam, 0),
    series: [...series].map(([bucket, c]) => ({ bucket, ...c })),
    statuses: statusRows,
    fields,
  };
}
