/** The export scenario's data set and key, shared by bench-main.ts and bench-targets.ts. */
import { randomUUID } from 'node:crypto';

/** Admin API key the svc target accepts for its export route. */
export const EXPORT_KEY = 'bench-export-key-0123456789abcdef';
export const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);

/** Row `i`: what a contact form stores. */
export function exportRow(i: number) {
  const values = { firstName: `Ann${i}`, lastName: 'Lee', email: `ann${i}@example.test`, message: 'Hello from the benchmark, with a sentence of text.' };
  return { uid: randomUUID(), title: `Ann${i} Lee`, values, createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString() };
}
