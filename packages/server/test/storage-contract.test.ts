/**
 * The storage contract, written once and run on every dialect: SQLite always, PostgreSQL when
 * SVC_TEST_POSTGRES_URL is set (and required under SVC_TEST_REQUIRE_ALL=1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, type DatabaseHandle } from '../src/storage/database-factory.js';
import { migrateToLatest } from '../src/storage/migration-runner.js';
import { syncFormIdentity } from '../src/forms/form-identity-repository.js';
import { countSubmissions, findSubmission, insertSubmission } from '../src/submissions/submission-repository.js';
import { describeWithService, postgresUrl } from './support/service-requirements.js';
import { createScratchDatabase, type ScratchDatabase } from './support/postgres-database.js';
import { testSealer } from './support/test-sealer.js';

const NOW = '2026-11-22T10:00:00.000Z';

function storageContract(open: () => Promise<{ handle: DatabaseHandle; cleanup: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ handle, cleanup } = await open());
    await migrateToLatest(handle);
  });
  afterAll(async () => {
    await handle.close();
    await cleanup();
  });

  it('applies migrations once; a second run has nothing to do', async () => {
    expect(await migrateToLatest(handle)).toEqual([]);
  });

  it('assigns form and field identities once and returns the same ones on every later sync', async () => {
    const first = await syncFormIdentity(handle.db, { handle: 'stable', version: 'v1', fieldKeys: ['a', 'b', 'submit@0'] }, NOW);
    const again = await syncFormIdentity(handle.db, { handle: 'stable', version: 'v2', fieldKeys: ['b', 'a', 'submit@0'] }, NOW);
    expect(again.id).toBe(first.id);
    expect(again.uid).toBe(first.uid);
    expect(again.hash).toBe(first.hash);
    for (const key of ['a', 'b', 'submit@0']) expect(again.fields.get(key)).toEqual(first.fields.get(key));
  });

  it('gives a new field a new id and keeps the old ones', async () => {
    const before = await syncFormIdentity(handle.db, { handle: 'growing', version: 'v1', fieldKeys: ['a'] }, NOW);
    const after = await syncFormIdentity(handle.db, { handle: 'growing', version: 'v2', fieldKeys: ['a', 'c'] }, NOW);
    expect(after.fields.get('a')).toEqual(before.fields.get('a'));
    expect(after.fields.get('c')?.id).toBeGreaterThan(before.fields.get('a')?.id ?? 0);
  });

  it('keeps identity across a handle rename when the definition carries its uid', async () => {
    const uid = '7d7b8f52-6a43-4c55-9d51-0f3a1c2b9e10';
    const original = await syncFormIdentity(handle.db, { handle: 'old-name', uid, version: 'v1', fieldKeys: ['x'] }, NOW);
    const renamed = await syncFormIdentity(handle.db, { handle: 'new-name', uid, version: 'v1', fieldKeys: ['x'] }, NOW);
    expect(renamed.id).toBe(original.id);
    expect(renamed.fields.get('x')).toEqual(original.fields.get('x'));
  });

  it('survives two instances registering the same new form at once', async () => {
    const request = { handle: 'raced', version: 'v1', fieldKeys: ['a', 'b'] };
    const [left, right] = await Promise.all([syncFormIdentity(handle.db, request, NOW), syncFormIdentity(handle.db, request, NOW)]);
    expect(left.id).toBe(right.id);
    expect(left.fields.get('a')).toEqual(right.fields.get('a'));
  });

  it('stores a submission with its values, spam flags, ip and dates, and reads it back', async () => {
    const form = await syncFormIdentity(handle.db, { handle: 'stored', version: 'v1', fieldKeys: ['email'] }, NOW);
    const values = { email: 'ann@example.test', tags: ['a', 'b'], n: '12.5', agree: 'yes', empty: null, table: [['x', true, null]] };
    const id = await insertSubmission(handle.db, {
      uid: '0b8f1c9e-1111-4c55-9d51-0f3a1c2b9e10',
      formId: form.id,
      tokenHash: 'f'.repeat(64),
      title: 'Ann',
      status: 'open',
      isSpam: true,
      spamReasons: ['honeypot'],
      ip: '203.0.113.9',
      values,
      createdAt: NOW,
    });
    const stored = await findSubmission(handle.db, id, testSealer());
    expect(stored).toMatchObject({ id, formId: form.id, title: 'Ann', status: 'open', isSpam: true, spamReasons: ['honeypot'], ip: '203.0.113.9', values, finished: true, createdAt: NOW, updatedAt: NOW });
    expect(await countSubmissions(handle.db, form.id)).toBe(1);
  });

  it('keeps unicode and quotes in values intact', async () => {
    const form = await syncFormIdentity(handle.db, { handle: 'unicode', version: 'v1', fieldKeys: ['m'] }, NOW);
    const values = { m: `Grüße "quoted" 'single' \\ 😀 ; DROP TABLE svc_forms; --` };
    const id = await insertSubmission(handle.db, { uid: 'u-unicode', formId: form.id, tokenHash: 'a', title: 't', status: 'open', isSpam: false, spamReasons: [], ip: null, values, createdAt: NOW });
    expect((await findSubmission(handle.db, id, testSealer()))?.values).toEqual(values);
  });
}

describe('storage on SQLite', () => {
  storageContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-storage-'));
    return { handle: createDatabase({ url: null, dataDir: dir }), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  });
});

describeWithService('storage on PostgreSQL', postgresUrl(), 'SVC_TEST_POSTGRES_URL is not set', (url) => {
  let scratch: ScratchDatabase;
  storageContract(async () => {
    scratch = await createScratchDatabase(url);
    return { handle: createDatabase({ url: scratch.url, dataDir: tmpdir() }), cleanup: () => scratch.drop() };
  });
});
