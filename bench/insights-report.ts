/**
 * The insights report over a month of a busy form (issue #38): 1,000,000 stored submissions of the
 * three-page application form, and the journeys that left on the way, counted by the real
 * recorder as the submit pipeline would hand it their steps (spread over 30 days and three sites,
 * with errors and drafts), written by the real writer; then the admin report for the month is
 * timed (median of 11, after one warm-up), on SQLite and, when configured, on PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Form } from '@svc/core';
import type { AnsweredStep } from '../packages/server/src/submissions/submit-trace.js';
import type { JourneyMarks } from '../packages/server/src/submissions/state-token.js';
import { fromDist } from './svc-dist.js';
import { median } from './bench-harness.js';
import { withBenchPostgres } from './bench-postgres.js';

const SUBMISSIONS = Number(process.env.BENCH_INSIGHTS_SUBMISSIONS ?? 1_000_000);
const DAYS = 30;
const SITES = ['default', 'de', 'ar'] as const;
const START = Date.parse('2026-10-01T00:00:00Z');

export interface InsightsReportResult {
  readonly dialect: string;
  readonly submissions: number;
  readonly journeys: number;
  readonly steps: number;
  readonly rows: number;
  readonly seedSeconds: number;
  readonly reportMs: number;
  readonly siteReportMs: number;
}

type Outcome = 'page_valid' | 'validation_failed' | 'submitted' | 'draft_saved';

function answered(form: Form, site: string, at: number, intent: string, from: number, to: number, status: Outcome, journey: JourneyMarks | undefined, fields: Record<string, string[]> = {}): AnsweredStep {
  return {
    form,
    request: { intent } as AnsweredStep['request'],
    site: site === 'default' ? null : site,
    result: {
      httpStatus: status === 'validation_failed' ? 422 : 200,
      body: { status, page: { currentIndex: to, total: 3 }, state: { pageIndex: to, values: {}, token: null }, errors: { fields, form: [] } },
    } as unknown as AnsweredStep['result'],
    trace: { state: { formUid: form.uid, pageIndex: from, pageHistory: [], values: {}, issuedAt: at, ...(journey ? { journey } : {}) }, multiPage: true, resumed: false, replay: false },
    at: new Date(at),
  };
}

async function run(dialect: string, url: string | null): Promise<InsightsReportResult> {
  const { buildApp } = await fromDist<typeof import('../packages/server/src/app.js')>('app.js');
  const { loadConfig } = await fromDist<typeof import('../packages/server/src/config/config-loader.js')>('config/config-loader.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-insights-'));
  const config = loadConfig({
    file: resolve(import.meta.dirname, '../examples/svc.config.yaml'),
    env: { SVC_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz' },
    values: { dataDir, database: { url }, forms: { dir: resolve(import.meta.dirname, '../examples/forms'), watch: false }, log: { level: 'silent' }, deliveries: { enabled: false } },
  });
  const svc = await buildApp(config, { logger: false });
  try {
    const form = svc.context.forms.get('application') as Form;
    const insights = svc.context.insights;
    const steps = insights.steps as (step: AnsweredStep) => void;
    const seedStarted = performance.now();
    let submissions = 0;
    let journeys = 0;
    let count = 0;
    const spacing = (DAYS * 86_400_000) / (SUBMISSIONS / 0.6);
    while (submissions < SUBMISSIONS) {
      const at = START + journeys * spacing;
      const site = SITES[journeys % 3] as string;
      const kind = journeys % 10;
      journeys += 1;
      const step = (seconds: number, intent: string, from: number, to: number, status: Outcome, journey: JourneyMarks | undefined, fields?: Record<string, string[]>) => {
        count += 1;
        steps(answered(form, site, at + seconds * 1000, intent, from, to, status, journey, fields));
      };
      // The manifest served (the cache in the context counts the view, as the routes' calls do).
      svc.context.manifests.get(form);
      // One in ten fails the email first; everyone reaches page 2, 30 % stop there, 10 % on page 3.
      let marks: JourneyMarks | undefined;
      if (kind === 0) {
        step(10, 'next', 0, 0, 'validation_failed', undefined, { email: ['Enter a valid email address'] });
        marks = { started: false, seen: [0], pageSince: at + 10_000 };
      }
      step(20, 'next', 0, 1, 'page_valid', marks);
      marks = { started: true, seen: [0, 1], pageSince: at + 20_000 };
      if (kind >= 1 && kind <= 3) continue;
      if (kind === 4) step(30, 'saveDraft', 1, 1, 'draft_saved', marks);
      step(45, 'next', 1, 2, 'page_valid', marks);
      if (kind === 5) continue;
      step(80, 'submit', 2, 2, 'submitted', { started: true, seen: [0, 1, 2], pageSince: at + 45_000 });
      submissions += 1;
      // Let the writer's window pass now and then, as time would.
      if (journeys % 50_000 === 0) await insights.report(form, { from: new Date(START), to: new Date(START + 1), site: null });
    }
    // The month and the day after it: the last journeys finish a minute past the month.
    const query = { from: new Date(START), to: new Date(START + (DAYS + 1) * 86_400_000), site: null };
    const first = await insights.report(form, query);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    if (first.completions !== SUBMISSIONS) throw new Error(`the report counted ${first.completions} completions of ${SUBMISSIONS}`);
    const time = async (site: string | null) => {
      const runs: number[] = [];
      for (let i = 0; i < 11; i++) {
        const started = performance.now();
        await insights.report(form, { ...query, site });
        runs.push(performance.now() - started);
      }
      return median(runs);
    };
    const db = svc.context.database.db;
    const tables = ['svc_insight_steps', 'svc_insight_field_errors', 'svc_insight_counts', 'svc_insight_durations'] as const;
    let rows = 0;
    for (const table of tables) rows += Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    return { dialect, submissions, journeys, steps: count, rows, seedSeconds, reportMs: await time(null), siteReportMs: await time('de') };
  } finally {
    await svc.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function insightsReportScenario(): Promise<InsightsReportResult[]> {
  const results = [await run('SQLite', null)];
  const pg = await withBenchPostgres((url) => run('PostgreSQL', url));
  if (pg) results.push(pg);
  return results;
}

export function printInsightsReport(results: readonly InsightsReportResult[]): void {
  process.stdout.write('| insights report (30 days) | submissions | journeys | steps counted | aggregate rows | seeding | report | one site |\n|---|---|---|---|---|---|---|---|\n');
  for (const r of results) {
    process.stdout.write(`| ${r.dialect} | ${r.submissions} | ${r.journeys} | ${r.steps} | ${r.rows} | ${r.seedSeconds.toFixed(0)} s | ${r.reportMs.toFixed(1)} ms | ${r.siteReportMs.toFixed(1)} ms |\n`);
  }
  process.stdout.write('\n');
  for (const r of results) process.stdout.write(`bench insights-report dialect=${r.dialect} submissions=${r.submissions} rows=${r.rows} report_ms=${r.reportMs.toFixed(1)} site_report_ms=${r.siteReportMs.toFixed(1)}\n`);
}
