/**
 * What the erasure ledger costs a delete (issue #37 item 2): 10,000 submissions deleted by the bare
 * deletion (submission-deletion.ts) against 10,000 deleted as erasures (privacy-erasure.ts: their
 * uids and uploads read, a ledger row each in the delete's transaction, the ledger file appended
 * and synced, the rows marked mirrored, and on SQLite the write-ahead log emptied), alternately,
 * two of each, on SQLite and, when configured, PostgreSQL. Sources in this process (no HTTP).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config/config-loader.js';
import { insertSubmissions, type NewSubmission } from '../packages/server/src/submissions/submission-repository.js';
import { deleteSubmissions } from '../packages/server/src/submissions/submission-deletion.js';
import { eraseSubmissions } from '../packages/server/src/privacy/privacy-erasure.js';
import { createAdminServices } from '../packages/server/src/admin/admin-http.js';
import { withBenchPostgres } from './bench-postgres.js';

const N = 10_000;
const FORMS = resolve(import.meta.dirname, '../examples/forms');

export interface ErasureCost {
  readonly dialect: string;
  readonly bareMs: readonly number[];
  readonly erasureMs: readonly number[];
}

async function measure(url: string | null): Promise<ErasureCost> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-erasure-'));
  const config = loadConfig({ file: null, demo: false, env: { SVC_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz' }, values: { dataDir, database: { url }, forms: { dir: FORMS }, log: { level: 'silent' } } });
  const svc = await buildApp(config, { logger: false });
  try {
    const services = createAdminServices(svc.context);
    const form = svc.context.forms.get('contact');
    if (!form) throw new Error('no contact form');
    const rows: NewSubmission[] = Array.from({ length: 4 * N }, () => ({
      uid: randomUUID(), formId: form.id, tokenHash: randomBytes(16).toString('hex'), title: 'bench', status: 'open', isSpam: false, spamReasons: [], ip: null,
      values: { name: 'Bench Person', email: 'bench@example.test', message: 'x'.repeat(200) }, createdAt: new Date().toISOString(),
    }));
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 1000) ids.push(...(await insertSubmissions(svc.context.database.db, rows.slice(i, i + 1000))));
    const timed = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };
    const part = (k: number) => ids.slice(k * N, (k + 1) * N);
    const bareMs: number[] = [];
    const erasureMs: number[] = [];
    for (const k of [0, 2]) {
      bareMs.push(await timed(() => deleteSubmissions(services, part(k))));
      erasureMs.push(await timed(() => eraseSubmissions(services, part(k + 1), { reason: 'delete', at: new Date() })));
    }
    return { dialect: url ? 'PostgreSQL' : 'SQLite', bareMs, erasureMs };
  } finally {
    await svc.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function erasureScenario(): Promise<ErasureCost[]> {
  const out = [await measure(null)];
  const pg = await withBenchPostgres((url) => measure(url));
  if (pg) out.push(pg);
  return out;
}

export function printErasure(results: readonly ErasureCost[]): void {
  process.stdout.write('\n| 10,000 submissions deleted (issue #37) | bare delete | as erasures (ledger) |\n|---|---|---|\n');
  for (const r of results) process.stdout.write(`| ${r.dialect} | ${r.bareMs.map((m) => `${m.toFixed(0)} ms`).join(', ')} | ${r.erasureMs.map((m) => `${m.toFixed(0)} ms`).join(', ')} |\n`);
}
