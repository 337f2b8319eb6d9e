/**
 * Retention (issue #5): the purge deletes submissions past their form's `purgeAfterDays` (else the
 * global `retention.purgeAfterDays`) and spam past `retention.spamPurgeAfterDays`, with their
 * files, in batches, on both dialects; nulls keep data forever.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describeEachDialect } from './support/dialects.js';
import type { TestApp } from './support/test-app.js';
import { createAdminTestApp, PNG, seed, submitWithFiles } from './support/admin-fixture.js';
import { purgeExpired } from '../src/storage/purge-job.js';

const NOW = Date.parse('2026-11-22T10:00:00Z');
const DAY = 86_400_000;
const ago = (days: number, extraMs = 0) => new Date(NOW - days * DAY - extraMs).toISOString();

describeEachDialect('retention', (target) => {
  describe('with a global limit of 30 days and spam kept 7 days', () => {
    let svc: TestApp;
    let clock = NOW;
    const remaining = async (handle: string) => {
      const form = svc.context.forms.get(handle);
      const rows = await svc.context.database.db.selectFrom('svc_submissions').select('title').where('form_id', '=', form?.id ?? -1).orderBy('id').execute();
      return rows.map((r) => r.title);
    };

    beforeAll(async () => {
      svc = await createAdminTestApp({
        url: target.url(),
        now: () => new Date(clock),
        config: { retention: { purgeAfterDays: 30, spamPurgeAfterDays: 7 } },
      });
    });
    afterAll(async () => {
      await svc?.close();
    });

    it('deletes by the form setting where there is one, else by the global one, and old spam everywhere', async () => {
      await seed(svc, 'keep', { title: 'keep 9d', createdAt: ago(9) });
      await seed(svc, 'keep', { title: 'keep 10d+1s', createdAt: ago(10, 1000) });
      await seed(svc, 'keep', { title: 'keep 40d', createdAt: ago(40) });
      await seed(svc, 'notes', { title: 'notes 29d', createdAt: ago(29) });
      await seed(svc, 'notes', { title: 'notes 31d', createdAt: ago(31) });
      await seed(svc, 'notes', { title: 'spam 6d', isSpam: true, createdAt: ago(6) });
      await seed(svc, 'notes', { title: 'spam 8d', isSpam: true, createdAt: ago(8) });
      await seed(svc, 'other', { title: 'other spam 20d', isSpam: true, createdAt: ago(20) });
      await seed(svc, 'other', { title: 'other 1d', createdAt: ago(1) });
      const report = await purgeExpired(svc.context);
      expect(report).toMatchObject({ submissions: 3, spam: 2 });
      expect(await remaining('keep')).toEqual(['keep 9d']);
      expect(await remaining('notes')).toEqual(['notes 29d', 'spam 6d']);
      expect(await remaining('other')).toEqual(['other 1d']);
      expect(await purgeExpired(svc.context)).toMatchObject({ submissions: 0, spam: 0 });
    });

    it('removes the files of purged submissions from the store', async () => {
      clock = NOW - 31 * DAY;
      const id = await submitWithFiles(svc, { name: 'old with file' }, [{ field: 'files[attachment][]', name: 'old.png', data: PNG }]);
      clock = NOW;
      const [file] = await svc.context.database.db.selectFrom('svc_files').select('storage_key').where('submission_id', '=', id).execute();
      const blob = join(svc.dataDir, 'files', ...(file?.storage_key ?? '').split('/'));
      expect(existsSync(blob)).toBe(true);
      expect(await purgeExpired(svc.context)).toMatchObject({ submissions: 1 });
      expect(existsSync(blob)).toBe(false);
      expect(await svc.context.database.db.selectFrom('svc_files').select('id').where('storage_key', '=', file?.storage_key ?? '').execute()).toEqual([]);
    });

    it('works through a backlog larger than one batch', async () => {
      for (let i = 0; i < 1_203; i++) await seed(svc, 'other', { title: `old ${i}`, createdAt: ago(60, i) });
      expect(await purgeExpired(svc.context)).toMatchObject({ submissions: 1_203 });
      expect(await remaining('other')).toEqual(['other 1d']);
    });

    it('releases files whose submission row is gone (a crash between the two deletes)', async () => {
      const id = await submitWithFiles(svc, { name: 'orphan' }, [{ field: 'files[attachment][]', name: 'orphan.png', data: PNG }]);
      const db = svc.context.database.db;
      const [file] = await db.selectFrom('svc_files').select('storage_key').where('submission_id', '=', id).execute();
      await db.deleteFrom('svc_submissions').where('id', '=', id).execute();
      await purgeExpired(svc.context);
      expect(existsSync(join(svc.dataDir, 'files', ...(file?.storage_key ?? '').split('/')))).toBe(false);
    });
  });

  describe('by default (no global limit, spam kept 30 days)', () => {
    let svc: TestApp;
    beforeAll(async () => {
      svc = await createAdminTestApp({ url: target.url(), now: () => new Date(NOW) });
    });
    afterAll(async () => {
      await svc?.close();
    });

    it('keeps submissions forever unless their form says otherwise', async () => {
      expect(svc.config.retention).toEqual({ purgeAfterDays: null, spamPurgeAfterDays: 30 });
      await seed(svc, 'notes', { title: 'ancient', createdAt: ago(3650) });
      await seed(svc, 'notes', { title: 'spam 29d', isSpam: true, createdAt: ago(29) });
      await seed(svc, 'notes', { title: 'spam 31d', isSpam: true, createdAt: ago(31) });
      await seed(svc, 'keep', { title: 'keep 11d', createdAt: ago(11) });
      expect(await purgeExpired(svc.context)).toMatchObject({ submissions: 1, spam: 1 });
      // On PostgreSQL the suites of one dialect share a database: look at this test's rows only.
      const mine = ['ancient', 'spam 29d', 'spam 31d', 'keep 11d'];
      const titles = (await svc.context.database.db.selectFrom('svc_submissions').select('title').where('title', 'in', mine).orderBy('id').execute()).map((r) => r.title);
      expect(titles).toEqual(['ancient', 'spam 29d']);
    });
  });
});
