import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeWithService, postgresUrl } from '../../test/support/service-requirements.js';
import { createScratchDatabase, type ScratchDatabase } from '../../test/support/postgres-database.js';
import { createDatabase, type DatabaseHandle } from './database-factory.js';
import { migrateToLatest } from './migration-runner.js';
import { runCompiled } from './compiled-queries.js';

describeWithService('prepared statements for the compiled statements (PostgreSQL)', postgresUrl(), 'SVC_TEST_POSTGRES_URL is not set', (adminUrl) => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await createScratchDatabase(adminUrl);
    const handle = createDatabase({ url: scratch.url, dataDir: '.' });
    await migrateToLatest(handle);
    await handle.close();
  });
  afterAll(async () => {
    await scratch?.drop();
  });

  /** One connection, so the session that prepared is the one asked. */
  async function withDatabase<T>(preparedStatements: boolean, run: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
    const handle = createDatabase({ url: scratch.url, dataDir: '.', poolSize: 1, preparedStatements });
    try {
      return await run(handle);
    } finally {
      await handle.close();
    }
  }

  const insertForm = (handle: DatabaseHandle, name: string) =>
    runCompiled(
      handle.db,
      'prepared-test-insert-form',
      () => handle.db.insertInto('svc_forms').values({ uid: '', handle: '', hash: 'h', version: 'v', created_at: '', updated_at: '' }).returning('id'),
      [name, name, 'h', 'v', '', ''],
    );

  const prepared = (handle: DatabaseHandle) =>
    sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements where statement like 'insert into "svc_forms"%'`.execute(handle.db);

  it('prepares a compiled statement once per connection and runs it again by name, past a failed run', async () => {
    await withDatabase(true, async (handle) => {
      await insertForm(handle, 'prepared-1');
      // A unique violation fails the run, not the prepared statement.
      await expect(insertForm(handle, 'prepared-1')).rejects.toThrow();
      const third = await insertForm(handle, 'prepared-2');
      expect(third.rows).toHaveLength(1);
      const { rows } = await prepared(handle);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.name).toMatch(/^svc_\d+$/);
    });
  });

  it('prepares nothing when database.preparedStatements is false', async () => {
    await withDatabase(false, async (handle) => {
      await insertForm(handle, 'unprepared-1');
      const { rows } = await prepared(handle);
      expect(rows).toEqual([]);
    });
  });
});
