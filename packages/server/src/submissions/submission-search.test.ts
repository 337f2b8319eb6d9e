import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../storage/database-factory.js';
import { migrateToLatest } from '../storage/migration-runner.js';
import { insertSubmission } from './submission-repository.js';
import { searchSubmissions, type KeysetPosition, type SubmissionSort } from './submission-search.js';
import { testSealer } from '../../test/support/test-sealer.js';

describe('keyset pages of submissions', () => {
  let handle: DatabaseHandle;
  let formId: number;
  beforeAll(async () => {
    handle = createDatabase({ url: 'sqlite::memory:', dataDir: '.' });
    await migrateToLatest(handle);
    const form = await handle.db.insertInto('svc_forms').values({ uid: 'f', handle: 'f', hash: 'h', version: 'v', created_at: '', updated_at: '' }).returning('id').executeTakeFirstOrThrow();
    formId = Number(form.id);
    // Several submissions share a createdAt (same millisecond): pages must neither skip nor repeat them.
    const times = ['2026-01-01T00:00:03.000Z', '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z', '2026-01-01T00:00:02.000Z', '2026-01-01T00:00:02.000Z', '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:04.000Z'];
    for (const [i, createdAt] of times.entries()) {
      await insertSubmission(handle.db, { uid: `u${i}`, formId, tokenHash: `t${i}`, title: `s${i}`, status: 'open', isSpam: false, spamReasons: [], ip: null, values: {}, createdAt });
    }
  });
  afterAll(async () => {
    await handle?.close();
  });

  async function walk(sort: SubmissionSort, size: number): Promise<string[]> {
    const seen: string[] = [];
    let after: KeysetPosition | null = null;
    for (;;) {
      const page = await searchSubmissions({ db: handle.db, sealer: testSealer() }, formId, { spam: null }, sort, size, after);
      seen.push(...page.map((s) => s.title));
      if (page.length < size) return seen;
      const last = page[page.length - 1] as (typeof page)[number];
      after = { createdAt: last.createdAt, id: last.id };
    }
  }

  it('walks by createdAt then id, both ways, whatever the page size', async () => {
    const all = await searchSubmissions({ db: handle.db, sealer: testSealer() }, formId, { spam: null }, { key: 'createdAt', direction: 'asc' }, 100, null);
    const ascending = [...all].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id).map((s) => s.title);
    expect(ascending).toEqual(['s1', 's5', 's2', 's3', 's4', 's0', 's6']);
    for (const size of [1, 2, 3]) {
      expect(await walk({ key: 'createdAt', direction: 'asc' }, size)).toEqual(ascending);
      expect(await walk({ key: 'createdAt', direction: 'desc' }, size)).toEqual([...ascending].reverse());
    }
  });
});
