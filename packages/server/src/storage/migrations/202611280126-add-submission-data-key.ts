import type { Kysely } from 'kysely';

/**
 * issue #37 item 1: a submission's values and title are sealed under a data key of its own
 * (privacy/privacy-sealer.ts), stored wrapped in this column. Null is a row written before
 * sealing: its values and title are still plain JSON and text until `svc privacy encrypt` (or the
 * pass a start runs in the background) seals it, and reads accept both.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('svc_submissions').addColumn('data_key', 'text').execute();
}
