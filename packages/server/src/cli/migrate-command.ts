/** `svc migrate`: apply pending migrations (serve does this too; this is for deploy pipelines). */
import { createDatabase } from '../storage/database-factory.js';
import { migrateToLatest } from '../storage/migration-runner.js';
import { commandConfig, type CommandOptions } from './command-options.js';

export async function runMigrate(options: CommandOptions): Promise<number> {
  const config = commandConfig(options);
  const database = createDatabase({ url: config.database.url, dataDir: config.dataDir });
  try {
    const applied = await migrateToLatest(database);
    process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Database is up to date.\n');
    return 0;
  } finally {
    await database.close();
  }
}
