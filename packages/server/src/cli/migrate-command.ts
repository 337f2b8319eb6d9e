/**
 * `svc migrate`: apply pending migrations (serve does this too; this is for deploy pipelines).
 * `svc migrate --dry-run` lists, in order, the ones that would run and runs none, so an upgrade
 * can be read before it is made (docs/upgrading.md).
 */
import { createDatabase } from '../storage/database-factory.js';
import { migrateToLatest, plannedMigrations } from '../storage/migration-runner.js';
import { commandConfig, type CommandOptions } from './command-options.js';

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
    return 0;
  } finally {
    await database.close();
  }
}
