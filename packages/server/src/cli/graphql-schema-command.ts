/**
 * `svc graphql schema` (issue #16): the GraphQL schema in SDL for the configured forms (each form
 * adds its `save_<form>_Submission` mutation), for clients that generate types from it. Forms are
 * registered in the configured database as `serve` would, since a mailing-list argument is named
 * by its field's hash there (`mailingList_<hash>`), which differs from one installation to another.
 */
import { printSchema } from 'graphql';
import { existsSync } from 'node:fs';
import { loadConfig } from '../config/config-loader.js';
import { createFormRegistry } from '../forms/form-registry.js';
import { buildSvcSchema } from '../graphql/graphql-schema.js';
import { createDatabase } from '../storage/database-factory.js';
import { migrateToLatest } from '../storage/migration-runner.js';
import type { CommandOptions } from './command-options.js';

/** The SDL of the schema svc serves for the forms in `dir`, registered in `database` (default: in memory). */
export async function graphqlSdl(dir: string, options: { url: string | null; dataDir: string } = { url: ':memory:', dataDir: '.' }): Promise<string> {
  const database = createDatabase(options);
  try {
    await migrateToLatest(database);
    const forms = await createFormRegistry({ db: database.db, dir });
    return `${printSchema(buildSvcSchema(forms.list()))}\n`;
  } finally {
    await database.close();
  }
}

export async function runGraphqlSchema(options: CommandOptions): Promise<number> {
  const config = loadConfig({ file: options.configFile, demo: options.demo, offline: true });
  const { dir } = config.forms;
  if (!existsSync(dir)) {
    process.stderr.write(`svc: the forms directory ${dir} does not exist; set forms.dir\n`);
    return 1;
  }
  process.stdout.write(await graphqlSdl(dir, { url: config.database.url, dataDir: config.dataDir }));
  return 0;
}
