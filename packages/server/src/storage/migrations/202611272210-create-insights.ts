import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database-factory.js';

/**
 * issue #38: the insights aggregates. Counts only, per form, site and UTC hour (hours since the
 * epoch): no values, no addresses, no identifiers, no row per person. Every table's primary key
 * starts with form and hour, so a report over a period reads one index range, and it is the
 * conflict target the coalesced upserts add to (`n = n + excluded.n`). On SQLite the tables are
 * WITHOUT ROWID, so rows are stored in key order and a report's range scan reads them in place
 * instead of looking each one up from the key's index (PostgreSQL's index-only scans do the same).
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const clustered = <T extends { modifyEnd(modifier: ReturnType<typeof sql>): T }>(builder: T) => (dialect === 'sqlite' ? builder.modifyEnd(sql`without rowid`) : builder);
  // One row per answered step: the page it was answered on, its intent and its outcome.
  await db.schema
    .createTable('svc_insight_steps')
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('site', 'text', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('intent', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('svc_insight_steps_pk', ['form_id', 'hour', 'site', 'page', 'intent', 'outcome'])
    .$call(clustered)
    .execute();
  // Validation errors per field by the message's catalogue key (never the value that caused it).
  await db.schema
    .createTable('svc_insight_field_errors')
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('site', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('message_key', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('svc_insight_field_errors_pk', ['form_id', 'hour', 'site', 'field', 'message_key'])
    .$call(clustered)
    .execute();
  // Journey figures: views, starts, completions, resumes (page -1), and per page the journeys that
  // reached it and the net number that arrived minus those that went on ("at").
  await db.schema
    .createTable('svc_insight_counts')
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('site', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('svc_insight_counts_pk', ['form_id', 'hour', 'site', 'kind', 'page'])
    .$call(clustered)
    .execute();
  // Time spent on a page, as a histogram: how many journeys left it after `seconds` (a bucket's floor).
  await db.schema
    .createTable('svc_insight_durations')
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('site', 'text', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('seconds', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('svc_insight_durations_pk', ['form_id', 'hour', 'site', 'page', 'seconds'])
    .$call(clustered)
    .execute();
  // The retention purge deletes by hour across forms.
  for (const table of ['svc_insight_steps', 'svc_insight_field_errors', 'svc_insight_counts', 'svc_insight_durations']) {
    await db.schema.createIndex(`${table}_hour`).on(table).column('hour').execute();
  }
}
