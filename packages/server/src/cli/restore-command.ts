/**
 * `svc restore FILE` (issue #37 item 2): puts back what `svc backup` took — the database (SQLite
 * file, or svc's PostgreSQL tables) and the disk store's files — then migrates it and starts the
 * service once, which applies the erasure ledger from its first line, so every submission erased
 * since the backup is erased again before anything can read it. Run it with the service stopped;
 * it needs the server's secret, as the service does.
 *
 * Before the database is replaced, erasures it recorded but had not yet written to the ledger
 * file (a crash between the two) are written there, or the restore would forget them.
 */
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { isAbsolute, join, normalize, resolve } from 'node:path';
import { SvcError } from '@svc/core';
import type { Config } from '../config/config-schema.js';
import { createDatabase, describeDatabase, type DatabaseHandle } from '../storage/database-factory.js';
import { migrateToLatest } from '../storage/migration-runner.js';
import { erasureLedgerPath } from '../privacy/privacy-config.js';
import { mirrorPending } from '../privacy/privacy-ledger-apply.js';
import { buildApp } from '../app.js';
import { readArchive, type ArchiveEntry } from './backup-archive.js';
import { restorePostgres } from './backup-postgres.js';
import { BACKUP_MANIFEST, FILES_PREFIX, POSTGRES_ENTRY, SQLITE_ENTRY, type BackupManifest } from './backup-command.js';
import { commandConfig, type CommandOptions } from './command-options.js';

export interface RestoreReport {
  readonly manifest: BackupManifest;
  readonly files: number;
  /** Erasures of the ledger file the restored database had not seen, made again. */
  readonly erasures: { readonly reapplied: number };
}

async function readText(entry: ArchiveEntry): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of entry.open()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The erasures the current database has not written to the file yet; nothing when it has none. */
async function mirrorBeforeReplacing(config: Config): Promise<void> {
  const { dialect, location } = describeDatabase({ url: config.database.url, dataDir: config.dataDir });
  if (dialect === 'sqlite' && !existsSync(location)) return;
  const database = createDatabase({ url: config.database.url, dataDir: config.dataDir });
  try {
    const tables = await database.db.introspection.getTables();
    if (tables.some((t) => t.name === 'svc_erasures')) await mirrorPending(database.db, erasureLedgerPath(config));
  } finally {
    await database.close();
  }
}

export async function restoreBackup(config: Config, file: string, now: () => Date = () => new Date()): Promise<RestoreReport> {
  const entries = await readArchive(resolve(file)).catch((error: unknown) => {
    // A missing or foreign file is the operator's to fix: said in one line, not as a crash.
    const code = (error as NodeJS.ErrnoException).code;
    throw new SvcError('PAYLOAD_INVALID', code === 'ENOENT' ? `${file} does not exist.` : error instanceof Error ? error.message : String(error));
  });
  const manifestEntry = entries.find((e) => e.name === BACKUP_MANIFEST);
  const manifest = manifestEntry ? (JSON.parse(await readText(manifestEntry)) as BackupManifest) : null;
  if (typeof config.secret !== 'string') throw new SvcError('PAYLOAD_INVALID', "svc restore needs the server's secret (SVC_SECRET or the config's secretFile): it starts the service once to erase again what the ledger lists.");
  if (!manifest || manifest.format !== 'svc-backup') throw new SvcError('PAYLOAD_INVALID', `${file} is not an svc backup (it has no ${BACKUP_MANIFEST}).`);
  const { dialect, location } = describeDatabase({ url: config.database.url, dataDir: config.dataDir });
  if (manifest.dialect !== dialect) {
    throw new SvcError('PAYLOAD_INVALID', `${file} is a backup of a ${manifest.dialect} database, and the config names a ${dialect} one.`);
  }
  await mirrorBeforeReplacing(config);
  const dump = entries.find((e) => e.name === (dialect === 'postgres' ? POSTGRES_ENTRY : SQLITE_ENTRY));
  if (!dump) throw new SvcError('PAYLOAD_INVALID', `${file} holds no database.`);
  if (dialect === 'postgres') {
    const scratch = join(config.dataDir, `.svc-restore-${process.pid}.pgdump`);
    try {
      await dump.extract(scratch);
      await restorePostgres(config.database.url as string, scratch);
    } finally {
      await rm(scratch, { force: true });
    }
  } else {
    // Written beside the database and renamed over it; the old WAL must not be replayed onto it.
    await dump.extract(`${location}.restoring`);
    await rm(`${location}-wal`, { force: true });
    await rm(`${location}-shm`, { force: true });
    await rename(`${location}.restoring`, location);
  }
  let files = 0;
  if (config.files.store === 'disk' && manifest.files === 'disk') {
    const dir = resolve(config.files.dir as string);
    await rm(dir, { recursive: true, force: true });
    for (const entry of entries) {
      if (!entry.name.startsWith(FILES_PREFIX)) continue;
      const name = normalize(entry.name.slice(FILES_PREFIX.length));
      // Names come from a file an operator was handed: never outside the store's directory.
      if (isAbsolute(name) || name.startsWith('..')) throw new SvcError('PAYLOAD_INVALID', `${file} names a file outside the store: ${entry.name}`);
      await entry.extract(join(dir, name));
      files += 1;
    }
  }
  // The restored database's marks go, so the start below reads the ledger file from its first
  // line (a file replaced since the backup is read whole too); the start erases again through
  // the same code as every start, report counts included.
  const database = createDatabase({ url: config.database.url, dataDir: config.dataDir });
  let before: number;
  try {
    await migrateToLatest(database);
    await database.db.deleteFrom('svc_erasure_marks').execute();
    before = await erasureCount(database);
  } finally {
    await database.close();
  }
  const svc = await buildApp(config, { logger: false, now });
  try {
    return { manifest, files, erasures: { reapplied: (await erasureCount(svc.context.database)) - before } };
  } finally {
    await svc.close();
  }
}

async function erasureCount(database: DatabaseHandle): Promise<number> {
  const row = await database.db.selectFrom('svc_erasures').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface RestoreOptions extends CommandOptions {
  readonly file: string | undefined;
}

export async function runRestore(options: RestoreOptions): Promise<number> {
  if (!options.file) {
    process.stderr.write('Usage: svc restore FILE [--config FILE]   (stop the service first)\n');
    return 2;
  }
  try {
    const report = await restoreBackup(commandConfig(options), options.file);
    const { manifest, erasures } = report;
    process.stdout.write(
      `Restored the ${manifest.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'} database of ${manifest.createdAt} and ${report.files} stored file(s) from ${resolve(options.file)}.\n` +
        `Re-applied ${erasures.reapplied} erasures from the erasure ledger.\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof SvcError) {
      process.stderr.write(`svc restore: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
