/**
 * WAL checkpoints off the request path (issue #17). SQLite copies the WAL back into the database
 * file when it passes `wal_autocheckpoint` pages, inside whichever commit crosses the line: about
 * 40% of a submission's write cost, paid by a request. Here a worker thread with a connection of
 * its own checkpoints (PASSIVE: never blocking writers) several times a second on the other core,
 * and the main connection's automatic checkpoint moves far out, as the safety net it stays.
 * Durability is unchanged: a commit is durable in the WAL before any checkpoint.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import type SqliteDatabase from 'better-sqlite3';

/** Pages before the main connection checkpoints by itself (the default is 1,000). */
const SAFETY_NET_PAGES = 20_000;
const DEFAULT_PAGES = 1_000;
const INTERVAL_MS = 250;

// CommonJS source, so the worker needs no TypeScript loader under tsx, vitest or a build.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { /* busy or closing: the next tick tries again */ }
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); process.exit(0); });
parentPort.postMessage('ready');
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(sqlite: SqliteDatabase.Database, file: string): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs: INTERVAL_MS } });
  worker.unref();
  worker.on('message', (message) => {
    if (message === 'ready') sqlite.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  });
  // Without the worker, SQLite checkpoints by itself as it always did.
  worker.on('error', () => sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`));
  return {
    async stop() {
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('stop');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 1000))]);
      await worker.terminate();
    },
  };
}
