/**
 * The SQL of a form's report (issue #35 item 6): counts per UTC hour (clean and spam), per status,
 * and per answer of the choice, rating and opinion-scale fields, all GROUP BY in the database so
 * a million rows never come to Node. Hours rather than days: the service folds them into days,
 * weeks or months of the site's time zone (a day in Berlin is not a UTC day).
 *
 * The counts over the period read only the index svc_submissions_form_report (form_id,
 * created_at, is_spam, status); the answers must read each row's values.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { DialectName } from '../storage/database-factory.js';

type Db = Kysely<Database>;

export interface ReportPeriod {
  readonly formId: number;
  /** ISO, inclusive. */
  readonly from: string;
  /** ISO, exclusive. */
  readonly to: string;
}

export interface HourCount {
  /** `YYYY-MM-DDTHH`, UTC. */
  readonly hour: string;
  readonly spam: boolean;
  readonly n: number;
}

/** Submissions per UTC hour of the period, clean and spam apart. */
export async function countByHour(db: Db, period: ReportPeriod): Promise<HourCount[]> {
  // created_at is ISO text on both dialects: its first 13 characters are the UTC hour.
  const hour = sql<string>`substr(created_at, 1, 13)`;
  const rows = await db
    .selectFrom('svc_submissions')
    .select([hour.as('hour'), 'is_spam', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('form_id', '=', period.formId)
    .where('created_at', '>=', period.from)
    .where('created_at', '<', period.to)
    .groupBy([hour, 'is_spam'])
    .execute();
  return rows.map((r) => ({ hour: r.hour, spam: Number(r.is_spam) === 1, n: Number(r.n) }));
}

export interface StatusCount {
  readonly status: string;
  readonly spam: boolean;
  readonly n: number;
}

/** Submissions of the period per status, clean and spam apart. */
export async function countByStatus(db: Db, period: ReportPeriod): Promise<StatusCount[]> {
  const rows = await db
    .selectFrom('svc_submissions')
    .select(['status', 'is_spam', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('form_id', '=', period.formId)
    .where('created_at', '>=', period.from)
    .where('created_at', '<', period.to)
    .groupBy(['status', 'is_spam'])
    .execute();
  return rows.map((r) => ({ status: r.status, spam: Number(r.is_spam) === 1, n: Number(r.n) }));
}

export interface AnswerCount {
  /** The stored answer as text (a rating's 4 is "4"); one row per element of a list answer. */
  readonly value: string;
  readonly n: number;
}

/**
 * SQL OVER STORED VALUES, the one place a report reads them: how often each answer of one field
 * was given by the clean submissions of the period. `list` fields (checkboxes, multiple select)
 * count each element. When values are encrypted at rest (issue #37) the database can no longer
 * read them and this function is what must be replaced (counts kept at write time instead).
 * `handle` is a form field handle (letters, digits, _ and -), bound as a parameter either way.
 */
export async function countAnswersInValues(db: Db, dialect: DialectName, period: ReportPeriod, handle: string, list: boolean): Promise<AnswerCount[]> {
  const { formId, from, to } = period;
  const where = sql`s.form_id = ${formId} AND s.is_spam = 0 AND s.created_at >= ${from} AND s.created_at < ${to}`;
  let query;
  if (dialect === 'postgres') {
    // values is JSON text: cast once per row; ->> gives text for strings and numbers alike.
    query = list
      ? sql<{ v: string | null; n: string | number }>`SELECT e.v AS v, count(*) AS n FROM svc_submissions s
          CROSS JOIN LATERAL (SELECT s."values"::jsonb -> ${handle} AS a) x
          CROSS JOIN LATERAL jsonb_array_elements_text(CASE WHEN jsonb_typeof(x.a) = 'array' THEN x.a ELSE '[]'::jsonb END) AS e(v)
          WHERE ${where} GROUP BY e.v`
      : sql<{ v: string | null; n: string | number }>`SELECT s."values"::jsonb ->> ${handle} AS v, count(*) AS n FROM svc_submissions s WHERE ${where} GROUP BY 1`;
  } else {
    const path = `$."${handle}"`;
    query = list
      ? sql<{ v: string | number | null; n: number }>`SELECT e.value AS v, count(*) AS n FROM svc_submissions s, json_each(s."values", ${path}) e
          WHERE ${where} AND e.type NOT IN ('array', 'object') GROUP BY e.value`
      : sql<{ v: string | number | null; n: number }>`SELECT json_extract(s."values", ${path}) AS v, count(*) AS n FROM svc_submissions s WHERE ${where} GROUP BY 1`;
  }
  const { rows } = await query.execute(db);
  return rows.filter((r) => r.v !== null && r.v !== '').map((r) => ({ value: String(r.v), n: Number(r.n) }));
}
