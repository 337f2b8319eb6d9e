import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // contract §1: the client name and version (`meta.client`, `meta.clientVersion`) and the page
  // the form was on (`context.sourceUrl`) are kept with the submission, as one JSON object.
  await db.schema.alterTable('svc_submissions').addColumn('client', 'text').execute();
}
