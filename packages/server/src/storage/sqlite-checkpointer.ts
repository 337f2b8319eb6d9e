/**
 * WAL checkpoints off the request path (issue #17). SQLite copies the WAL back into the database
 * file when it passes `wal_autocheckpoint` pages, inside whichever commit crosses the line: about
 * 40% of a submission's write cost, paid by a request. Here a worker thread with a connection of
 * its own checkpoints (PASSIVE: never blocking writers) several times a second on the other core,
 * and the main connection's automatic checkpoint moves far out, as the safety net it stays.
 * Durability is unchanged: a commit is durable in the WAL before any checkpoint.
 *
 * Under writes that never pause, a checkpoint beside them never reaches the WAL's end (a commit
 * always lands while it copies), and only a checkpoint that reaches the end lets the next commit
 * start the WAL over. So the WAL grew to the safety net, and the writer's own checkpoint there
 * synced every database page the worker had copied since the last start-over: a 20-30 ms commit
 * about once a second at 2,400 submits/s, which was the submit's whole fixed-rate p99 (22-38 ms
 * against the bare insert's 3-6). Now, past RESTART_PAGES, the worker syncs the database file
 * itself and hands the last few frames to the writer between its transactions: a checkpoint of a
 * few pages with nothing left to flush, after which the WAL starts over (p99 4-6 ms).
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import type SqliteDatabase from 'better-sqlite3';

/** Pages before the main connection checkpoints by itself (the default is 1,000). */
const SAFETY_NET_PAGES = 20_000;
const DEFAULT_PAGES = 1_000;
/**
 * WAL pages (about 16 MB) past which the writer finishes the worker's checkpoint. At 2,400
 * submits/s, 1,000 to 8,000 gave the same p99; fewer hand-overs cost the writer less.
 */
const RESTART_PAGES = 4_000;
/**
 * While writes arrive the worker checkpoints every BUSY_MS, else every IDLE_MS. Each checkpoint
 * syncs the WAL (and the database file when it reaches the WAL's end), and on this class of disk
 * a writer's append waits while a sync is under way: small, frequent checkpoints keep those waits
 * short. At 2,300 submits/s the p99 at a fixed rate was 26-37 ms with a checkpoint every 250 ms
 * and 18-20 ms every 50 ms, before the hand-over above; on tmpfs (no syncs to wait for) it was
 * 11 ms (issue #17).
 */
const BUSY_MS = 50;
const IDLE_MS = 250;

// CommonJS source, so the worker needs no TypeScript loader under tsx, vitest or a build.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const fs = require('node:fs');
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const dbFile = fs.openSync(workerData.file, 'r');
let timer = null;
let lastLog = -1;
const tick = () => {
  // The WAL's frame count: it changes only when writes arrived (or the WAL started over) since.
  let log = lastLog;
  try {
    const result = db.pragma('wal_checkpoint(PASSIVE)')[0];
    log = result.log;
    if (result.busy === 0 && result.log >= workerData.restartPages) {
      // SQLite syncs the database file only in a checkpoint that reaches the WAL's end: do it
      // here, so the writer's finishing checkpoint has only its own few pages to sync.
      try { fs.fdatasyncSync(dbFile); } catch (error) { /* the writer's checkpoint syncs it then */ }
      parentPort.postMessage('finish');
    }
  } catch (error) { /* busy or closing: the next tick tries again */ }
  timer = setTimeout(tick, log !== lastLog ? workerData.busyMs : workerData.idleMs);
  lastLog = log;
};
timer = setTimeout(tick, workerData.idleMs);
parentPort.on('message', () => { clearTimeout(timer); db.close(); fs.closeSync(dbFile); process.exit(0); });
parentPort.postMessage('ready');
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  /** WAL pages past which the writer finishes the worker's checkpoint (RESTART_PAGES). */
  readonly restartPages?: number;
}

export function startCheckpointer(sqlite: SqliteDatabase.Database, file: string, options: CheckpointerOptions = {}): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const restartPages = options.restartPages ?? RESTART_PAGES;
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, busyMs: BUSY_MS, idleMs: IDLE_MS, restartPages } });
  worker.unref();
  worker.on('message', (message) => {
    if (message === 'ready') sqlite.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
    // Between transactions only (a message is its own turn of the event loop, and a statement
    // being iterated makes the driver refuse): the writer's checkpoint copies what landed since
    // the worker's, reaches the WAL's end, and the next commit starts the WAL over.
    if (message === 'finish' && sqlite.open && !sqlite.inTransaction) {
      try {
        sqlite.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // Busy (an export reading): the worker asks again on its next tick.
      }
    }
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
