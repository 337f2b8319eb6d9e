import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Per-IP submission limits need to recognise a client even when ipCollectingEnabled is off,
  // so an HMAC of the IP is kept (never the address itself unless the form collects it).
  await db.schema.alterTable('svc_submissions').addColumn('ip_hash', 'text').execute();
  await db.schema.createIndex('svc_submissions_ip').on('svc_submissions').columns(['form_id', 'ip_hash', 'created_at']).execute();
}
