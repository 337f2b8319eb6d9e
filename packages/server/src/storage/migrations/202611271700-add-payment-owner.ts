import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Issue #32 item 4: the intent id shows in return URLs and Referers, so knowing it must not let
  // another client checkpoint the intent with its own values. A payment remembers the browser that
  // created it (SHA-256 of its binding cookie, as an upload does); null for a client without one.
  await db.schema.alterTable('svc_payments').addColumn('owner_hash', 'text').execute();
}
