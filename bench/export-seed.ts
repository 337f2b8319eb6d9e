/**
 * Seeds EXPORT_ROWS contact submissions into a SQLite file (`tsx export-seed.ts FILE FORM_ID
 * [SECRET]`), in a process of its own, so the export targets' heaps hold nothing of the seeding
 * when the export-memory scenario reads their size. With the server's secret the rows are sealed
 * as svc stores them (issue #37: a data key each, wrapped under the secret's KEK); without, plain
 * (the bare export's rows, and legacy rows).
 */
import { spawnSync } from 'node:child_process';
import SqliteDatabase from 'better-sqlite3';
import { EXPORT_ROWS, exportRow } from './export-data.js';
import { fromDist } from './svc-dist.js';

export function seedExportRowsApart(file: string, formId: number, secret?: string): void {
  const run = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, file, String(formId), ...(secret ? [secret] : [])], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`seeding ${file} failed (${run.status ?? run.signal})`);
}

if (process.argv[1] === import.meta.filename) {
  const [file, formId, secret] = process.argv.slice(2);
  // As the targets do, svc's compiled dist/ (this runs on plain Node from .bench-build/).
  const { createKeyring, secretKek } = await fromDist<typeof import('../packages/server/src/privacy/privacy-keyring.js')>('privacy/privacy-keyring.js');
  const { createValueSealer } = await fromDist<typeof import('../packages/server/src/privacy/privacy-sealer.js')>('privacy/privacy-sealer.js');
  const { sealSubmission } = await fromDist<typeof import('../packages/server/src/submissions/submission-persist.js')>('submissions/submission-persist.js');
  const sealer = secret ? createValueSealer(createKeyring([secretKek(secret)], 'secret')) : null;
  const db = new SqliteDatabase(file as string);
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(`INSERT INTO svc_submissions (uid, form_id, token_hash, title, status, is_spam, spam_reasons, ip, "values",
    finished, created_at, updated_at, data_key) VALUES (?, ?, 'x', ?, 'open', 0, '[]', NULL, ?, 1, ?, ?, ?)`);
  db.transaction(() => {
    for (let i = 0; i < EXPORT_ROWS; i++) {
      const row = exportRow(i);
      const sealed = sealer ? sealSubmission(sealer.forNew(), row.uid, row.values, row.title) : null;
      insert.run(row.uid, Number(formId), sealed?.title ?? row.title, sealed?.values ?? JSON.stringify(row.values), row.createdAt, row.createdAt, sealed?.dataKey ?? null);
    }
  })();
  db.close();
}
