import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // issue #34: the site a submission was made on (its handle); null for submissions made before
  // sites existed, which were all made on the one default site.
  await db.schema.alterTable('svc_submissions').addColumn('site', 'text').execute();
}
