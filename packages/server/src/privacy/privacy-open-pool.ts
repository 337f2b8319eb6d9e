/**
 * Opening many sealed rows off the main thread (issue #37 item 6). An export reads rows by the
 * hundred thousand, and opening one (its data key unwrapped, one AES-GCM envelope opened) costs
 * about as much CPU as everything else the export does with it, so the export hands the pages it
 * reads ahead to a worker thread and formats the ones opened meanwhile: the opening runs on the
 * second core instead of doubling the main thread's work per row.
 *
 * The worker is the compiled privacy-open-worker.js beside this file; where there is none (the
 * TypeScript sources run by the tests), batches are opened on the calling thread, the same code.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PrivacyKeysConfig } from './privacy-config.js';
import { openSubmissionPage, type OpenedColumns, type SubmissionColumnsRow, type ValueSealer } from './privacy-sealer.js';

/**
 * A page sent to the worker, and its answer: the columns as arrays side by side, since a structured
 * clone writes every property name of every object again (a page of row objects cost the main
 * thread twice the copying of four arrays).
 */
export interface OpenBatch {
  readonly id: number;
  readonly uids: readonly string[];
  readonly titles: readonly string[];
  readonly values: readonly string[];
  readonly keys: readonly (string | null)[];
}

export interface OpenedBatch {
  readonly id: number;
  readonly titles: readonly (string | null)[];
  readonly values: readonly (string | null)[];
}

/** What the worker answers for a page: its rows opened (privacy-open-worker.ts). */
export function openBatch(sealer: ValueSealer, batch: OpenBatch): OpenedBatch {
  const rows = batch.uids.map((uid, i) => ({ uid, title: batch.titles[i] as string, values: batch.values[i] as string, data_key: batch.keys[i] ?? null }));
  const opened = openSubmissionPage(sealer, rows);
  return { id: batch.id, titles: opened.map((o) => o.title), values: opened.map((o) => o.values) };
}

export interface OpenPool {
  /** The batch's rows opened, in order. */
  open(rows: readonly SubmissionColumnsRow[]): Promise<OpenedColumns[]>;
  close(): Promise<void>;
}

const WORKER = new URL('./privacy-open-worker.js', import.meta.url);

/**
 * One worker, started at the first batch and kept (unreferenced, so it never holds a process
 * open) for the next export. `config` is the validated config's secret and privacy section, from
 * which the worker builds the same keyring.
 */
export function createOpenPool(sealer: ValueSealer, config: PrivacyKeysConfig, env: NodeJS.ProcessEnv = process.env): OpenPool {
  const inThread: OpenPool = { open: async (rows) => openSubmissionPage(sealer, rows), close: async () => undefined };
  if (!existsSync(fileURLToPath(WORKER))) return inThread;
  let worker: Worker | null = null;
  let next = 0;
  const waiting = new Map<number, { resolve: (opened: OpenedColumns[]) => void; reject: (error: Error) => void }>();
  const start = (): Worker => {
    const started = new Worker(WORKER, { workerData: { config: { secret: config.secret, privacy: config.privacy }, env } });
    started.unref();
    started.on('message', (answer: OpenedBatch) => {
      const entry = waiting.get(answer.id);
      waiting.delete(answer.id);
      entry?.resolve(answer.titles.map((title, i) => ({ title, values: answer.values[i] ?? null })));
    });
    const fail = (error: Error) => {
      // Every batch in flight fails; the next export starts a new worker.
      for (const entry of waiting.values()) entry.reject(error);
      waiting.clear();
      if (worker === started) worker = null;
    };
    started.on('error', fail);
    started.on('exit', (code) => fail(new Error(`the opening worker exited (${code})`)));
    return started;
  };
  return {
    open(rows) {
      if (rows.length === 0) return Promise.resolve([]);
      worker ??= start();
      const id = next++;
      const running = worker;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        // A waiting batch keeps the worker referenced, so a process waiting on it stays up.
        running.ref();
        running.postMessage({ id, uids: rows.map((r) => r.uid), titles: rows.map((r) => r.title), values: rows.map((r) => r.values), keys: rows.map((r) => r.data_key) } satisfies OpenBatch);
      }).finally(() => {
        if (waiting.size === 0) running.unref();
      }) as Promise<OpenedColumns[]>;
    },
    async close() {
      const running = worker;
      worker = null;
      await running?.terminate();
    },
  };
}

const POOLS = new WeakMap<ValueSealer, OpenPool>();

/** The one pool of a sealer (an app's), made at first ask: every service built from the app shares it. */
export function openPoolFor(sealer: ValueSealer, config: PrivacyKeysConfig): OpenPool {
  let pool = POOLS.get(sealer);
  if (!pool) {
    pool = createOpenPool(sealer, config);
    POOLS.set(sealer, pool);
  }
  return pool;
}
