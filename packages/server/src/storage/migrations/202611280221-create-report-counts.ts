import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database-factory.js';

/**
 * issue #35 item 6: a form's report from counts kept at write time, not from the stored values
 * (which issue #37 seals, so SQL cannot read them, and which at 1,000,000 rows took 35-65 s to
 * read). Per form and UTC hour (hours since the epoch, as the insights tables): submissions per
 * status and spam flag, and per choice, rating and opinion-scale field the clean submissions per
 * answer (a list answer counts each element). Hours, not days: a report's days are days of the
 * site's zone, and an hour belongs to exactly one local day in every zone a whole number of hours
 * from UTC. The same counts per UTC day (days since the epoch) beside them: a report sums whole
 * days from those and only the hours at the period's two ends from the hourly ones, so a year is
 * 366 days of rows instead of 8,784 hours of them (at 1,000,000 rows SQLite summed the hourly
 * answers alone in 375 ms). The primary keys start with form and hour (or day), so a report's
 * period is one index range, and they are the conflict target of the writes' upserts
 * (`n = n + excluded.n`); WITHOUT ROWID on SQLite keeps each range in key order in place. `slot`
 * spreads the hour's and the day's rows over a few copies on PostgreSQL: its write lanes commit at
 * once, and with one row for the hour each batch waited for the last one's commit to add to it
 * (submits at 0.49 of the bare insert); a report sums the copies. SQLite, one writer, uses slot 0.
 *
 * svc_report_forms records, per form, the fields its answers were counted for; a form with no row
 * (every form of an installation older than this migration) or another field list is recounted
 * from its rows at boot (submissions/report-count-rebuild.ts), which is the backfill: it needs the
 * form definitions and reads values in app code, so it cannot be SQL here.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const clustered = <T extends { modifyEnd(modifier: ReturnType<typeof sql>): T }>(builder: T) => (dialect === 'sqlite' ? builder.modifyEnd(sql`without rowid`) : builder);
  await db.schema
    .createTable('svc_report_counts')
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('is_spam', 'integer', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('svc_report_counts_pk', ['form_id', 'hour', 'status', 'is_spam', 'slot'])
    .$call(clustered)
    .execute();
  await db.schema
    .createTable('svc_report_answers')
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('handle', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('svc_report_answers_pk', ['form_id', 'hour', 'handle', 'answer', 'slot'])
    .$call(clustered)
    .execute();
  await db.schema
    .createTable('svc_report_count_days')
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('is_spam', 'integer', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('svc_report_count_days_pk', ['form_id', 'day', 'status', 'is_spam', 'slot'])
    .$call(clustered)
    .execute();
  await db.schema
    .createTable('svc_report_answer_days')
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('handle', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('svc_report_answer_days_pk', ['form_id', 'day', 'handle', 'answer', 'slot'])
    .$call(clustered)
    .execute();
  await db.schema
    .createTable('svc_report_forms')
    .addColumn('form_id', 'integer', (c) => c.primaryKey())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('counted_at', 'text', (c) => c.notNull())
    .execute();
}
