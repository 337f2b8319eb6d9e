/**
 * What sealing values at rest costs by itself (issue #37 item 6), apart from the submit and export
 * ratios it is part of: microseconds of one thread per submission sealed (a new data key wrapped
 * under the KEK, the title and values sealed in one envelope) and per row opened as an export opens
 * them (a page's data keys unwrapped together, each envelope opened), over the bench's contact
 * values, in this process.
 */
import { createKeyring, secretKek } from '../packages/server/src/privacy/privacy-keyring.js';
import { createValueSealer, openSubmissionPage } from '../packages/server/src/privacy/privacy-sealer.js';
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
  const PAGE = 250;
  openSubmissionPage(sealer, stored.slice(0, 2000));
  started = process.cpuUsage();
  let opened = 0;
  for (let at = 0; at < stored.length; at += PAGE) for (const o of openSubmissionPage(sealer, stored.slice(at, at + PAGE))) if (o.values !== null) opened++;
  used = process.cpuUsage(started);
  if (opened !== rows) throw new Error('a sealed row did not open');
  return { sealMicros, openMicros: (used.user + used.system) / rows, rows };
}

export function printSealingCost(cost: SealingCost): void {
  process.stdout.write('\n| sealing at rest (issue #37), CPU of one thread | µs per row |\n|---|---|\n');
  process.stdout.write(`| seal a submission (a new data key wrapped, title and values sealed in one envelope) | ${cost.sealMicros.toFixed(1)} |\n`);
  process.stdout.write(`| open a stored row, a page of 250 at a time (keys unwrapped together, each envelope opened) | ${cost.openMicros.toFixed(1)} |\n`);
  process.stdout.write(`bench sealing seal_us=${cost.sealMicros.toFixed(1)} open_us=${cost.openMicros.toFixed(1)} rows=${cost.rows}\n`);
}
