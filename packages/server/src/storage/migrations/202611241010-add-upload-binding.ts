import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // contract §7: the official client submits drag-and-drop ids without its upload token, so an
  // upload is also owned by the browser that sent it: SHA-256 of its CSRF binding cookie.
  await db.schema.alterTable('svc_files').addColumn('binding_hash', 'text').execute();
}
