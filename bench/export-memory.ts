/**
 * Memory during a big export (issue #17): the README promises exports in constant memory, so the
 * server's resident memory is sampled while it streams a CSV of 1,000,000 rows (BENCH_MEMORY_ROWS)
 * and the peak growth over its size before the download is reported.
 */
import { download, startTarget } from './bench-harness.js';
import { EXPORT_KEY } from './export-data.js';
import { treeRssBytes } from './process-cpu.js';

export interface ExportMemory {
  readonly rows: number;
  readonly seconds: number;
  readonly megabytes: number;
  readonly rssBeforeMB: number;
  readonly rssPeakMB: number;
}

const SAMPLE_MS = 20;
const MB = 1024 * 1024;

export async function exportMemoryScenario(): Promise<ExportMemory> {
  const rows = Number(process.env.BENCH_MEMORY_ROWS ?? 1_000_000);
  const target = await startTarget('svc-export', { BENCH_EXPORT_ROWS: String(rows) });
  try {
    const before = treeRssBytes(target.pid) ?? 0;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, treeRssBytes(target.pid) ?? 0);
    }, SAMPLE_MS);
    const result = await download(`http://127.0.0.1:${target.port}/svc/api/admin/forms/contact/export?format=csv`, { authorization: `Bearer ${EXPORT_KEY}` }).finally(() =>
      clearInterval(sampler),
    );
    return { rows, seconds: result.seconds, megabytes: result.bytes / MB, rssBeforeMB: before / MB, rssPeakMB: peak / MB };
  } finally {
    target.child.removeAllListeners('exit');
    target.child.kill('SIGTERM');
  }
}

export function printExportMemory(m: ExportMemory): void {
  const growth = m.rssPeakMB - m.rssBeforeMB;
  process.stdout.write('| export memory | rows | CSV | time | RSS before | RSS peak | growth (target < 64 MB) |\n|---|---|---|---|---|---|---|\n');
  process.stdout.write(
    `| svc, CSV | ${m.rows} | ${m.megabytes.toFixed(0)} MB | ${m.seconds.toFixed(1)} s | ${m.rssBeforeMB.toFixed(0)} MB | ${m.rssPeakMB.toFixed(0)} MB | ${growth.toFixed(1)} MB |\n\n`,
  );
  process.stdout.write(`bench export-memory rows=${m.rows} rss_growth_mb=${growth.toFixed(1)} seconds=${m.seconds.toFixed(1)}\n`);
}
