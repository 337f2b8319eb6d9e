/**
 * `svc migrate --dry-run` (issue #33 item 5) as a user runs it, and docs/upgrading.md's command
 * blocks run as written: in a project directory holding the database an older version left (the
 * migrations but the last two, run by Kysely's migrator as that version ran them), with `npx svc`
 * answered by the project's node_modules/.bin/svc, here the sources of this checkout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, type Kysely, type Migration } from 'kysely';
import { createDatabase } from '../src/storage/database-factory.js';
import { MIGRATION_NAMES } from '../src/storage/migration-runner.js';
import { commandBlocks } from './support/docs-blocks.js';
import { REPO_ROOT, SVC_NODE_ARGS, runCommand, runSvc, type CommandRun } from './support/svc-command.js';

/** A CLI run costs about 2 s of CPU; beside other work one took up to 48 s (cli.test.ts). */
const RUN_TIMEOUT_MS = 90_000;
const TEST_TIMEOUT_MS = 240_000;
const MIGRATIONS_DIR = join(REPO_ROOT, 'packages/server/src/storage/migrations');
const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'packages/server/package.json'), 'utf8')) as { version: string }).version;

const scratch: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** The tables of the SQLite database under `dataDir`. */
async function tablesIn(dataDir: string): Promise<string[]> {
  const handle = createDatabase({ url: null, dataDir });
  try {
    return (await handle.db.introspection.getTables()).map((table) => table.name).sort();
  } finally {
    await handle.close();
  }
}

/** The migrations on record in the SQLite database under `dataDir`, in name order. */
async function recordedIn(dataDir: string): Promise<string[]> {
  const handle = createDatabase({ url: null, dataDir });
  try {
    const rows = await (handle.db as unknown as Kysely<{ svc_migrations: { name: string } }>).selectFrom('svc_migrations').select('name').execute();
    return rows.map((row) => row.name).sort();
  } finally {
    await handle.close();
  }
}

/** The database an older version left: its migrations (all but the last `behind`), run as it ran them. */
async function olderDatabase(dataDir: string, behind: number): Promise<readonly string[]> {
  const older = MIGRATION_NAMES.slice(0, -behind);
  const migrations: Record<string, Migration> = {};
  for (const name of older) {
    const module = (await import(join(MIGRATIONS_DIR, `${name}.ts`))) as { up(db: Kysely<unknown>, dialect: string): Promise<void> };
    migrations[name] = { up: (db) => module.up(db, 'sqlite') };
  }
  const handle = createDatabase({ url: null, dataDir });
  try {
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations }, migrationTableName: 'svc_migrations', migrationLockTableName: 'svc_migrations_lock' });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
  } finally {
    await handle.close();
  }
  return MIGRATION_NAMES.slice(-behind);
}

describe('svc migrate --dry-run', () => {
  it('lists every migration, in order, on a database never migrated, and creates no table', async () => {
    const cwd = tempDir('svc-migrate-fresh-');
    const run = await runSvc(['migrate', '--dry-run'], { cwd, env: process.env, timeoutMs: RUN_TIMEOUT_MS });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`Would run ${MIGRATION_NAMES.length} migration(s), in this order:\n${MIGRATION_NAMES.map((name) => `  ${name}\n`).join('')}`);
    expect(await tablesIn(join(cwd, 'data'))).toEqual([]);
  }, TEST_TIMEOUT_MS);
});

/** A block of the page in bash, as a user's shell runs it. */
function bash(script: string, cwd: string): Promise<CommandRun> {
  return runCommand('bash', ['-euo', 'pipefail', '-c', script], { cwd, env: { ...process.env, SVC_LOG__LEVEL: 'warn' }, timeoutMs: RUN_TIMEOUT_MS });
}

describe('docs/upgrading.md, run as written on an older version\'s database', () => {
  const [backup, look, apply] = commandBlocks('docs/upgrading.md');
  let project: string;
  let pending: readonly string[];
  beforeAll(async () => {
    project = tempDir('svc-upgrade-');
    // What `svc init` and `npm install @svc/server` leave, as far as these commands look: a config
    // in the directory and the svc command in node_modules/.bin (here: this checkout's build).
    writeFileSync(join(project, 'package.json'), '{ "name": "my-forms", "private": true }\n');
    writeFileSync(join(project, 'svc.config.yaml'), 'forms:\n  dir: forms\n');
    mkdirSync(join(project, 'forms'));
    mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
    const bin = join(project, 'node_modules/.bin/svc');
    writeFileSync(bin, `#!/bin/sh\nexec '${process.execPath}' ${SVC_NODE_ARGS.map((arg) => `'${arg}'`).join(' ')} "$@"\n`);
    chmodSync(bin, 0o755);
    pending = await olderDatabase(join(project, 'data'), 2);
  });

  it('has the three command blocks this test runs', () => {
    expect([backup, look, apply].every(Boolean)).toBe(true);
    expect(commandBlocks('docs/upgrading.md')).toHaveLength(3);
  });

  it('backs the stopped database up with its write-ahead files', async () => {
    const run = await bash(backup as string, project);
    expect(run.status, run.stderr).toBe(0);
    expect(readdirSync(join(project, 'backups'))).toContain('svc.db');
    expect(await tablesIn(join(project, 'backups'))).toContain('svc_migrations');
  });

  it('prints the version and lists the migrations the new version would run, running none', async () => {
    const run = await bash(look as string, project);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`svc ${VERSION}\nWould run 2 migration(s), in this order:\n${pending.map((name) => `  ${name}\n`).join('')}`);
    expect(await recordedIn(join(project, 'data'))).toEqual(MIGRATION_NAMES.slice(0, -2));
  }, TEST_TIMEOUT_MS);

  it('applies them, after which nothing is left to run', async () => {
    const run = await bash(apply as string, project);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`Applied: ${pending.join(', ')}\nDatabase is up to date: nothing to run.\n`);
    expect(await recordedIn(join(project, 'data'))).toEqual(MIGRATION_NAMES);
  }, TEST_TIMEOUT_MS);
});
