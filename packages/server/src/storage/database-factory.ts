/**
 * Builds the Kysely instance for the configured database: SQLite (better-sqlite3, WAL) by default,
 * PostgreSQL when `database.url` is a postgres URL. Dialect differences stop here and in
 * `dialect-sql.ts`.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { startCheckpointer } from './sqlite-checkpointer.js';
import { namingPool } from './prepared-statements.js';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDialectConfig } from 'kysely';
import type { Database } from './database-schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  readonly url: string | null;
  readonly dataDir: string;
  readonly poolSize?: number;
  /** PostgreSQL: run svc's hot statements as server-side prepared statements (default true). */
  readonly preparedStatements?: boolean;
}

export function describeDatabase(options: DatabaseOptions): { dialect: DialectName; location: string } {
  const url = options.url;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const parsed = new URL(url);
    // Never echo a password: only host and database name.
    return { dialect: 'postgres', location: `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}` };
  }
  const file = url ? url.replace(/^sqlite:/, '') : join(options.dataDir, 'svc.db');
  return { dialect: 'sqlite', location: file === ':memory:' ? file : resolve(file) };
}

export function createDatabase(options: DatabaseOptions): DatabaseHandle {
  const { dialect, location } = describeDatabase(options);
  if (dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url as string, max: options.poolSize ?? 10 });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: options.preparedStatements === false ? pool : namingPool(pool) }) });
    return { db, dialect, close: () => db.destroy() };
  }
  if (location !== ':memory:') mkdirSync(dirname(location), { recursive: true });
  const sqlite = new SqliteDatabase(location);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL under WAL is durable across application crashes; only an OS crash can lose the last
  // transactions, the documented SQLite trade-off for WAL mode.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  // issue #37 item 2: a deleted row's bytes are overwritten, not left in a free page of the file,
  // so an erased submission's wrapped data key is gone from the live database, not merely unlinked.
  sqlite.pragma('secure_delete = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  const checkpointer = location === ':memory:' ? null : startCheckpointer(sqlite, location);
  return {
    db,
    dialect,
    async close() {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely's SQLite driver prepares every query afresh; preparing costs more than running a small
 * insert. Reusing statements by SQL text is safe because the driver serialises all queries on its
 * one connection, so no statement is ever used by two queries at once.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDialectConfig['database'] {
  const cache = new Map<string, Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (!statement) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
        statement = rowsAsArrays(sqlite.prepare(sql));
        cache.set(sql, statement);
      }
      return statement;
    },
  } as SqliteDialectConfig['database'];
}

type Statement = SqliteDatabase.Statement<unknown[], unknown>;

/**
 * A statement that returns rows, reading them as arrays and making the objects here: better-sqlite3
 * builds each row object in C++ a property at a time, which cost a ten-column row 2.4 µs against
 * 1.6 µs for the array and this loop over the column names (an export or a list reads rows by the
 * hundred thousand: issue #37 item 6). Kysely's driver calls only reader, all, run and iterate.
 */
function rowsAsArrays(statement: Statement): Statement {
  if (!statement.reader) return statement;
  const names = statement.columns().map((column) => column.name);
  const raw = statement.raw(true);
  const toObject = (row: unknown[]): Record<string, unknown> => {
    const object: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) object[names[i] as string] = row[i];
    return object;
  };
  return {
    reader: true,
    all: (...parameters: unknown[]) => (raw.all(...parameters) as unknown[][]).map(toObject),
    run: (...parameters: unknown[]) => raw.run(...parameters),
    *iterate(...parameters: unknown[]) {
      for (const row of raw.iterate(...parameters) as IterableIterator<unknown[]>) yield toObject(row);
    },
  } as unknown as Statement;
}
