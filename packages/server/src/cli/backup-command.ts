/**
 * `svc backup FILE` (issue #37 item 2): one tar file holding a consistent copy of the database —
 * SQLite through `VACUUM INTO` (a snapshot a running server keeps writing beside), PostgreSQL
 * through pg_dump (backup-postgres.ts) — and the disk file store's files. An S3 store is not
 * copied: the bucket's own versioning or replication is its backup. `svc restore` reads it back.
 *
 * The erasure ledger is deliberately not in the backup: it lives outside the database
 * (`privacy.erasureLedger`) so that restoring this file later erases again every submission
 * erased after it was taken (docs/privacy.md).
 */
import { randomBytes } from 'node:crypto';
import { readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../config/config-schema.js';
import { createDatabase, describeDatabase, type DialectName } from '../storage/database-factory.js';
import { SERVICE_VERSION } from '../version.js';
import { createArchive } from './backup-archive.js';
import { dumpPostgres } from './backup-postgres.js';
import { commandConfig, type CommandOptions } from './command-options.js';

export const BACKUP_MANIFEST = 'svc-backup.json';
export const SQLITE_ENTRY = 'database/svc.db';
export const POSTGRES_ENTRY = 'database/svc.pgdump';
export const FILES_PREFIX = 'files/';

export interface BackupManifest {
  readonly format: 'svc-backup';
  readonly v: 1;
  readonly dialect: DialectName;
  readonly createdAt: string;
  readonly version: string;
  /** `disk`: the files are in the archive under files/; `s3`: they are not. */
  readonly files: 'disk' | 's3';
}

export interface BackupReport {
  readonly dialect: DialectName;
  readonly files: number;
}

/** The disk store's files, as paths relative to its directory (`/` separated). */
async function storedFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => resolve((e as { parentPath?: string; path?: string }).parentPath ?? (e as { path?: string }).path ?? dir, e.name).slice(resolve(dir).length + 1).split(sep).join('/'))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export async function createBackup(config: Config, file: string, now: Date = new Date()): Promise<BackupReport> {
  const target = resolve(file);
  const { dialect } = describeDatabase({ url: config.database.url, dataDir: config.dataDir });
  const scratch = join(dirname(target), `.svc-backup-${randomBytes(6).toString('hex')}`);
  const partial = `${target}.partial`;
  const archive = await createArchive(partial);
  let files = 0;
  try {
    const manifest: BackupManifest = { format: 'svc-backup', v: 1, dialect, createdAt: now.toISOString(), version: SERVICE_VERSION, files: config.files.store };
    await archive.addText(BACKUP_MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
    if (dialect === 'postgres') {
      await dumpPostgres(config.database.url as string, scratch);
      await archive.addFile(POSTGRES_ENTRY, scratch);
    } else {
      const database = createDatabase({ url: config.database.url, dataDir: config.dataDir });
      try {
        await sql`vacuum into ${scratch}`.execute(database.db);
      } finally {
        await database.close();
      }
      await archive.addFile(SQLITE_ENTRY, scratch);
    }
    if (config.files.store === 'disk') {
      const dir = config.files.dir as string;
      for (const name of await storedFiles(dir)) {
        await archive.addFile(`${FILES_PREFIX}${name}`, join(dir, name));
        files += 1;
      }
    }
    await archive.close();
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(scratch, { force: true });
  }
  return { dialect, files };
}

export interface BackupOptions extends CommandOptions {
  readonly file: string | undefined;
}

export async function runBackup(options: BackupOptions): Promise<number> {
  if (!options.file) {
    process.stderr.write('Usage: svc backup FILE [--config FILE]\n');
    return 2;
  }
  const report = await createBackup(commandConfig(options), options.file);
  const files = report.files === 1 ? '1 stored file' : `${report.files} stored files`;
  process.stdout.write(`Backed up the ${report.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'} database and ${files} to ${resolve(options.file)}.\n`);
  return 0;
}
