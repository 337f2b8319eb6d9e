/**
 * What sealing values at rest costs by itself (issue #37 item 6), apart from the submit and export
 * ratios it is part of: microseconds of one thread per submission sealed (a new data key wrapped
 * under the KEK, the values and the title sealed) and per row opened (the data key unwrapped, both
 * columns opened), over the bench's contact values, in this process.
 */
import { createKeyring, secretKek } from '../packages/server/src/privacy/privacy-keyring.js';
import { createValueSealer, openSubmissionColumns } from '../packages/server/src/privacy/privacy-sealer.js';
import { sealSubmission } from '../packages/server/src/submissions/submission-persist.js';

import { exportRow } from './export-data.js';

export interface SealingCost {
  readonly sealMicros: number;
  readonly openMicros: number;
  readonly rows: number;
}

export function measureSealingCost(rows = 20_000): SealingCost {
  const sealer = createValueSealer(createKeyring([secretKek('bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz')], 'secret'));
  const plain = Array.from({ length: rows }, (_v, i) => exportRow(i));
  // Warm-up: JIT and the cipher implementations.
  for (const row of plain.slice(0, 2000)) sealSubmission(sealer.forNew(), row.uid, row.values, row.title);
  let started = process.cpuUsage();
  const sealed = plain.map((row) => ({ uid: row.uid, ...sealSubmission(sealer.forNew(), row.uid, row.values, row.title) }));
  let used = process.cpuUsage(started);
  const sealMicros = (used.user + used.system) / rows;
  const stored = sealed.map((s) => ({ uid: s.uid, title: s.title, values: s.values, data_key: s.dataKey }));
  for (const row of stored.slice(0, 2000)) openSubmissionColumns(sealer, row);
  started = process.cpuUsage();
  let opened = 0;
  for (const row of stored) if (openSubmissionColumns(sealer, row).values !== null) opened++;
  used = process.cpuUsage(started);
  if (opened !== rows) throw new Error('a sealed row did not open');
  return { sealMicros, openMicros: (used.user + used.system) / rows, rows };
}

export function printSealingCost(cost: SealingCost): void {
  process.stdout.write('\n| sealing at rest (issue #37), CPU of one thread | µs per row |\n|---|---|\n');
  process.stdout.write(`| seal a submission (new data key wrapped, values and title sealed) | ${cost.sealMicros.toFixed(1)} |\n`);
  process.stdout.write(`| open a stored row (data key unwrapped, values and title opened) | ${cost.openMicros.toFixed(1)} |\n`);
  process.stdout.write(`bench sealing seal_us=${cost.sealMicros.toFixed(1)} open_us=${cost.openMicros.toFixed(1)} rows=${cost.rows}\n`);
}
