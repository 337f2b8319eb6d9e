import type { Kysely } from 'kysely';

/**
 * issue #37 item 1: the rows besides submissions that hold a person's data carry the wrapped data
 * key they are sealed under (privacy/privacy-keyring.ts): uploads (their stored bytes), drafts,
 * idempotency answers, outbox jobs and audit entries holding old and new values. Null is a row
 * written before sealing (read as plaintext until the encrypting migration reaches it). One key
 * per row, so destroying it shreds that row's every copy, backups included.
 */
export const DATA_KEY_TABLES = ['svc_files', 'svc_drafts', 'svc_idempotency_keys', 'svc_deliveries', 'svc_audit_log'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of DATA_KEY_TABLES) await db.schema.alterTable(table).addColumn('data_key', 'text').execute();
}
