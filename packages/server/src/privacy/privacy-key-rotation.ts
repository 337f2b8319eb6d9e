/**
 * `svc keys status|rotate` (issue #37 item 1): every table in SEALED_TABLES keeps each row's data
 * key wrapped under a key-encryption key (KEK) named by the id before the first dot. Rotating
 * rewraps the data keys not under the active KEK (48 bytes each; values are never rewritten), in
 * batches in key order, each row only if it still holds the wrapped key that was read, so a run cut
 * short is resumed by running it again (it finds only the rows left).
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import { SEALED_TABLES, type SealedTable, type ValueSealer } from './privacy-sealer.js';
import { WRAPPED_CHARS } from './privacy-keyring.js';

/** A key wrapped before the block wrap (privacy-keyring.ts) is 80 base64url characters (iv, tag, key). */
const GCM_WRAPPED_CHARS = 80;

/**
 * The KEK id of a stored wrapped key in SQL both dialects run: what is before the dot that starts
 * its body, whose length tells the two forms apart (base64url has no dot).
 */
const kekIdSql = sql<string | null>`case when substr(data_key, length(data_key) - ${sql.lit(WRAPPED_CHARS)}, 1) = '.'
  then substr(data_key, 1, length(data_key) - ${sql.lit(WRAPPED_CHARS + 1)})
  else substr(data_key, 1, length(data_key) - ${sql.lit(GCM_WRAPPED_CHARS + 1)}) end`;

export interface TableKeyStatus {
  readonly table: string;
  /** Rows whose data key is wrapped under each KEK id. */
  readonly byKek: Readonly<Record<string, number>>;
  /** Rows without a data key: plain, stored before sealing (`svc privacy encrypt` seals submissions). */
  readonly plain: number;
}

// The tables are named by the code (SEALED_TABLES), never by input.
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

/** Row counts per KEK id (and without a key) in every sealed table. */
export async function keyStatus(db: Kysely<Database>, tables: readonly SealedTable[] = SEALED_TABLES): Promise<TableKeyStatus[]> {
  const any = db as unknown as AnyDb;
  const out: TableKeyStatus[] = [];
  for (const { table } of tables) {
    const rows = (await any
      .selectFrom(table)
      .select([kekIdSql.as('kek'), (eb) => eb.fn.countAll<string | number>().as('n')])
      .groupBy(kekIdSql)
      .execute()) as { kek: string | null; n: string | number }[];
    const byKek: Record<string, number> = {};
    let plain = 0;
    for (const row of rows) {
      if (row.kek === null) plain += Number(row.n);
      else byKek[row.kek] = (byKek[row.kek] ?? 0) + Number(row.n);
    }
    out.push({ table, byKek, plain });
  }
  return out;
}

export interface RotationProgress {
  readonly table: string;
  /** Rows rewrapped in this table so far. */
  readonly rewrapped: number;
  /** Rows whose data key did not unwrap (its KEK not configured, or tampered with): left as they are. */
  readonly failed: number;
}

export interface RotationOptions {
  readonly batch: number;
  readonly onBatch?: (progress: RotationProgress) => void;
}

/** Rewraps every data key not under the active KEK (or wrapped in the first form); answers per table what was done. */
export async function rotateKeys(db: Kysely<Database>, sealer: ValueSealer, options: RotationOptions, tables: readonly SealedTable[] = SEALED_TABLES): Promise<RotationProgress[]> {
  const any = db as unknown as AnyDb;
  // `_` is a LIKE wildcard and may be in an id: escaped.
  const active = `${sealer.activeKekId.replace(/[\\%_]/g, (c) => `\\${c}`)}.%`;
  const current = sealer.activeKekId.length + 1 + WRAPPED_CHARS;
  const results: RotationProgress[] = [];
  for (const { table, key } of tables) {
    let rewrapped = 0;
    let failed = 0;
    let last: unknown = null;
    for (;;) {
      let query = any
        .selectFrom(table)
        .select([sql.ref<unknown>(key).as('k'), sql.ref<string>('data_key').as('wrapped')])
        .where(sql.ref('data_key'), 'is not', null)
        // Not under the active KEK, or under it in the first form (a GCM wrap): rewrapped into the current one.
        .where(sql<boolean>`(${sql.ref('data_key')} not like ${active} escape '\\' or length(${sql.ref('data_key')}) <> ${current})`);
      if (last !== null) query = query.where(sql.ref(key), '>', last);
      const rows = (await query.orderBy(sql.ref(key)).limit(options.batch).execute()) as { k: unknown; wrapped: string }[];
      if (rows.length === 0) break;
      await any.transaction().execute(async (trx) => {
        for (const row of rows) {
          const next = sealer.rewrap(row.wrapped);
          if (next === null) {
            failed++;
            continue;
          }
          const result = await trx
            .updateTable(table)
            .set({ data_key: next })
            .where(sql.ref(key), '=', row.k)
            .where(sql.ref('data_key'), '=', row.wrapped)
            .executeTakeFirst();
          rewrapped += Number(result.numUpdatedRows);
        }
      });
      last = rows[rows.length - 1]?.k;
      options.onBatch?.({ table, rewrapped, failed });
      if (rows.length < options.batch) break;
    }
    results.push({ table, rewrapped, failed });
  }
  return results;
}
