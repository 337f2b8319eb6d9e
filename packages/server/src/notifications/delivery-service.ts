/**
 * Deliveries as one service: the submit pipeline writes jobs in its transaction and pokes the
 * worker after commit; the admin API lists, resends and releases them (a submission marked not
 * spam after all gets the deliveries a clean one would have had).
 */
import type { Form, Values } from '@svc/core';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { FormRegistry } from '../forms/form-registry.js';
import type { Site, SiteRegistry } from '../sites/site-registry.js';
import { listForSubmissions, type UploadRow } from '../files/upload-repository.js';
import type { DeliveryPayload, DeliveryRecord, DeliveryTarget } from './delivery-model.js';
import { planDeliveries, type PlannerOptions } from './delivery-planner.js';
import { enqueueDeliveries, listDeliveries, requeueDelivery, type NewDelivery } from './outbox-repository.js';
import type { DeliveryWorker } from './delivery-worker.js';
import { openSubmissionColumns, parseOpenedValues, type RowSeal, type ValueSealer } from '../privacy/privacy-sealer.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A paid submission's payment as templates and webhook bodies see it (issue #12). */
export interface PaymentSummary {
  readonly gateway: string;
  readonly intentId: string;
  /** Minor units, and the same in major units for people. */
  readonly amount: number;
  readonly amountFormatted: string;
  readonly currency: string;
  readonly status: string;
}

export interface StoredForDelivery {
  readonly id: number | null;
  readonly uid: string;
  readonly title: string;
  readonly status: string;
  readonly createdAt: string;
  readonly values: Values;
  readonly payment?: PaymentSummary | null;
  /** The handle of the site it was made on (issue #34); its emails are in that site's language. */
  readonly site?: string | null;
  /**
   * The submission's own data key (issue #37 item 1): its jobs' payloads are sealed under it, so
   * destroying it shreds them with the values. Absent, the jobs get a data key of their own.
   */
  readonly seal?: RowSeal;
}

export interface DeliveryService {
  /** The jobs a clean submission with these values creates (none: no transaction needed). */
  plan(form: Form, values: Values): DeliveryTarget[];
  /**
   * Writes the planned jobs in the caller's transaction. `hasFiles` false spares the file lookup
   * (the submit path knows).
   */
  enqueue(db: Db, form: Form, submission: StoredForDelivery, targets: readonly DeliveryTarget[], hasFiles?: boolean): Promise<void>;
  /** The jobs of a submission without files, to write with others in one statement (`enqueueDeliveries`). */
  jobs(form: Form, submission: StoredForDelivery, targets: readonly DeliveryTarget[]): NewDelivery[];
  /** After commit: deliver now rather than at the next poll. */
  poke(): void;
  list(submissionId: number): Promise<DeliveryRecord[]>;
  /** Queues one delivery again with fresh attempts; false when there is no such delivery. */
  resend(deliveryId: number): Promise<boolean>;
  /** A submission marked not spam: queue what it would have delivered, unless it already has jobs. */
  onMarkedNotSpam(submissionId: number): Promise<number>;
  /**
   * The same in the caller's transaction (the owner's change and its audit row commit with the
   * jobs, issue #15); the caller pokes after commit when this returns more than 0.
   */
  queueHeldBack(trx: Db, submissionId: number): Promise<number>;
  /** The same for many submissions in a few statements (a bulk "not spam", issue #35). */
  queueHeldBackMany(trx: Db, submissionIds: readonly number[]): Promise<number>;
  readonly worker: DeliveryWorker;
}

function payloadOf(form: Form, submission: StoredForDelivery, files: readonly UploadRow[], site: Site): DeliveryPayload {
  return {
    form: { id: form.id, uid: form.uid, handle: form.handle, name: form.name },
    submission: { id: submission.id, uid: submission.uid, title: submission.title, createdAt: submission.createdAt, status: submission.status },
    values: submission.values,
    ...(submission.payment ? { payment: submission.payment } : {}),
    files: files.map((f) => ({ id: f.publicId, field: f.fieldHandle, name: f.name, kind: f.kind, size: f.size })),
    // The language as it is now: a delivery never depends on later edits, the config included.
    site: { handle: site.handle, language: site.language },
  };
}

/** The site a submission names; one since removed from the config (or none) is the default. */
function siteOf(sites: SiteRegistry, handle: string | null | undefined): Site {
  return sites.list.find((site) => site.handle === handle) ?? sites.defaultSite;
}

export function createDeliveryService(deps: {
  db: Kysely<Database>;
  forms: FormRegistry;
  worker: DeliveryWorker;
  planner: PlannerOptions;
  sites: SiteRegistry;
  /** The form as a site's language reads it: a held-back submission is released in its site's words. */
  localize: (form: Form, language: string) => Form;
  /** Seals the jobs' payloads (issue #37 item 1). */
  sealer: Pick<ValueSealer, 'forNew' | 'forRow' | 'opener' | 'openJson'>;
  now: () => Date;
}): DeliveryService {
  const { db } = deps;
  const plan = (form: Form, values: Values) => planDeliveries(form, values, deps.planner);
  const jobsOf = (form: Form, submission: StoredForDelivery, targets: readonly DeliveryTarget[], files: readonly UploadRow[] = []): NewDelivery[] => {
    const payload = payloadOf(form, submission, files, siteOf(deps.sites, submission.site));
    const seal = submission.seal ?? deps.sealer.forNew();
    return targets.map((target) => ({ target, submissionId: submission.id, formId: form.id, payload, seal }));
  };
  const enqueue = async (trx: Db, form: Form, submission: StoredForDelivery, targets: readonly DeliveryTarget[], hasFiles = true) => {
    if (targets.length === 0) return;
    const files = submission.id === null || !hasFiles ? [] : await listForSubmissions(trx, [submission.id]);
    await enqueueDeliveries(trx, jobsOf(form, submission, targets, files), deps.now().toISOString());
  };
  /**
   * Held-back deliveries of many submissions at once (a bulk "not spam", issue #35): a few
   * statements per 500 submissions instead of a round of them per submission. A submission that
   * already has jobs gets none again.
   */
  const queueHeldBackMany = async (trx: Db, submissionIds: readonly number[]) => {
    let queued = 0;
    for (let start = 0; start < submissionIds.length; start += 500) {
      const part = submissionIds.slice(start, start + 500);
      const rows = await trx.selectFrom('svc_submissions').selectAll().where('id', 'in', part).execute();
      const existing = await trx.selectFrom('svc_deliveries').select('submission_id').where('submission_id', 'in', part).execute();
      const held = new Set(existing.map((r) => Number(r.submission_id)));
      const planned = rows.flatMap((row) => {
        const form = held.has(row.id) ? undefined : deps.forms.list().find((f) => f.id === row.form_id);
        // Values and title are sealed at rest (issue #37 item 1): opened with the row's own key.
        const opened = form ? openSubmissionColumns(deps.sealer, row) : null;
        const values = (opened && parseOpenedValues<Values>(opened)) ?? {};
        const targets = form ? plan(form, values) : [];
        return form && opened && targets.length > 0 ? [{ row, form, values, title: opened.title ?? '', targets }] : [];
      });
      if (planned.length === 0) continue;
      const files = await listForSubmissions(trx, planned.map((p) => p.row.id));
      const jobs = planned.flatMap(({ row, form, values, title, targets }) => {
        const site = siteOf(deps.sites, row.site);
        // The jobs' payloads under the submission's own key, so its erasure shreds them too.
        const seal = deps.sealer.forRow(row.data_key) ?? undefined;
        const stored = { id: row.id, uid: row.uid, title, status: row.status, createdAt: row.created_at, values, site: site.handle, ...(seal ? { seal } : {}) };
        queued += targets.length;
        return jobsOf(deps.localize(form, site.language), stored, targets, files.filter((f) => f.submissionId === row.id));
      });
      await enqueueDeliveries(trx, jobs, deps.now().toISOString());
    }
    return queued;
  };
  const queueHeldBack = (trx: Db, submissionId: number) => queueHeldBackMany(trx, [submissionId]);
  return {
    plan,
    enqueue,
    jobs: jobsOf,
    poke: () => deps.worker.poke(),
    list: (submissionId) => listDeliveries(db, submissionId, deps.sealer),
    async resend(deliveryId) {
      const done = await requeueDelivery(db, deliveryId, deps.now().toISOString());
      if (done) deps.worker.poke();
      return done;
    },
    async onMarkedNotSpam(submissionId) {
      const count = await db.transaction().execute((trx) => queueHeldBack(trx, submissionId));
      if (count > 0) deps.worker.poke();
      return count;
    },
    queueHeldBack,
    queueHeldBackMany,
    worker: deps.worker,
  };
}
