/**
 * Group commit for SQLite (issue #17): SQLite has one writer, and each transaction appends every
 * page it touched to the WAL, so a submission row and its outbox rows cost far more one by one
 * than together. Writes that arrive while a transaction runs wait for it and then share the next
 * one. Each caller still learns of its own write only after the commit that holds it (DESIGN.md
 * principle 8). When a shared transaction fails, its writes run again one transaction each, so
 * one bad write never takes the others down with it and each gets its own outcome.
 * PostgreSQL runs each write in its own transaction: its pool already writes in parallel.
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

export function createWriteBatcher(db: Kysely<Database>, dialect: DialectName): WriteBatcher {
  if (dialect !== 'sqlite') return { run: (write) => db.transaction().execute(write) };
  let queue: Pending[] = [];
  let running = false;

  async function runAlone(item: Pending): Promise<void> {
    try {
      item.resolve(await db.transaction().execute(item.write));
    } catch (error) {
      item.reject(error);
    }
  }

  async function flush(): Promise<void> {
    running = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(batch.length);
      if (batch.length === 1) {
        await runAlone(batch[0] as Pending);
        continue;
      }
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
        continue;
      }
      batch.forEach((item, i) => item.resolve(results[i]));
    }
    running = false;
  }

  return {
    run<T>(write: Write<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
        // better-sqlite3 is synchronous, so a batch started at once would commit before any other
        // request's callback ran and every batch would hold one write. An idle batcher waits for
        // the end of this turn of the event loop, so the writes of every request read in it share
        // one commit; writes arriving while a batch commits join the next one.
        if (!running) {
          running = true;
          setImmediate(() => void flush());
        }
      });
    },
  };
}
