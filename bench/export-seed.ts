/**
 * Seeds EXPORT_ROWS contact submissions into a SQLite file (`tsx export-seed.ts FILE FORM_ID`),
 * in a process of its own, so the export targets' heaps hold nothing of the seeding when the
 * export-memory scenario reads their size.
 */
import { spawnSync } from 'node:child_process';
import SqliteDatabase from 'better-sqlite3';
import { EXPORT_ROWS, exportRow } from './export-data.js';

export function seedExportRowsApart(file: string, formId: number): void {
  const run = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, file, String(formId)], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`seeding ${file} failed (${run.status ?? run.signal})`);
}

if (process.argv[1] === import.meta.filename) {
  const [file, formId] = process.argv.slice(2);
  const db = new SqliteDatabase(file as string);
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(`INSERT INTO svc_submissions (uid, form_id, token_hash, title, status, is_spam, spam_reasons, ip, "values",
    finished, created_at, updated_at) VALUES (?, ?, 'x', ?, 'open', 0, '[]', NULL, ?, 1, ?, ?)`);
  db.transaction(() => {
    for (let i = 0; i < EXPORT_ROWS; i++) {
      const row = exportRow(i);
      insert.run(row.uid, Number(formId), row.title, JSON.stringify(row.values), row.createdAt, row.createdAt);
    }
  })();
  db.close();
}
