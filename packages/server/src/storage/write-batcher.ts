/**
 * Group commit (issue #17). SQLite has one writer, and each transaction appends every page it
 * touched to the WAL, so a submission row and its outbox rows cost far more one by one than
 * together. On PostgreSQL every statement is a round trip and a socket write on each side (on
 * loopback the kernel's TCP work for both ends is charged to the writer: a third of a submit's
 * CPU in a profile). Writes that arrive while a transaction runs wait for it and then share the
 * next one, and writes of one kind (a combined write, such as a plain submission's row and its
 * jobs) go in one statement for the whole batch; on PostgreSQL a batch of one such kind can be
 * one self-contained statement with no BEGIN and COMMIT around it (`runStatement`). Each caller
 * still learns of its own write only after the commit that holds it (DESIGN.md principle 8). When
 * a shared transaction fails, its writes run again one transaction each, so one bad write never
 * takes the others down with it and each gets its own outcome. PostgreSQL runs a few batches at
 * once (its pool writes in parallel).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database-schema.js';
import type { DialectName } from './database-factory.js';

export type Write<T> = (trx: Transaction<Database>) => Promise<T>;

/**
 * Writes of one kind that a batch runs together. `runMany` gets every input of the batch and
 * answers one result per input, in order; it runs in the batch's transaction, so all or none of
 * it commits. Keep one object per kind: the batcher groups by identity.
 */
export interface CombinedWrite<I, T> {
  runMany(trx: Transaction<Database>, inputs: readonly I[]): Promise<readonly T[]>;
  /**
   * The same writes as one statement that is atomic by itself, for PostgreSQL batches that hold
   * nothing else: no BEGIN and COMMIT, so one round trip for the batch instead of four.
   */
  runStatement?(db: Kysely<Database>, inputs: readonly I[]): Promise<readonly T[]>;
}

export interface WriteBatcher {
  /** Runs `write` in a transaction (shared with concurrent writes); resolves after commit. */
  run<T>(write: Write<T>): Promise<T>;
  /** Runs `input` with the other inputs of `kind` in the same batch; resolves after commit. */
  combine<I, T>(kind: CombinedWrite<I, T>, input: I): Promise<T>;
}

interface Pending {
  readonly kind: CombinedWrite<unknown, unknown>;
  readonly input: unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** The writes `run` takes: a kind of their own, each run in turn with its own result. */
const OWN_WRITES: CombinedWrite<Write<unknown>, unknown> = {
  async runMany(trx, writes) {
    const out: unknown[] = [];
    for (const write of writes) out.push(await write(trx));
    return out;
  },
};

/** Enough to amortise the commit, few enough that one batch never holds the writer for long. */
const MAX_BATCH = 64;
/** Transactions a PostgreSQL batcher keeps open at once: a few of the pool's connections, not all. */
const PG_LANES = 4;
/** SQLSTATEs after which PostgreSQL has rolled the transaction back and it may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const RETRIES = 4;

/** Runs every pending item of `batch` in `trx`: each kind once, with all its inputs, in the order the kinds came. */
async function runItems(trx: Transaction<Database>, batch: readonly Pending[]): Promise<unknown[]> {
  const groups = new Map<CombinedWrite<unknown, unknown>, number[]>();
  batch.forEach((item, i) => {
    const group = groups.get(item.kind);
    if (group) group.push(i);
    else groups.set(item.kind, [i]);
  });
  const results: unknown[] = new Array(batch.length);
  for (const [kind, indexes] of groups) {
    const out = await kind.runMany(trx, indexes.map((i) => (batch[i] as Pending).input));
    if (out.length !== indexes.length) throw new Error(`a combined write answered ${out.length} results for ${indexes.length} inputs`);
    indexes.forEach((at, i) => (results[at] = out[i]));
  }
  return results;
}

export function createWriteBatcher(db: Kysely<Database>, dialect: DialectName): WriteBatcher {
  const lanes = dialect === 'sqlite' ? 1 : PG_LANES;
  const queue: Pending[] = [];
  let active = 0;
  let scheduled = false;

  /**
   * PostgreSQL ends one of two transactions that wait on each other's rows (40P01: its lanes
   * write in parallel, and counters such as the report counts are rows every submit adds to) or
   * that could not be serialised (40001). Nothing of it committed, so it runs again, a few times.
   */
  async function execute(batch: readonly Pending[]): Promise<readonly unknown[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await executeOnce(batch);
      } catch (error) {
        if (dialect !== 'postgres' || attempt >= RETRIES || !RETRYABLE.has((error as { code?: unknown }).code as string)) throw error;
      }
    }
  }

  /** The batch in one statement when it can be (PostgreSQL, one kind that has one), else in a transaction. */
  async function executeOnce(batch: readonly Pending[]): Promise<readonly unknown[]> {
    const kind = (batch[0] as Pending).kind;
    if (dialect === 'postgres' && kind.runStatement && batch.every((item) => item.kind === kind)) {
      const out = await kind.runStatement(db, batch.map((item) => item.input));
      if (out.length !== batch.length) throw new Error(`a combined statement answered ${out.length} results for ${batch.length} inputs`);
      return out;
    }
    return db.transaction().execute((trx) => runItems(trx, batch));
  }

  async function runAlone(item: Pending): Promise<void> {
    try {
      const [result] = await execute([item]);
      item.resolve(result);
    } catch (error) {
      item.reject(error);
    }
  }

  async function runBatch(batch: readonly Pending[]): Promise<void> {
    if (batch.length === 1) return runAlone(batch[0] as Pending);
    let results: readonly unknown[];
    try {
      results = await execute(batch);
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

  function enqueue<T>(kind: CombinedWrite<unknown, unknown>, input: unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({ kind, input, resolve: resolve as (value: unknown) => void, reject });
      schedule();
    });
  }

  return {
    run: <T>(write: Write<T>) => enqueue<T>(OWN_WRITES, write),
    combine: <I, T>(kind: CombinedWrite<I, T>, input: I) => enqueue<T>(kind as CombinedWrite<unknown, unknown>, input),
  };
}
