/**
 * The insights writer (issue #38) on each dialect: increments added up in memory, written as
 * upserts that add to what is stored (negative ones too), nothing before its window unless
 * flushed, everything pending on close, and a failed write kept for the next one.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { describeEachDialect } from '../../test/support/dialects.js';
import { createDatabase, type DatabaseHandle } from '../storage/database-factory.js';
import { migrateToLatest } from '../storage/migration-runner.js';
import { createWriteBatcher, type WriteBatcher } from '../storage/write-batcher.js';
import { createInsightsWriter } from './insights-writer.js';

const silent = { error: () => undefined } as unknown as FastifyBaseLogger;

describeEachDialect('the insights writer', (target) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = createDatabase({ url: target.url() ?? 'sqlite::memory:', dataDir: '.' });
    await migrateToLatest(handle);
  });
  afterAll(async () => {
    await handle?.close();
  });

  const counts = async (formId: number) =>
    Object.fromEntries(
      (await handle.db.selectFrom('svc_insight_counts').select(['kind', 'page', 'n']).where('form_id', '=', formId).execute()).map((r) => [`${r.kind}:${r.page}`, Number(r.n)]),
    );

  it('adds increments up in memory and writes them on close, adding to the stored counts', async () => {
    const writer = createInsightsWriter({ db: handle.db, writes: createWriteBatcher(handle.db, handle.dialect), log: silent, windowMs: 3_600_000 });
    writer.add('svc_insight_counts', [1, 500, 'default', 'view', -1]);
    writer.add('svc_insight_counts', [1, 500, 'default', 'view', -1], 2);
    writer.add('svc_insight_counts', [1, 500, 'default', 'at', 1]);
    writer.add('svc_insight_counts', [1, 500, 'default', 'at', 1], -1);
    expect(await counts(1)).toEqual({});
    await writer.flush();
    expect(await counts(1)).toEqual({ 'view:-1': 3 });
    writer.add('svc_insight_counts', [1, 500, 'default', 'view', -1], 4);
    writer.add('svc_insight_counts', [1, 500, 'default', 'at', 2], -1);
    await writer.close();
    expect(await counts(1)).toEqual({ 'view:-1': 7, 'at:2': -1 });
  });

  it('keeps the counts of a failed write for the next one', async () => {
    const real = createWriteBatcher(handle.db, handle.dialect);
    let failures = 1;
    const flaky: WriteBatcher = {
      run: (write) => (failures-- > 0 ? Promise.reject(new Error('database away')) : real.run(write)),
      combine: (kind, input) => real.combine(kind, input),
    };
    const writer = createInsightsWriter({ db: handle.db, writes: flaky, log: silent, windowMs: 3_600_000 });
    writer.add('svc_insight_counts', [2, 500, 'default', 'start', -1], 5);
    await writer.flush();
    expect(await counts(2)).toEqual({});
    writer.add('svc_insight_counts', [2, 500, 'default', 'start', -1]);
    await writer.close();
    expect(await counts(2)).toEqual({ 'start:-1': 6 });
  });
});
