import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // issue #32: console sessions kept on the server, so sign-out, a password change, a removed key
  // and `svc admin sessions revoke` end them on every instance sharing the database. The cookie
  // holds a random id; only its SHA-256 is stored. expires_at is the earlier of the idle and the
  // absolute expiry, so one index serves both the check and the purge.
  await db.schema
    .createTable('svc_console_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('credential', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('svc_console_sessions_expires').on('svc_console_sessions').column('expires_at').execute();
  await db.schema.createIndex('svc_console_sessions_account').on('svc_console_sessions').columns(['kind', 'name']).execute();
}
