/**
 * Bulk actions on a large form (issue #35 item 1): 1,000,000 stored contact submissions, seeded by
 * one INSERT … SELECT in the database itself; then, through the admin API as a script calls it,
 * a page of the list, the same filtered (status and a date range) and the count the console shows
 * for that filter (medians of 5), and three bulk calls of 10,000 rows each: a status change by
 * ids, "mark spam" by a filter matching exactly 10,000, and a delete by ids. SQLite and, when
 * configured, PostgreSQL. Printed, never asserted (DESIGN.md: benchmarks are not tests).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { fromDist } from './svc-dist.js';
import { median } from './bench-harness.js';
import { withBenchPostgres } from './bench-postgres.js';

const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 1_000_000);
const BULK = 10_000;
const KEY = 'svc_bench_bulk_0123456789abcdefghijklmnop';
/** One submission every 30 s from here: 10,000 of them are 300,000 s, a date range a filter can name. */
const START = Date.parse('2025-01-01T00:00:00Z');
const STEP_MS = 30_000;

export interface BulkResult {
  readonly dialect: string;
  readonly rows: number;
  readonly seedSeconds: number;
  readonly listMs: number;
  readonly filterMs: number;
  readonly countMs: number;
  readonly byIdsMs: number;
  readonly byFilterMs: number;
  readonly deleteMs: number;
  readonly changed: readonly number[];
}

/**
 * The seeding statement: rows 1..ROWS, a third each open/pending/closed, one in twenty spam, each
 * with its own token hash as real rows have (one shared value made every changed row's entry in
 * that index land in one run of a million duplicates, which no real form has).
 */
function seedSql(dialect: 'sqlite' | 'postgres', formId: number) {
  const columns = sql`(uid, form_id, token_hash, title, status, is_spam, spam_reasons, ip, "values", finished, created_at, updated_at)`;
  const status = sql`case i % 3 when 0 then 'open' when 1 then 'pending' else 'closed' end`;
  const spam = sql`case when i % 20 = 0 then 1 else 0 end`;
  const reasons = sql`case when i % 20 = 0 then '["honeypot"]' else '[]' end`;
  if (dialect === 'postgres') {
    const at = sql`to_char(timestamp '2025-01-01 00:00:00' + (i - 1) * interval '30 seconds', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    return sql`insert into svc_submissions ${columns}
      select 'bulk-' || i, ${formId}, md5(i::text), 'Person ' || i, ${status}, ${spam}, ${reasons}, null,
        '{"firstName":"Person ' || i || '","email":"p' || i || '@example.test"}', 1, ${at}, ${at}
      from generate_series(1, ${ROWS}) as i`;
  }
  const at = sql`strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01 00:00:00', '+' || ((i - 1) * 30) || ' seconds')`;
  return sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ROWS})
    insert into svc_submissions ${columns}
    select 'bulk-' || i, ${formId}, 'token-' || i, 'Person ' || i, ${status}, ${spam}, ${reasons}, null,
      '{"firstName":"Person ' || i || '","email":"p' || i || '@example.test"}', 1, ${at}, ${at}
    from n`;
}

async function run(dialect: string, url: string | null): Promise<BulkResult> {
  const { buildApp } = await fromDist<typeof import('../packages/server/src/app.js')>('app.js');
  const { loadConfig } = await fromDist<typeof import('../packages/server/src/config/config-loader.js')>('config/config-loader.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-bulk-'));
  const config = loadConfig({
    file: resolve(import.meta.dirname, '../examples/svc.config.yaml'),
    env: { SVC_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz' },
    values: {
      dataDir,
      database: { url },
      forms: { dir: resolve(import.meta.dirname, '../examples/forms'), watch: false },
      log: { level: 'silent' },
      deliveries: { enabled: false },
      admin: { keys: [{ name: 'bench', sha256: createHash('sha256').update(KEY).digest('hex'), scopes: ['read', 'write'], forms: ['*'] }] },
    },
  });
  const svc = await buildApp(config, { logger: false });
  try {
    const form = svc.context.forms.get('contact');
    if (!form) throw new Error('no contact form');
    const db = svc.context.database.db;
    const seedStarted = performance.now();
    await seedSql(svc.context.database.dialect, form.id).execute(db);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const headers = { authorization: `Bearer ${KEY}` };
    const get = async (query: string) => {
      const res = await svc.app.inject({ method: 'GET', url: `/svc/api/admin/forms/contact/submissions${query}`, headers });
      if (res.statusCode !== 200) throw new Error(`list ${query}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    };
    const timed = async (work: () => Promise<unknown>, times = 5) => {
      await work();
      const runs: number[] = [];
      for (let i = 0; i < times; i++) {
        const started = performance.now();
        await work();
        runs.push(performance.now() - started);
      }
      return median(runs);
    };
    const iso = (row: number) => new Date(START + (row - 1) * STEP_MS).toISOString();
    const range = `from=${iso(400_001)}&to=${iso(500_001)}`;
    const listMs = await timed(() => get('?limit=50'));
    const filterMs = await timed(() => get(`?limit=50&status=pending&${range}`));
    const { countSubmissions } = await fromDist<typeof import('../packages/server/src/admin/admin-service.js')>('admin/admin-service.js');
    const { createAdminServices } = await fromDist<typeof import('../packages/server/src/admin/admin-http.js')>('admin/admin-http.js');
    const services = createAdminServices(svc.context);
    const principal = { name: 'bench', canRead: () => true, canWrite: true, allForms: true };
    const countMs = await timed(() => countSubmissions(services, principal, 'contact', { spam: false, status: 'pending', from: iso(400_001), to: iso(500_001) }));
    const bulk = async (body: unknown) => {
      const started = performance.now();
      const res = await svc.app.inject({ method: 'POST', url: '/svc/api/admin/forms/contact/submissions/bulk', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      const ms = performance.now() - started;
      if (res.statusCode !== 200) throw new Error(`bulk: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return { ms, changed: (res.json() as { data: { changed: number } }).data.changed };
    };
    // One small call first, so the timed ones do not pay for the first compile of each statement.
    await bulk({ ids: [1, 2, 3], action: 'setStatus', status: 'pending' });
    const ids = (await db.selectFrom('svc_submissions').select('id').where('form_id', '=', form.id).where('status', '<>', 'closed').orderBy('id').offset(100_000).limit(BULK).execute()).map((r) => Number(r.id));
    const byIds = await bulk({ ids, action: 'setStatus', status: 'closed' });
    // Exactly 10,000 rows in this range; the spam among them are already spam and not counted.
    const byFilter = await bulk({ filter: { from: iso(600_001), to: iso(600_001 + BULK), spam: 'all' }, action: 'markSpam' });
    const gone = (await db.selectFrom('svc_submissions').select('id').where('form_id', '=', form.id).orderBy('id', 'desc').limit(BULK).execute()).map((r) => Number(r.id));
    const deleted = await bulk({ ids: gone, action: 'delete' });
    return { dialect, rows: ROWS, seedSeconds, listMs, filterMs, countMs, byIdsMs: byIds.ms, byFilterMs: byFilter.ms, deleteMs: deleted.ms, changed: [byIds.changed, byFilter.changed, deleted.changed] };
  } finally {
    await svc.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function bulkScenario(): Promise<BulkResult[]> {
  // BENCH_BULK_DIALECTS=postgres (or sqlite) runs one side only.
  const only = process.env.BENCH_BULK_DIALECTS;
  const results = only === 'postgres' ? [] : [await run('SQLite', null)];
  if (only === 'sqlite') return results;
  const pg = await withBenchPostgres((url) => run('PostgreSQL', url));
  if (pg) results.push(pg);
  return results;
}

export function printBulk(results: readonly BulkResult[]): void {
  process.stdout.write('| bulk (1 form) | rows | seeding | list page | filtered page | filter count | 10,000 by ids: status | 10,000 by filter: spam | 10,000 by ids: delete |\n|---|---|---|---|---|---|---|---|---|\n');
  for (const r of results) {
    process.stdout.write(`| ${r.dialect} | ${r.rows} | ${r.seedSeconds.toFixed(0)} s | ${r.listMs.toFixed(1)} ms | ${r.filterMs.toFixed(1)} ms | ${r.countMs.toFixed(1)} ms | ${r.byIdsMs.toFixed(0)} ms | ${r.byFilterMs.toFixed(0)} ms | ${r.deleteMs.toFixed(0)} ms |\n`);
  }
  process.stdout.write('\n');
  for (const r of results) process.stdout.write(`bench bulk dialect=${r.dialect} rows=${r.rows} changed=${r.changed.join('/')} by_ids_ms=${r.byIdsMs.toFixed(0)} by_filter_ms=${r.byFilterMs.toFixed(0)} delete_ms=${r.deleteMs.toFixed(0)} list_ms=${r.listMs.toFixed(1)} filter_ms=${r.filterMs.toFixed(1)} count_ms=${r.countMs.toFixed(1)}\n`);
}

// `tsx --conditions=svc-source bench/bulk-console.ts` runs this target alone (after `npm run build`).
if (process.argv[1] === import.meta.filename) printBulk(await bulkScenario());
