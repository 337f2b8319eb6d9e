/**
 * Runs an HTTP suite once per storage dialect: SQLite always, PostgreSQL when configured. The
 * suite receives the `database.url` to put into its app config (null = embedded SQLite).
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { describeWithService, postgresUrl } from './service-requirements.js';
import { createScratchDatabase, type ScratchDatabase } from './postgres-database.js';

export interface DialectTarget {
  /** Resolved in beforeAll; read it inside hooks and tests, not at collection time. */
  url(): string | null;
}

export function describeEachDialect(name: string, body: (target: DialectTarget) => void): void {
  describe(`${name} (SQLite)`, () => body({ url: () => null }));
  describeWithService(`${name} (PostgreSQL)`, postgresUrl(), 'SVC_TEST_POSTGRES_URL is not set', (adminUrl) => {
    let scratch: ScratchDatabase | undefined;
    beforeAll(async () => {
      scratch = await createScratchDatabase(adminUrl);
    });
    afterAll(async () => {
      await scratch?.drop();
    });
    body({ url: () => scratch?.url ?? null });
  });
}
