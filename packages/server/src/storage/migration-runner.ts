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
import * as createConsoleSessions from './migrations/202611271800-create-console-sessions.js';
import * as addSubmissionSite from './migrations/202611272000-add-submission-site.js';
import * as createInsights from './migrations/202611272210-create-insights.js';
import * as addSubmissionRevisionAndNotes from './migrations/202611272221-add-submission-revision-and-notes.js';
import * as addSubmissionReportIndex from './migrations/202611272236-add-submission-report-index.js';
import * as createConsoleFilters from './migrations/202611272237-create-console-filters.js';
import * as createPrivacyIndex from './migrations/202611272246-create-privacy-index.js';
import * as addDataKeys from './migrations/202611280122-add-data-keys.js';
import * as createErasureLedger from './migrations/202611280123-create-erasure-ledger.js';
import * as addSubmissionDataKey from './migrations/202611280126-add-submission-data-key.js';
import * as createReportCounts from './migrations/202611280221-create-report-counts.js';

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
  '202611271800-create-console-sessions': createConsoleSessions,
  '202611272000-add-submission-site': addSubmissionSite,
  '202611272210-create-insights': createInsights,
  '202611272221-add-submission-revision-and-notes': addSubmissionRevisionAndNotes,
  '202611272236-add-submission-report-index': addSubmissionReportIndex,
  '202611272237-create-console-filters': createConsoleFilters,
  '202611272246-create-privacy-index': createPrivacyIndex,
  '202611280122-add-data-keys': addDataKeys,
  '202611280123-create-erasure-ledger': createErasureLedger,
  '202611280126-add-submission-data-key': addSubmissionDataKey,
  '202611280221-create-report-counts': createReportCounts,
};

/**
 * Names a migration had before it was renamed -> its name now. The console sessions migration was
 * first committed as 202611300900, a date days ahead of its commit: Kysely runs migrations in name
 * order and refuses a database whose recorded migrations are not the first ones in that order, so
 * every migration written before that date would have sorted ahead of it and been refused on any
 * database that already ran it. A database migrated under an old name has its record renamed
 * (same row, same timestamp) before the migrator reads it, so the migration is not run again.
 * Nothing is ever removed from this map.
 */
const RENAMED: Readonly<Record<string, string>> = {
  '202611300900-create-console-sessions': '202611271800-create-console-sessions',
};

type MigrationTable = Kysely<{ svc_migrations: { name: string } }>;

/** The migrations, in order, the way `svc migrate` and boot run them. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

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
  const rows = await (handle.db as unknown as MigrationTable).selectFrom('svc_migrations').select('name').execute();
  // A record under an old name counts as its migration, renamed or not yet.
  const done = new Set(rows.map((row) => RENAMED[row.name] ?? row.name));
  return MIGRATION_NAMES.filter((name) => !done.has(name));
}

async function hasMigrationTable(handle: DatabaseHandle): Promise<boolean> {
  const tables = await handle.db.introspection.getTables();
  return tables.some((table) => table.name === 'svc_migrations');
}

/**
 * What migrateToLatest would run, in order, without running or writing anything (`svc migrate
 * --dry-run`): every migration on a database svc has never migrated.
 */
export async function plannedMigrations(handle: DatabaseHandle): Promise<readonly string[]> {
  return (await hasMigrationTable(handle)) ? pendingMigrations(handle) : MIGRATION_NAMES;
}

/**
 * Renames the records of renamed migrations. The update is the same on every instance, so several
 * booting at once may all run it: whichever is first renames, the others change nothing.
 */
async function renameRecordedMigrations(handle: DatabaseHandle): Promise<void> {
  if (!(await hasMigrationTable(handle))) return;
  const db = handle.db as unknown as MigrationTable;
  for (const [from, to] of Object.entries(RENAMED)) {
    await db.updateTable('svc_migrations').set({ name: to }).where('name', '=', from).execute();
  }
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<readonly string[]> {
  await renameRecordedMigrations(handle);
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
