import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithService, postgresUrl } from '../../test/support/service-requirements.js';
import { createScratchDatabase, type ScratchDatabase } from '../../test/support/postgres-database.js';
import { createDatabase, type DatabaseHandle } from '../storage/database-factory.js';
import { migrateToLatest } from '../storage/migration-runner.js';
import { timeOrderedUuid } from '../security/token-crypto.js';
import { claimDue, type NewDelivery } from '../notifications/outbox-repository.js';
import type { DeliveryPayload } from '../notifications/delivery-model.js';
import { insertSubmissionBatch, type BatchSubmission } from './submission-batch-statement.js';
import { createValueSealer } from '../privacy/privacy-sealer.js';
import { createKeyring } from '../privacy/privacy-keyring.js';

describeWithService('one statement for a batch of submissions and their jobs (PostgreSQL)', postgresUrl(), 'SVC_TEST_POSTGRES_URL is not set', (adminUrl) => {
  let scratch: ScratchDatabase;
  let handle: DatabaseHandle;
  let formId: number;
  const now = '2026-11-26T12:00:00.000Z';
  const sealer = createValueSealer(createKeyring([{ id: 'k1', key: Buffer.alloc(32, 7) }], 'k1'));

  beforeAll(async () => {
    scratch = await createScratchDatabase(adminUrl);
    handle = createDatabase({ url: scratch.url, dataDir: '.' });
    await migrateToLatest(handle);
    const form = await handle.db
      .insertInto('svc_forms')
      .values({ uid: 'f', handle: 'contact', hash: 'h', version: 'v', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    formId = Number(form.id);
  });
  afterAll(async () => {
    await handle?.close();
    await scratch?.drop();
  });

  function submission(title: string, targets: number, form = formId): BatchSubmission {
    const uid = timeOrderedUuid();
    const payload: DeliveryPayload = {
      form: { id: form, uid: 'f', handle: 'contact', name: 'Contact' },
      submission: { id: null, uid, title, createdAt: now, status: 'open' },
      values: { firstName: title },
      files: [],
    };
    const seal = sealer.forNew();
    const jobs: NewDelivery[] = Array.from({ length: targets }, (_, i) => ({
      target: { kind: 'webhook', url: `https://hooks.example.test/${title}/${i}` },
      submissionId: null,
      formId: form,
      payload,
      seal,
    }));
    const row = { uid, formId: form, tokenHash: `hash-${title}`, title, status: 'open', isSpam: false, spamReasons: [], ip: null, values: { firstName: title }, createdAt: now };
    return { row, jobs };
  }

  it('stores every row and job, answers the ids in order, and the outbox hands each job its submission id', async () => {
    const batch = [submission('two-jobs', 2), submission('no-jobs', 0), submission('one-job', 1)];
    const ids = await insertSubmissionBatch(handle.db, batch, now);
    expect(new Set(ids).size).toBe(3);
    const rows = await handle.db.selectFrom('svc_submissions').select(['id', 'uid', 'title']).where('id', 'in', ids).execute();
    expect(new Map(rows.map((r) => [r.uid, Number(r.id)]))).toEqual(new Map(batch.map((b, i) => [b.row.uid, ids[i]])));
    const { jobs } = await claimDue(handle.db, 'postgres', 10, now, '2026-11-26T13:00:00.000Z', sealer);
    expect(jobs).toHaveLength(3);
    for (const job of jobs) {
      const title = (job.target as { url: string }).url.split('/')[3] as string;
      const id = ids[batch.findIndex((b) => b.row.title === title)];
      expect(job.submissionId).toBe(id);
      // Written without it, read with it: the payload's id comes from the job's column.
      expect(job.payload.submission.id).toBe(id);
      expect(job.payload.submission.title).toBe(title);
      expect(job.formId).toBe(formId);
      expect(job.attempts).toBe(1);
    }
  });

  it('stores nothing of a batch when one of its rows is refused: the statement is atomic by itself', async () => {
    const batch = [submission('kept-out-1', 1), submission('bad-form', 1, 999_999), submission('kept-out-2', 2)];
    // Targets are sealed (issue #37): the jobs are counted, not looked up by their URL.
    const jobsBefore = await handle.db.selectFrom('svc_deliveries').select('id').execute();
    await expect(insertSubmissionBatch(handle.db, batch, now)).rejects.toThrow();
    const rows = await handle.db.selectFrom('svc_submissions').select('id').where('title', 'like', 'kept-out-%').execute();
    expect(rows).toEqual([]);
    const jobs = await handle.db.selectFrom('svc_deliveries').select('id').execute();
    expect(jobs).toEqual(jobsBefore);
  });
});
