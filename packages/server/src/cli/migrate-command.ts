/**
 * `svc migrate`: apply pending migrations (serve does this too; this is for deploy pipelines).
 * `svc migrate --dry-run` lists, in order, the ones that would run and runs none, so an upgrade
 * can be read before it is made (docs/upgrading.md).
 */
import { createDatabase } from '../storage/database-factory.js';
import { migrateToLatest, plannedMigrations } from '../storage/migration-runner.js';
import { commandConfig, type CommandOptions } from './command-options.js';
import { createFileStore } from '../files/file-store-factory.js';
import { applyErasureLedger } from '../privacy/privacy-ledger-apply.js';
import { erasureLedgerPath } from '../privacy/privacy-config.js';

export interface MigrateOptions extends CommandOptions {
  readonly dryRun?: boolean;
}

export async function runMigrate(options: MigrateOptions): Promise<number> {
  const config = commandConfig(options);
  const database = createDatabase({ url: config.database.url, dataDir: config.dataDir });
  try {
    if (options.dryRun) {
      const planned = await plannedMigrations(database);
      process.stdout.write(planned.length ? `Would run ${planned.length} migration(s), in this order:\n${planned.map((name) => `  ${name}\n`).join('')}` : 'Database is up to date: nothing to run.\n');
      return 0;
    }
    const applied = await migrateToLatest(database);
    process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Database is up to date.\n');
    // issue #37 item 2: as every start does, erasures this database has not seen are applied again.
    const store = createFileStore(config.files);
    try {
      const erasures = await applyErasureLedger({ db: database.db, store, path: erasureLedgerPath(config), now: () => new Date(), dialect: database.dialect });
      if (erasures.reapplied > 0) process.stdout.write(`Re-applied ${erasures.reapplied} erasures from the erasure ledger.\n`);
    } finally {
      await store.close();
    }
    return 0;
  } finally {
    await database.close();
  }
}
