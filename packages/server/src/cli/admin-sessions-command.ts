/**
 * `svc admin sessions revoke --user NAME` (or `--key NAME`, issue #32): ends every console session
 * of one console user or API key now, on every instance sharing the database, e.g. when a laptop
 * is lost or a person leaves. Their next request goes to the sign-in page.
 */
import { createDatabase } from '../storage/database-factory.js';
import { migrateToLatest } from '../storage/migration-runner.js';
import { revokeConsoleSessions } from '../console/console-sessions.js';
import { commandConfig, type CommandOptions } from './command-options.js';

export interface RevokeSessionsOptions extends CommandOptions {
  readonly user: string | undefined;
  readonly key: string | undefined;
}

export async function runRevokeSessions(options: RevokeSessionsOptions): Promise<number> {
  if (!options.user === !options.key) {
    process.stderr.write('svc admin sessions revoke needs --user NAME or --key NAME (one of them)\n');
    return 2;
  }
  const config = commandConfig(options);
  const database = createDatabase({ url: config.database.url, dataDir: config.dataDir, poolSize: 1 });
  try {
    // A database older than the sessions table has no session to end; migrating makes the answer 0.
    await migrateToLatest(database);
    const [kind, name] = options.user ? (['user', options.user] as const) : (['key', options.key as string] as const);
    const ended = await revokeConsoleSessions(database.db, kind, name);
    process.stdout.write(`Ended ${ended} console session(s) of ${kind} ${name}.\n`);
    return 0;
  } finally {
    await database.close();
  }
}
