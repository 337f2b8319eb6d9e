/**
 * The console's report at a million rows (issue #35 item 6): 1,000,000 kitchen-sink submissions
 * over a year (one every 30 s, one in nine spam, every choice, rating and opinion-scale field
 * answered), seeded by one SQL statement as rows from before the report counts (plain values, no
 * counts); then the recount an upgrade's boot runs (the backfill, timed), and the admin report for
 * the whole year by week through the real route (median of 5 after one warm-up,
 * BENCH_REPORT_RUNS to change), with its two halves apart: the submission counts per hour and
 * status, and the answers, both sums over the counts kept at write time. On SQLite and, when
 * configured, PostgreSQL. Printed, never asserted.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config/config-loader.js';
import { countAnswers, countByHour, countByStatus } from '../packages/server/src/admin/admin-reports-repository.js';
import { recountForm } from '../packages/server/src/submissions/report-count-rebuild.js';
import { HOUR_MS } from '../packages/server/src/submissions/report-counts.js';
import { median } from './bench-harness.js';
import { withBenchPostgres } from './bench-postgres.js';

const ROWS = Number(process.env.BENCH_REPORT_ROWS ?? 1_000_000);
const KEY = 'bench-report-key-0123456789abcdef';
/** Timed runs after the warm-up (median printed); BENCH_REPORT_RUNS=1 for a quick figure on a busy machine. */
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 5);

export interface ConsoleReportResult {
  readonly dialect: string;
  readonly rows: number;
  readonly seedSeconds: number;
  readonly recountSeconds: number;
  readonly reportMs: number;
  readonly countsMs: number;
  readonly answersMs: number;
}

/** The values JSON of row i, spelled in SQL both dialects read alike. */
const VALUES_SQL = `'{"text":"Person ' || i || '","select":"' || substr('abc', (i % 3) + 1, 1) || '","multipleSelect":' ||
  CASE i % 3 WHEN 0 THEN '["red"]' WHEN 1 THEN '["green","blue"]' ELSE '[]' END || ',"checkboxGroup":' ||
  CASE i % 2 WHEN 0 THEN '["tea"]' ELSE '["tea","coffee"]' END || ',"radioGroup":"' || CASE i % 2 WHEN 0 THEN 'yes' ELSE 'no' END ||
  '","opinionScale":"' || ((i % 5) + 1) || '","rating":' || ((i * 7 % 5) + 1) || ',"textarea":"A message of a few words, as people write them."}'`;

async function time<T>(work: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function run(dialect: string, url: string | null): Promise<ConsoleReportResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-report-'));
  const config = loadConfig({
    file: resolve(import.meta.dirname, '../examples/svc.config.yaml'),
    env: { SVC_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz' },
    values: {
      dataDir, database: { url }, forms: { dir: resolve(import.meta.dirname, '../examples/forms'), watch: false }, log: { level: 'silent' }, deliveries: { enabled: false },
      admin: { keys: [{ name: 'bench', sha256: createHash('sha256').update(KEY).digest('hex'), scopes: ['read'], forms: ['*'] }] },
    },
  });
  const svc = await buildApp(config, { logger: false });
  try {
    const form = svc.context.forms.get('kitchen-sink');
    if (!form) throw new Error('kitchen-sink is missing');
    const db = svc.context.database.db;
    const seedStarted = performance.now();
    const created = url
      ? `to_char(timestamp '2026-01-01' + i * interval '30 seconds', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : `strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || (i * 30) || ' seconds')`;
    const numbers = url ? `generate_series(1, ${ROWS}) AS n(i)` : 'n';
    const prefix = url ? '' : `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS}) `;
    await sql.raw(`${prefix}INSERT INTO svc_submissions (uid, form_id, token_hash, title, status, is_spam, spam_reasons, ip, "values", finished, created_at, updated_at)
      SELECT 'u' || i, ${form.id}, 'h' || i, 'Person ' || i, CASE i % 3 WHEN 0 THEN 'open' WHEN 1 THEN 'pending' ELSE 'closed' END,
        CASE WHEN i % 9 = 0 THEN 1 ELSE 0 END, '[]', NULL, ${VALUES_SQL}, 1, ${created}, ${created} FROM ${numbers}`).execute(db);
    if (url) await sql`ANALYZE svc_submissions`.execute(db);
    else await sql`ANALYZE`.execute(db);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    process.stdout.write(`console-report ${dialect}: ${ROWS} rows seeded in ${seedSeconds.toFixed(0)} s\n`);
    const recountStarted = performance.now();
    await recountForm(db, svc.context.database.dialect, svc.context.reportCounts, form, new Date(), true);
    if (url) await sql`VACUUM ANALYZE svc_report_counts`.execute(db).then(() => sql`VACUUM ANALYZE svc_report_answers`.execute(db));
    else await sql`ANALYZE`.execute(db);
    const recountSeconds = (performance.now() - recountStarted) / 1000;
    process.stdout.write(`console-report ${dialect}: counts recounted from the rows (the backfill) in ${recountSeconds.toFixed(0)} s\n`);

    const query = 'from=2026-01-01&to=2026-12-31&interval=week';
    const report = () => svc.app.inject({ method: 'GET', url: `/svc/api/admin/forms/kitchen-sink/reports?${query}`, headers: { authorization: `Bearer ${KEY}` } }).then((res) => {
      if (res.statusCode !== 200) throw new Error(`report answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
      const total = (res.json() as { data: { total: number } }).data.total;
      if (total !== ROWS - Math.floor(ROWS / 9)) throw new Error(`report counted ${total}`);
    });
    const period = { formId: form.id, fromHour: Date.parse('2025-12-31T23:00:00.000Z') / HOUR_MS, toHour: Date.parse('2026-12-31T23:00:00.000Z') / HOUR_MS };
    const counts = () => Promise.all([countByHour(db, period), countByStatus(db, period)]);
    const answers = () => countAnswers(db, period);
    const measureMedian = async (work: () => Promise<unknown>) => {
      await work();
      const runs: number[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await time(work));
      return median(runs);
    };
    // Each figure is printed as it is taken: a million-row run is long, and a partial one still says something.
    const say = (what: string, ms: number) => process.stdout.write(`console-report ${dialect}: ${what} ${ms.toFixed(0)} ms\n`);
    const countsMs = await measureMedian(counts);
    say('counts', countsMs);
    const answersMs = await measureMedian(answers);
    say('answers', answersMs);
    const reportMs = await measureMedian(report);
    say('whole report', reportMs);
    return { dialect, rows: ROWS, seedSeconds, recountSeconds, reportMs, countsMs, answersMs };
  } finally {
    await svc.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function consoleReportScenario(): Promise<ConsoleReportResult[]> {
  const results = [await run('SQLite', null)];
  const pg = await withBenchPostgres((url) => run('PostgreSQL', url));
  if (pg) results.push(pg);
  return results;
}

export function printConsoleReport(results: readonly ConsoleReportResult[]): void {
  process.stdout.write('| console report (a year by week) | rows | seeding | recount (backfill) | whole report | submission counts | answers |\n|---|---|---|---|---|---|---|\n');
  for (const r of results) process.stdout.write(`| ${r.dialect} | ${r.rows} | ${r.seedSeconds.toFixed(0)} s | ${r.recountSeconds.toFixed(0)} s | ${r.reportMs.toFixed(0)} ms | ${r.countsMs.toFixed(0)} ms | ${r.answersMs.toFixed(0)} ms |\n`);
  process.stdout.write('\n');
  for (const r of results) process.stdout.write(`bench console-report dialect=${r.dialect} rows=${r.rows} recount_s=${r.recountSeconds.toFixed(1)} report_ms=${r.reportMs.toFixed(1)} counts_ms=${r.countsMs.toFixed(1)} answers_ms=${r.answersMs.toFixed(1)}\n`);
}

if (process.argv[1] === import.meta.filename) printConsoleReport(await consoleReportScenario());
