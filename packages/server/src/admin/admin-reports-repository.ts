/**
 * The SQL of a form's report (issue #35 item 6): sums over the counts kept at write time
 * (submissions/report-counts.ts), never over the submissions themselves, whose values are sealed
 * at rest (issue #37) and which at 1,000,000 rows took 35-65 s to read. Every query is one range
 * of a primary key that starts (form_id, hour) or (form_id, day), so its cost follows the length
 * of the period and the answers a form has, not the rows it holds. Totals per status and answers
 * sum whole UTC days from the daily counts and only the hours at the two ends from the hourly
 * ones; the series reads hours, which the service folds into days, weeks or months of the site's
 * time zone (a day in Berlin is not a UTC day).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';

type Db = Kysely<Database>;

export interface ReportPeriod {
  readonly formId: number;
  /** UTC hours since the epoch, inclusive. */
  readonly fromHour: number;
  /** UTC hours since the epoch, exclusive. */
  readonly toHour: number;
}

/** The period as whole UTC days (null when it holds none) and the hour ranges left at its ends. */
export function splitPeriod(period: ReportPeriod): { days: readonly [number, number] | null; hours: readonly (readonly [number, number])[] } {
  const firstDay = Math.ceil(period.fromHour / 24);
  const endDay = Math.floor(period.toHour / 24);
  if (firstDay >= endDay) return { days: null, hours: [[period.fromHour, period.toHour]] };
  const hours = [[period.fromHour, firstDay * 24], [endDay * 24, period.toHour]] as const;
  return { days: [firstDay, endDay], hours: hours.filter(([from, to]) => from < to) };
}

export interface HourCount {
  /** UTC hours since the epoch. */
  readonly hour: number;
  readonly spam: boolean;
  readonly n: number;
}

/** Submissions per UTC hour of the period, clean and spam apart. */
export async function countByHour(db: Db, period: ReportPeriod): Promise<HourCount[]> {
  const rows = await db
    .selectFrom('svc_report_counts')
    .select(['hour', 'is_spam', (eb) => eb.fn.sum<string | number>('n').as('n')])
    .where('form_id', '=', period.formId)
    .where('hour', '>=', period.fromHour)
    .where('hour', '<', period.toHour)
    .groupBy(['hour', 'is_spam'])
    .execute();
  return rows.map((r) => ({ hour: Number(r.hour), spam: Number(r.is_spam) === 1, n: Number(r.n) })).filter((r) => r.n !== 0);
}

export interface StatusCount {
  readonly status: string;
  readonly spam: boolean;
  readonly n: number;
}

/** Submissions of the period per status, clean and spam apart. */
export async function countByStatus(db: Db, period: ReportPeriod): Promise<StatusCount[]> {
  const { days, hours } = splitPeriod(period);
  const parts = await Promise.all([
    ...(days ? [db.selectFrom('svc_report_count_days').select(['status', 'is_spam', (eb) => eb.fn.sum<string | number>('n').as('n')]).where('form_id', '=', period.formId).where('day', '>=', days[0]).where('day', '<', days[1]).groupBy(['status', 'is_spam']).execute()] : []),
    ...hours.map(([from, to]) => db.selectFrom('svc_report_counts').select(['status', 'is_spam', (eb) => eb.fn.sum<string | number>('n').as('n')]).where('form_id', '=', period.formId).where('hour', '>=', from).where('hour', '<', to).groupBy(['status', 'is_spam']).execute()),
  ]);
  const sums = new Map<string, StatusCount & { n: number }>();
  for (const r of parts.flat()) {
    const key = `${r.status}\u0000${r.is_spam}`;
    const entry = sums.get(key) ?? { status: r.status, spam: Number(r.is_spam) === 1, n: 0 };
    entry.n += Number(r.n);
    sums.set(key, entry);
  }
  return [...sums.values()].filter((r) => r.n !== 0);
}

export interface AnswerCount {
  readonly handle: string;
  /** The answer as text (a rating's 4 is "4"); a list answer is counted per element. */
  readonly value: string;
  readonly n: number;
}

/** How often each answer of the form's reported fields was given by the clean submissions of the period. */
export async function countAnswers(db: Db, period: ReportPeriod): Promise<AnswerCount[]> {
  const { days, hours } = splitPeriod(period);
  const parts = await Promise.all([
    ...(days ? [db.selectFrom('svc_report_answer_days').select(['handle', 'answer', (eb) => eb.fn.sum<string | number>('n').as('n')]).where('form_id', '=', period.formId).where('day', '>=', days[0]).where('day', '<', days[1]).groupBy(['handle', 'answer']).execute()] : []),
    ...hours.map(([from, to]) => db.selectFrom('svc_report_answers').select(['handle', 'answer', (eb) => eb.fn.sum<string | number>('n').as('n')]).where('form_id', '=', period.formId).where('hour', '>=', from).where('hour', '<', to).groupBy(['handle', 'answer']).execute()),
  ]);
  const sums = new Map<string, AnswerCount & { n: number }>();
  for (const r of parts.flat()) {
    const key = `${r.handle}\u0000${r.answer}`;
    const entry = sums.get(key) ?? { handle: r.handle, value: r.answer, n: 0 };
    entry.n += Number(r.n);
    sums.set(key, entry);
  }
  return [...sums.values()].filter((r) => r.n !== 0);
}
