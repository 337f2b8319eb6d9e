import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // issue #14: what a classic post leaves for the page it redirects back to (values, errors, the
  // next payload), read once by the properties JSON with the key from the redirect. Only the
  // key's hash is stored; the row is sealed and deleted when read or when it expires.
  await db.schema
    .createTable('svc_classic_flashes')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('svc_classic_flashes_expires').on('svc_classic_flashes').column('expires_at').execute();
  // classic.sessionStorage = database: a rendered form's state kept here under a random id that
  // the formHash carries, instead of in an svc_payload the page posts back.
  await db.schema
    .createTable('svc_classic_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('svc_classic_sessions_expires').on('svc_classic_sessions').column('expires_at').execute();
}
