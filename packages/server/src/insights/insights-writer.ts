/**
 * The insights writer (issue #38): increments are added up in memory and written every `windowMs`
 * as upserts that add to the stored counts (`n = n + excluded.n`, SQLite and PostgreSQL alike),
 * through the process's write batcher, so they share its transactions with the submissions
 * instead of costing a commit per answered step. A crash loses at most the window not yet
 * written; close() writes what is left. A failed write keeps its counts for the next window.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../storage/database-schema.js';
import type { WriteBatcher } from '../storage/write-batcher.js';

/** Each aggregate table and its key columns (its primary key, the upsert's conflict target). */
export const INSIGHT_TABLES = {
  svc_insight_steps: ['form_id', 'hour', 'site', 'page', 'intent', 'outcome'],
  svc_insight_field_errors: ['form_id', 'hour', 'site', 'field', 'message_key'],
  svc_insight_counts: ['form_id', 'hour', 'site', 'kind', 'page'],
  svc_insight_durations: ['form_id', 'hour', 'site', 'page', 'seconds'],
} as const;

export type InsightTable = keyof typeof INSIGHT_TABLES;
type KeyValue = string | number;

interface Pending {
  readonly table: InsightTable;
  readonly key: readonly KeyValue[];
  n: number;
}

export interface InsightsWriter {
  /** Adds `n` (may be negative) to the row of `table` whose key columns hold `key`, in order. */
  add(table: InsightTable, key: readonly KeyValue[], n?: number): void;
  /** Writes every increment added so far; resolves once committed. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left (the server's close path). */
  close(): Promise<void>;
}

export interface InsightsWriterOptions {
  readonly db: Kysely<Database>;
  readonly writes: WriteBatcher;
  readonly log: FastifyBaseLogger;
  /** How long increments are added up before they are written. */
  readonly windowMs: number;
  /** Written at once, without waiting for the window, when this many rows are pending. */
  readonly maxPending?: number;
  /** Called as each flush begins, so tallies kept elsewhere (the views) join the batch. */
  readonly beforeFlush?: () => void;
}

/** Rows one upsert statement carries: well under SQLite's and PostgreSQL's parameter limits. */
const ROWS_PER_STATEMENT = 250;

async function upsert(trx: Transaction<Database>, table: InsightTable, rows: readonly Pending[]): Promise<void> {
  const columns = INSIGHT_TABLES[table];
  for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
    const values = rows.slice(at, at + ROWS_PER_STATEMENT).map((row) => {
      const out: Record<string, KeyValue> = { n: row.n };
      columns.forEach((column, i) => (out[column] = row.key[i] as KeyValue));
      return out;
    });
    // The table is a literal from INSIGHT_TABLES; Kysely cannot type a union of tables' rows.
    await trx
      .insertInto(table)
      .values(values as never)
      .onConflict((oc) => oc.columns([...columns] as never).doUpdateSet({ n: sql`${sql.ref(`${table}.n`)} + excluded.n` } as never))
      .execute();
  }
}

export function createInsightsWriter(options: InsightsWriterOptions): InsightsWriter {
  const maxPending = options.maxPending ?? 20_000;
  let pending = new Map<string, Pending>();
  let writing: Promise<void> = Promise.resolve();

  const merge = (rows: Iterable<Pending>) => {
    for (const row of rows) {
      const id = `${row.table}\u0000${row.key.join('\u0000')}`;
      const found = pending.get(id);
      if (found) found.n += row.n;
      else pending.set(id, { ...row });
    }
  };

  async function write(batch: Map<string, Pending>): Promise<void> {
    const byTable = new Map<InsightTable, Pending[]>();
    for (const row of batch.values()) {
      if (row.n === 0) continue;
      const list = byTable.get(row.table);
      if (list) list.push(row);
      else byTable.set(row.table, [row]);
    }
    if (byTable.size === 0) return;
    try {
      await options.writes.run(async (trx) => {
        for (const [table, rows] of byTable) await upsert(trx, table, rows);
      });
    } catch (error) {
      // Kept for the next window rather than lost; a database that stays down is logged each time.
      merge(batch.values());
      options.log.error({ err: error }, 'insights counts not written; will retry');
    }
  }

  /** One write at a time, in order: a flush waits for the one before it. */
  function flush(): Promise<void> {
    options.beforeFlush?.();
    const batch = pending;
    pending = new Map();
    writing = writing.then(() => write(batch));
    return writing;
  }

  const timer = setInterval(() => void flush(), options.windowMs);
  timer.unref();

  return {
    add(table, key, n = 1) {
      const id = `${table}\u0000${key.join('\u0000')}`;
      const found = pending.get(id);
      if (found) found.n += n;
      else pending.set(id, { table, key, n });
      if (pending.size >= maxPending) void flush();
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
