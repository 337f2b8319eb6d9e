/**
 * Sealing the submissions an installation stored before values were sealed (issue #37 item 1):
 * rows whose `data_key` is null hold plain JSON and text. They are sealed in batches in id order,
 * each batch in one transaction, each row under a new data key of its own, and only if it is still
 * plain (`data_key is null` in the UPDATE), so the pass is resumable (run it again: it finds only
 * what is left), safe beside a second instance doing the same, and safe beside an owner's edit
 * (which seals a plain row itself). Reads accept both kinds of row meanwhile.
 *
 * `svc privacy encrypt` runs it in the foreground with a progress bar; `svc serve` runs it in the
 * background after it starts listening, logging progress, so an upgraded installation is sealed
 * without an operator's step.
 */
import type { Kysely } from 'kysely';
import type { Values } from '@svc/core';
import type { Database } from '../storage/database-schema.js';
import { sealSubmissionColumns, type ValueSealer } from './privacy-sealer.js';
import type { FileStore } from '../files/file-store.js';
import { countLegacyRows, encryptLegacyRows } from './privacy-legacy-rows.js';

export interface LegacyEncryptionOptions {
  /** Rows per batch (one transaction each). */
  readonly batch: number;
  /** After each committed batch: rows sealed so far and the last id seen. */
  readonly onBatch?: (sealed: number, lastId: number) => void;
  /** Checked between batches: true stops the pass (a server shutting down). */
  readonly stopped?: () => boolean;
}

/** Plain submissions left to seal. */
export async function countLegacySubmissions(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('svc_submissions')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('data_key', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Seals every plain submission; answers how many this run sealed. */
export async function encryptLegacySubmissions(db: Kysely<Database>, sealer: ValueSealer, options: LegacyEncryptionOptions): Promise<number> {
  let lastId = 0;
  let sealed = 0;
  for (;;) {
    if (options.stopped?.()) return sealed;
    const rows = await db
      .selectFrom('svc_submissions')
      .select(['id', 'uid', 'title', 'values'])
      .where('data_key', 'is', null)
      .where('id', '>', lastId)
      .orderBy('id')
      .limit(options.batch)
      .execute();
    if (rows.length === 0) return sealed;
    const done = await db.transaction().execute(async (trx) => {
      let count = 0;
      for (const row of rows) {
        const seal = sealer.forNew();
        // The stored JSON is re-serialised from its parse, so what is sealed is what a new
        // submission would have stored.
        const values = JSON.parse(row.values) as Values;
        const result = await trx
          .updateTable('svc_submissions')
          .set({ ...sealSubmissionColumns(seal, row.uid, JSON.stringify(values), row.title), data_key: seal.wrapped })
          .where('id', '=', row.id)
          .where('data_key', 'is', null)
          .executeTakeFirst();
        count += Number(result.numUpdatedRows);
      }
      return count;
    });
    sealed += done;
    lastId = Number(rows[rows.length - 1]?.id);
    options.onBatch?.(sealed, lastId);
    if (rows.length < options.batch) return sealed;
  }
}

/**
 * The pass in the background of a serving process: starts at once, logs progress every batch,
 * and stop() ends it between batches (awaited before the database closes).
 */
export function startLegacyEncryption(
  db: Kysely<Database>,
  sealer: ValueSealer,
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
  /** The file store: plain uploads, answers, jobs and audit values are sealed after the submissions (privacy-legacy-rows.ts). */
  store?: FileStore,
): { readonly done: Promise<void>; stop(): Promise<void> } {
  let stopping = false;
  const run = (async () => {
    const left = await countLegacySubmissions(db);
    if (left > 0) {
      log.info({ submissions: left }, 'sealing submissions stored before encryption at rest (issue #37)');
      const sealed = await encryptLegacySubmissions(db, sealer, {
        batch: 500,
        stopped: () => stopping,
        onBatch: (n, lastId) => log.info({ sealed: n, of: left, lastId }, 'sealing stored submissions'),
      });
      log.info({ sealed: sealed }, stopping ? 'sealing stored submissions stopped; the next start resumes it' : 'every stored submission is sealed');
    }
    if (!store || stopping) return;
    const rows = await countLegacyRows(db);
    if (Object.values(rows).every((n) => n === 0)) return;
    log.info({ ...rows }, 'sealing uploads, idempotency answers, outbox jobs and audit values stored before encryption at rest (issue #37)');
    const sealedRows = await encryptLegacyRows({ db, sealer, store }, { batch: 500, stopped: () => stopping, onBatch: (kind, n) => log.info({ kind, sealed: n }, 'sealing stored rows') });
    log.info({ ...sealedRows }, stopping ? 'sealing stored rows stopped; the next start resumes it' : 'every stored upload, answer, job and audit value is sealed');
  })().catch((error: unknown) => log.error({ err: error }, 'sealing stored submissions failed; the next start resumes it'));
  return {
    done: run,
    async stop() {
      stopping = true;
      await run;
    },
  };
}
