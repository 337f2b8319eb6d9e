/**
 * Migration names (issue #33): the runner's list is the migrations folder, in name order (Kysely
 * runs them in that order), none dated ahead of today (a migration written today would sort
 * before it and be refused on every database that ran it), and a database migrated under a
 * migration's old name (202611300900-create-console-sessions, renamed 202611271800) starts
 * cleanly without running it again: on SQLite, and on PostgreSQL when SVC_TEST_POSTGRES_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { createDatabase, type DatabaseHandle } from '../src/storage/database-factory.js';
import { MIGRATION_NAMES, migrateToLatest, pendingMigrations, plannedMigrations } from '../src/storage/migration-runner.js';
import { describeWithService, postgresUrl } from './support/service-requirements.js';
import { createScratchDatabase, type ScratchDatabase } from './support/postgres-database.js';

const MIGRATIONS_DIR = join(import.meta.dirname, '../src/storage/migrations');
const OLD_NAME = '202611300900-create-console-sessions';
const NEW_NAME = '202611271800-create-console-sessions';

describe('the migration list', () => {
  it('is the migrations folder, in name order, each named YYYYMMDDHHMM-verb-noun', () => {
    const files = readdirSync(MIGRATIONS_DIR).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts')).map((file) => file.replace(/\.ts$/, ''));
    expect(MIGRATION_NAMES).toEqual([...files].sort());
    expect([...MIGRATION_NAMES].sort()).toEqual(MIGRATION_NAMES);
    for (const name of MIGRATION_NAMES) expect(name).toMatch(/^\d{12}-[a-z]+(-[a-z0-9]+)+$/);
  });

  it('holds no migration dated ahead of today', () => {
    const today = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    const ahead = MIGRATION_NAMES.filter((name) => name.slice(0, 8) > today);
    expect(ahead, 'a later migration dated today would sort before these').toEqual([]);
  });
});

type Migrations = Kysely<{ svc_migrations: { name: string; timestamp: string } }>;

function migratedUnderOldName(open: () => Promise<{ handle: DatabaseHandle; cleanup: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let cleanup: () => Promise<void>;
  const recorded = async () => (await (handle.db as unknown as Migrations).selectFrom('svc_migrations').select(['name', 'timestamp']).execute()).map((row) => row.name).sort();

  beforeAll(async () => {
    ({ handle, cleanup } = await open());
    await migrateToLatest(handle);
    // What a build from before the rename left behind: the same tables, the old name on record.
    await (handle.db as unknown as Migrations).updateTable('svc_migrations').set({ name: OLD_NAME }).where('name', '=', NEW_NAME).execute();
  });
  afterAll(async () => {
    await handle?.close();
    await cleanup?.();
  });

  it('counts the old name as the migration before anything is renamed (readiness, svc migrate --dry-run)', async () => {
    expect(await recorded()).toContain(OLD_NAME);
    expect(await pendingMigrations(handle)).toEqual([]);
    expect(await plannedMigrations(handle)).toEqual([]);
  });

  it('starts without running the migration again and keeps its record under the new name', async () => {
    // Running it again would fail: svc_console_sessions exists.
    expect(await migrateToLatest(handle)).toEqual([]);
    const names = await recorded();
    expect(names).toContain(NEW_NAME);
    expect(names).not.toContain(OLD_NAME);
    expect(names).toEqual([...MIGRATION_NAMES].sort());
    await sql`select count(*) from svc_console_sessions`.execute(handle.db);
    expect(await migrateToLatest(handle)).toEqual([]);
  });
}

describe('a SQLite database migrated under the old name', () => {
  migratedUnderOldName(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-migration-names-'));
    return { handle: createDatabase({ url: null, dataDir: dir }), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  });
});

describeWithService('a PostgreSQL database migrated under the old name', postgresUrl(), 'SVC_TEST_POSTGRES_URL is not set', (url) => {
  migratedUnderOldName(async () => {
    const scratch: ScratchDatabase = await createScratchDatabase(url);
    return { handle: createDatabase({ url: scratch.url, dataDir: tmpdir() }), cleanup: () => scratch.drop() };
  });
});

describe('a database migrated by a newer build (docs/upgrading.md: rolling upgrades)', () => {
  it('keeps an older instance that is already running ready, and refuses to start one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-migration-newer-'));
    const handle = createDatabase({ url: null, dataDir: dir });
    try {
      await migrateToLatest(handle);
      // A migration this build does not know, as a newer build records it.
      await (handle.db as unknown as Migrations).insertInto('svc_migrations').values({ name: '209912312359-add-later-thing', timestamp: new Date().toISOString() }).execute();
      expect(await pendingMigrations(handle)).toEqual([]);
      await expect(migrateToLatest(handle)).rejects.toThrow(/previously executed migration 209912312359-add-later-thing is missing/);
    } finally {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a database svc never migrated', () => {
  it('plans every migration, in order, and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-migration-plan-'));
    const handle = createDatabase({ url: null, dataDir: dir });
    try {
      expect(await plannedMigrations(handle)).toEqual(MIGRATION_NAMES);
      expect(await handle.db.introspection.getTables()).toEqual([]);
    } finally {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
