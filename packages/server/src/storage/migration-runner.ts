/**
 * Applies the append-only migrations (named `YYYYMMDDHHMM-verb-noun.ts`) with Kysely's Migrator,
 * which takes a lock so several instances booting at once migrate exactly once.
 */
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseHandle, DialectName } from './database-factory.js';
import * as createCoreTables from './migrations/202611220900-create-core-tables.js';
import * as createDraftsAndIdempotency from './migrations/202611221000-create-drafts-and-idempotency.js';
import * as addSubmissionIpHash from './migrations/202611221100-add-submission-ip-hash.js';
import * as createFiles from './migrations/202611230900-create-files.js';
import * as createDeliveries from './migrations/202611231000-create-deliveries.js';
import * as addSubmissionClient from './migrations/202611241000-add-submission-client.js';
import * as addUploadBinding from './migrations/202611241010-add-upload-binding.js';
import * as createPayments from './migrations/202611241800-create-payments.js';
import * as addProfiles from './migrations/202611241900-add-profiles.js';
import * as createClassicTables from './migrations/202611250200-create-classic-tables.js';
import * as createAuditLog from './migrations/202611250300-create-audit-log.js';
import * as mergeUploadIndexes from './migrations/202611271000-merge-upload-indexes.js';
import * as addPaymentOwner from './migrations/202611271700-add-payment-owner.js';
import * as createConsoleSessions from './migrations/202611300900-create-console-sessions.js';

interface DialectMigration {
  up(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
}

/** In order; a new migration is appended here and never edited once released. */
const MIGRATIONS: Readonly<Record<string, DialectMigration>> = {
  '202611220900-create-core-tables': createCoreTables,
  '202611221000-create-drafts-and-idempotency': createDraftsAndIdempotency,
  '202611221100-add-submission-ip-hash': addSubmissionIpHash,
  '202611230900-create-files': createFiles,
  '202611231000-create-deliveries': createDeliveries,
  '202611241000-add-submission-client': addSubmissionClient,
  '202611241010-add-upload-binding': addUploadBinding,
  '202611241800-create-payments': createPayments,
  '202611241900-add-profiles': addProfiles,
  '202611250200-create-classic-tables': createClassicTables,
  '202611250300-create-audit-log': createAuditLog,
  '202611271000-merge-upload-indexes': mergeUploadIndexes,
  '202611271700-add-payment-owner': addPaymentOwner,
  '202611300900-create-console-sessions': createConsoleSessions,
};

class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (db: Kysely<unknown>) => m.up(db, this.dialect) }]),
    );
  }
}

/** Migrations this build knows that the database has not run (readiness, issue #16); [] when current. */
export async function pendingMigrations(handle: DatabaseHandle): Promise<readonly string[]> {
  const rows = await (handle.db as unknown as Kysely<{ svc_migrations: { name: string } }>).selectFrom('svc_migrations').select('name').execute();
  const done = new Set(rows.map((row) => row.name));
  return Object.keys(MIGRATIONS).filter((name) => !done.has(name));
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<readonly string[]> {
  const migrator = new Migrator({
    db: handle.db,
    provider: new StaticMigrationProvider(handle.dialect),
    migrationTableName: 'svc_migrations',
    migrationLockTableName: 'svc_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('Migration failed');
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
