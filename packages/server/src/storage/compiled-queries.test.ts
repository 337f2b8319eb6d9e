import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from './database-factory.js';
import { migrateToLatest } from './migration-runner.js';
import { runCompiled } from './compiled-queries.js';

describe('statements compiled once', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = createDatabase({ url: 'sqlite::memory:', dataDir: '.' });
    await migrateToLatest(handle);
  });
  afterAll(async () => {
    await handle?.close();
  });

  const insertForm = (db: DatabaseHandle['db'], name: string) => {
    const values = { uid: name, handle: name, hash: 'h', version: 'v', created_at: '', updated_at: '' };
    let built = 0;
    const build = () => {
      built += 1;
      return db.insertInto('svc_forms').values(values).returning('handle');
    };
    return { run: () => runCompiled(db, 'test-insert-form', build, Object.values(values)), built: () => built };
  };

  it('builds a statement once and runs it with each call’s parameters, in transactions too', async () => {
    const first = insertForm(handle.db, 'first');
    expect((await first.run()).rows).toEqual([{ handle: 'first' }]);
    expect(first.built()).toBe(1);
    const second = await handle.db.transaction().execute(async (trx) => {
      const again = insertForm(trx, 'second');
      const { rows } = await again.run();
      return { rows, built: again.built() };
    });
    expect(second).toEqual({ rows: [{ handle: 'second' }], built: 0 });
    const stored = await handle.db.selectFrom('svc_forms').select('handle').orderBy('id').execute();
    expect(stored.map((row) => row.handle)).toEqual(['first', 'second']);
  });

  it('refuses parameters that do not fit the statement', async () => {
    const build = () => handle.db.selectFrom('svc_forms').select('id').where('handle', '=', 'x').where('hash', '=', 'y');
    await expect(runCompiled(handle.db, 'test-two-parameters', build, ['only-one'])).rejects.toThrow(/1 parameters for a statement that binds 2/);
  });
});
