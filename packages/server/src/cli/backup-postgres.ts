/**
 * PostgreSQL's part of `svc backup` / `svc restore`: pg_dump's custom format of svc's tables (every
 * `svc_*` table and sequence, schema and rows, in one consistent snapshot), and pg_restore. The
 * client tools do what a hand-written COPY would do, and do it right for every type; they are
 * the PostgreSQL client package an operator of PostgreSQL has anyway. The password travels in
 * PGPASSWORD, never on a command line another user could read in the process list.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';

function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: password ? { ...process.env, PGPASSWORD: password } : { ...process.env } };
}

function run(tool: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error(`svc backup and restore on PostgreSQL need ${tool} on PATH (the PostgreSQL client tools)`) : error),
    );
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${tool} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

/** Writes svc's tables of the database at `url` to `file` (pg_dump's custom format). */
export async function dumpPostgres(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--table=svc_*', `--file=${file}`, `--dbname=${dbname}`], env);
}

/**
 * Replaces svc's tables of the database at `url` with the dump's. Every `svc_*` table goes first,
 * those added by migrations newer than the backup too: the restored schema is the backup's own,
 * and the migrations after it run on it as on any older installation.
 */
export async function restorePostgres(url: string, file: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>("select tablename as name from pg_tables where schemaname = current_schema() and tablename like 'svc\\_%'");
    await client.query('begin');
    for (const { name } of rows) await client.query(`drop table if exists "${name.replace(/"/g, '""')}" cascade`);
    const sequences = await client.query<{ name: string }>("select sequencename as name from pg_sequences where schemaname = current_schema() and sequencename like 'svc\\_%'");
    for (const { name } of sequences.rows) await client.query(`drop sequence if exists "${name.replace(/"/g, '""')}" cascade`);
    await client.query('commit');
  } finally {
    await client.end();
  }
  const { dbname, env } = connection(url);
  await run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, file], env);
}
