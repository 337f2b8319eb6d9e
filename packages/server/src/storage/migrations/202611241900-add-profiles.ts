import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // issue #13: which profile a submission came through, with its property values and subject (JSON).
  await db.schema.alterTable('svc_submissions').addColumn('profile', 'text').execute();
  // A single-use link's `jti`, spent by its first completed submission in that submission's own
  // transaction: the primary key makes two instances racing with one link store one submission.
  await db.schema
    .createTable('svc_spent_links')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('profile', 'text', (c) => c.notNull())
    .addColumn('submission_id', 'integer')
    .addColumn('spent_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
