/**
 * Storing a submission (DESIGN.md principle 8): the row, the claim on its files, its delivery jobs
 * and any claim the caller brings (a payment, a single-use link) commit in one transaction, so an
 * acknowledged submission is complete and a claim that fails stores nothing at all.
 */
import type { Form, Values } from '@svc/core';
import type { Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import { randomAlphanumeric, sha256, timeOrderedUuid } from '../security/token-crypto.js';
import type { DeliveryService, PaymentSummary } from '../notifications/delivery-service.js';
import { renderSubmissionTitle } from './submission-title.js';
import { insertSubmission, insertSubmissions, type NewSubmission, type SealedColumns, type SubmissionClient, type SubmissionProfile } from './submission-repository.js';
import { enqueueDeliveries, type NewDelivery } from '../notifications/outbox-repository.js';
import type { CombinedWrite, WriteBatcher } from '../storage/write-batcher.js';
import { insertSubmissionBatch } from './submission-batch-statement.js';
import { ReportTally, reportedFields, tallyStatements, writeReportTally } from './report-counts.js';
import { allIds, fileSlots } from './submit-files.js';
import type { UploadService } from '../files/upload-service.js';
import type { SpamLists } from '../security/spam-lists.js';
import type { DraftService } from '../drafts/draft-service.js';
import { sealSubmissionColumns, type RowSeal, type ValueSealer } from '../privacy/privacy-sealer.js';

/**
 * What storing uses of the pipeline's SubmitServices, declared here so this module does not
 * import the pipeline that calls it (issue #31 item 15: no import circles).
 */
export interface PersistServices {
  readonly writes: WriteBatcher;
  readonly uploads: UploadService;
  readonly deliveries: DeliveryService;
  readonly spamLists: SpamLists;
  readonly drafts: DraftService;
  readonly ipHash: (ip: string) => string;
  readonly now: () => Date;
  /** Seals the row's values and title under a data key of its own (issue #37 item 1). */
  readonly sealer: ValueSealer;
  /** The privacy room's blind index (issue #37), written in the submission's transaction. */
  readonly personalIndex?: PersonalIndexer;
}

/**
 * What a submission's `personal` values add to its transaction (issue #37), or null when it has
 * none. Declared here, implemented in privacy/, so storing imports nothing of that room.
 */
export interface PersonalIndexer {
  prepare(form: Form, values: Values): ((trx: Transaction<Database>, submissionId: number) => Promise<void>) | null;
}

/** Runs in the submission's transaction; throwing rolls the submission back. */
export type Claim = (trx: Transaction<Database>, submissionId: number | null) => Promise<void>;

/** A submission validated and ready to store, held while its payment completes (issue #12). */
export interface PreparedSubmission {
  readonly values: Values;
  readonly spamReasons: readonly string[];
  readonly ip: string | null;
  readonly client: SubmissionClient | null;
  readonly draftToken: string | null;
  /** The site it was made on (issue #34); absent in submissions held before sites existed. */
  readonly site?: string | null;
}

/** What a paid submission is stored with: the record shown to templates, and the exactly-once claim. */
export interface PaymentClaim {
  readonly summary: PaymentSummary;
  /** Runs in the submission's transaction; throws when the payment already has its submission. */
  claim(trx: Transaction<Database>, submissionId: number | null): Promise<void>;
}

export const FILES_GONE = 'An uploaded file is no longer available; please upload it again';

/** The insert lost a race for one of its files (a purge or another submit claimed it). */
export class FilesGone extends Error {}

export interface PersistInput {
  readonly form: Form;
  readonly client: SubmissionClient | null;
  readonly values: Values;
  readonly spamReasons: readonly string[];
  readonly ip: string | null;
  readonly date: Date;
  readonly payment?: PaymentClaim;
  readonly profile?: { readonly record: SubmissionProfile; readonly claim?: Claim };
  /** The handle of the site it was made on (issue #34). */
  readonly site?: string | null;
}

interface PlainSubmission {
  readonly row: NewSubmission;
  /** Its delivery jobs, for its id (null: the batch statement sets it); null when it notifies nobody. */
  readonly jobs: ((id: number | null) => readonly NewDelivery[]) | null;
  /** Its blind-index rows (issue #37), written in the batch's transaction; null when it has none. */
  readonly index: ((trx: Transaction<Database>, submissionId: number) => Promise<void>) | null;
  /** What it adds to its form's report counts (issue #35 item 6), written once for the whole batch. */
  readonly tally: ReportTally;
}

/** What a batch adds to the report's counts (issue #35 item 6): its submissions' tallies merged. */
const batchTally = (inputs: readonly PlainSubmission[]) => inputs.reduce((all, input) => all.merge(input.tally), new ReportTally());

/** Jobs are queued at the batch's latest submission time. */
const queuedAt = (inputs: readonly PlainSubmission[]) => inputs.reduce((latest, input) => (input.row.createdAt > latest ? input.row.createdAt : latest), '');

/**
 * A submission without files or claims, with its jobs. A write batch's plain submissions go in one
 * INSERT of rows and one of jobs (issue #17); on PostgreSQL, when the batch holds nothing else,
 * both in one statement without a transaction around it (submission-batch-statement.ts).
 */
const plainSubmissions: CombinedWrite<PlainSubmission, number> = {
  async runMany(trx, inputs) {
    const ids = await insertSubmissions(
      trx,
      inputs.map((input) => input.row),
    );
    for (const [i, input] of inputs.entries()) await input.index?.(trx, ids[i] as number);
    const jobs = inputs.flatMap((input, i) => (input.jobs ? input.jobs(ids[i] as number) : []));
    await enqueueDeliveries(trx, jobs, queuedAt(inputs));
    // Last, so a PostgreSQL batch holds the report's hot rows (this hour's) only until its commit.
    await writeReportTally(trx, batchTally(inputs));
    return ids;
  },
  runStatement(db, inputs) {
    const batch = inputs.map((input) => ({ row: input.row, jobs: input.jobs ? input.jobs(null) : [] }));
    return insertSubmissionBatch(db, batch, queuedAt(inputs), tallyStatements(batchTally(inputs)));
  },
};

/**
 * Plain submissions with personal values (issue #37): batched the same way, with their index rows
 * in the batch's transaction, so never through the single statement, which has room for rows and
 * jobs only.
 */
const indexedSubmissions: CombinedWrite<PlainSubmission, number> = { runMany: plainSubmissions.runMany };

export async function persist(services: PersistServices, input: PersistInput) {
  const { form, values, spamReasons, ip, date, payment } = input;
  const claim = input.profile?.claim;
  const uid = timeOrderedUuid(date.getTime());
  const title = renderSubmissionTitle(form.settings.submissionTitleFormat, { values, formName: form.name, dateCreated: date });
  // issue #37 item 1: the values and title are stored sealed under a data key of this submission's
  // own, wrapped in its data_key column (sealSubmission); its outbox jobs are sealed under the same
  // key, so destroying it shreds them with the values.
  const seal = services.sealer.forNew();
  // With its id key from the start, so `{ ...stored, id }` below overrides a key instead of adding
  // one, which in optimised code would give each copy a hidden class of its own (issue #17).
  const stored = { uid, title, status: form.settings.defaultStatus, createdAt: date.toISOString(), values, payment: payment?.summary ?? null, site: input.site ?? null, seal, id: null as number | null };
  // issue #5: spam notifies nobody; everything else has its jobs written with the row.
  const targets = spamReasons.length === 0 ? services.deliveries.plan(form, values) : [];
  const notify = targets.length > 0;
  if (!form.settings.storeData) {
    // Nothing is stored, but the notifications still go out (from the outbox row alone).
    if (notify || payment || claim) {
      await services.writes.run(async (trx) => {
        await payment?.claim(trx, null);
        await claim?.(trx, null);
        await services.deliveries.enqueue(trx, form, stored, targets, false);
      });
      if (notify) services.deliveries.poke();
    }
    return null;
  }
  const token = randomAlphanumeric(32);
  const row = {
    uid,
    formId: form.id,
    tokenHash: sha256(token),
    title,
    status: form.settings.defaultStatus,
    isSpam: spamReasons.length > 0,
    spamReasons,
    ip: form.settings.ipCollectingEnabled ? ip : null,
    ipHash: ip ? services.ipHash(ip) : null,
    values,
    createdAt: date.toISOString(),
    client: input.client,
    profile: input.profile?.record ?? null,
    site: input.site ?? null,
    sealed: sealSubmission(seal, uid, values, title),
  };
  const fileIds = allIds(fileSlots(form, values));
  // Personal values (issue #37) add index rows, committed with the submission's row.
  const index = services.personalIndex?.prepare(form, values) ?? null;
  // issue #35 item 6: the report's counts, in the submission's transaction like its other rows.
  const tally = new ReportTally().add(reportedFields(form), { formId: form.id, createdAt: row.createdAt, status: row.status, isSpam: row.isSpam, values }, 1);
  if (fileIds.length === 0 && !payment && !claim) {
    const jobs = notify ? (id: number | null) => services.deliveries.jobs(form, { ...stored, id }, targets) : null;
    const id = await services.writes.combine(index ? indexedSubmissions : plainSubmissions, { row, jobs, index, tally });
    if (notify) services.deliveries.poke();
    return { id, uid, token };
  }
  // The row, the claim on its files and its delivery jobs commit together: a submission never
  // points at a file the purge may take, and an acknowledged submission is always delivered.
  const id = await services.writes.run(async (trx) => {
    const inserted = await insertSubmission(trx, row);
    await index?.(trx, inserted);
    await writeReportTally(trx, tally);
    await payment?.claim(trx, inserted);
    await claim?.(trx, inserted);
    if (fileIds.length > 0) {
      const attached = await services.uploads.attach(trx, inserted, form, fileIds);
      // Flagged spam keeps what it could claim; a real submission is all or nothing, except a
      // paid one: the payment is taken, so the submission is stored with the files that remain.
      if (attached !== fileIds.length && spamReasons.length === 0 && !payment) throw new FilesGone();
    }
    if (notify) await services.deliveries.enqueue(trx, form, { ...stored, id: inserted }, targets, fileIds.length > 0);
    return inserted;
  });
  if (notify) services.deliveries.poke();
  return { id, uid, token };
}

/**
 * A submission's stored columns sealed under `seal` (issue #37 item 1): its values' JSON and its
 * title (rendered from values, e.g. a name) in one envelope bound to the submission's uid.
 */
export function sealSubmission(seal: RowSeal, uid: string, values: Values, title: string): SealedColumns {
  return { dataKey: seal.wrapped, ...sealSubmissionColumns(seal, uid, JSON.stringify(values), title) };
}

/**
 * Stores a submission its payment completed (issue #12): the normal persist, with the payment's
 * claim in the same transaction, so a second finaliser's transaction fails and stores nothing.
 */
export async function storePaidSubmission(services: PersistServices, form: Form, prepared: PreparedSubmission, payment: PaymentClaim) {
  const date = services.now();
  // The lists may have grown while the respondent paid; the meta checks ran at the checkpoint.
  const listed = services.spamLists.check(form, prepared.values, prepared.ip);
  const spamReasons = [...new Set([...prepared.spamReasons, ...listed])];
  const submission = await persist(services, { form, client: prepared.client, values: prepared.values, spamReasons, ip: prepared.ip, date, payment, site: prepared.site ?? null });
  if (prepared.draftToken) await services.drafts.delete(prepared.draftToken);
  return submission;
}
