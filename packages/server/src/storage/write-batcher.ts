/**
 * Group commit (issue #17). SQLite has one writer, and each transaction appends every page it
 * touched to the WAL, so a submission row and its outbox rows cost far more one by one than
 * together. On PostgreSQL every statement is a round trip and a socket write on each side, and a
 * submit's BEGIN and COMMIT were half of its four. Writes that arrive while a transaction runs
 * wait for it and then share the next one. Each caller still learns of its own write only after
 * the commit that holds it (DESIGN.md principle 8). When a shared transaction fails, its writes
 * run again one transaction each, so one bad write never takes the others down with it and each
 * gets its own outcome. PostgreSQL runs a few batches at once (its pool writes in parallel).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database-schema.js';
import type { DialectName } from './database-factory.js';

export type Write<T> = (trx: Transaction<Database>) => Promise<T>;

export interface WriteBatcher {
  /** Runs `write` in a transaction (shared with concurrent writes on SQLite); resolves after commit. */
  run<T>(write: Write<T>): Promise<T>;
}

interface Pending {
  readonly write: Write<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** Enough to amortise the commit, few enough that one batch never holds the writer for long. */
const MAX_BATCH = 64;
/** Transactions a PostgreSQL batcher keeps open at once: a few of the pool's connections, not all. */
const PG_LANES = 4;

export function createWriteBatcher(db: Kysely<Database>, dialect: DialectName): WriteBatcher {
  const lanes = dialect === 'sqlite' ? 1 : PG_LANES;
  const queue: Pending[] = [];
  let active = 0;
  let scheduled = false;

  async function runAlone(item: Pending): Promise<void> {
    try {
      item.resolve(await db.transaction().execute(item.write));
    } catch (error) {
      item.reject(error);
    }
  }

  async function runBatch(batch: readonly Pending[]): Promise<void> {
    if (batch.length === 1) return runAlone(batch[0] as Pending);
    let results: unknown[];
    try {
      results = await db.transaction().execute(async (trx) => {
        const out: unknown[] = [];
        for (const item of batch) out.push(await item.write(trx));
        return out;
      });
    } catch {
      // Nothing of the batch was committed: each write again, alone, with its own outcome.
      for (const item of batch) await runAlone(item);
      return;
    }
    batch.forEach((item, i) => item.resolve(results[i]));
  }

  /** One lane: batches from the queue, one transaction at a time, until the queue is empty. */
  async function lane(): Promise<void> {
    active += 1;
    try {
      while (queue.length > 0) {
        await runBatch(queue.splice(0, MAX_BATCH));
      }
    } finally {
      active -= 1;
    }
  }

  /**
   * better-sqlite3 is synchronous, so a batch started at once would commit before any other
   * request's callback ran and every batch would hold one write. A free lane starts at the end of
   * this turn of the event loop, so the writes of every request read in it share one commit;
   * writes arriving while every lane commits join the next batch.
   */
  function schedule(): void {
    if (scheduled || active >= lanes) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (queue.length > 0 && active < lanes) void lane();
    });
  }

  return {
    run<T>(write: Write<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
        schedule();
      });
    },
  };
}
