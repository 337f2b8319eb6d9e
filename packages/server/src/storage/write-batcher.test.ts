import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { Database } from './database-schema.js';
import { describeEachDialect } from '../../test/support/dialects.js';
import { createDatabase, type DatabaseHandle } from './database-factory.js';
import { migrateToLatest } from './migration-runner.js';
import { createWriteBatcher, type CombinedWrite } from './write-batcher.js';

describeEachDialect('the write batcher', (target) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = createDatabase({ url: target.url() ?? 'sqlite::memory:', dataDir: '.' });
    await migrateToLatest(handle);
  });
  afterAll(async () => {
    await handle?.close();
  });

  const insertForm = (handleName: string) => (trx: Parameters<Parameters<ReturnType<typeof createWriteBatcher>['run']>[0]>[0]) =>
    trx
      .insertInto('svc_forms')
      .values({ uid: handleName, handle: handleName, hash: 'h', version: 'v', created_at: '', updated_at: '' })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.id));

  /** A batcher over a database that counts the transactions the batcher opens. */
  function countingBatcher() {
    let opened = 0;
    const counting = new Proxy(handle.db, {
      get(target, property) {
        if (property === 'transaction') opened += 1;
        const value: unknown = Reflect.get(target, property);
        // Kysely keeps private fields: its methods must run on the real object.
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return { batcher: createWriteBatcher(counting, handle.dialect), transactions: () => opened };
  }

  it('gives each concurrent write its own result, and shares transactions among writes that wait', async () => {
    const { batcher, transactions } = countingBatcher();
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => batcher.run(insertForm(`batch-${i}`))));
    expect(new Set(ids).size).toBe(20);
    const rows = await sql<{ handle: string; id: number }>`select handle, id from svc_forms where handle like 'batch-%'`.execute(handle.db);
    const byHandle = new Map(rows.rows.map((r) => [r.handle, Number(r.id)]));
    ids.forEach((id, i) => expect(byHandle.get(`batch-${i}`)).toBe(id));
    // Writes that arrive in one turn of the event loop share one transaction.
    expect(transactions()).toBe(1);
  });

  it('shares a transaction among writes from separate callbacks of one turn, as requests arrive', async () => {
    const { batcher, transactions } = countingBatcher();
    // Each immediate callback is its own macrotask with microtasks drained after it, like each
    // request's socket callback, and all ten run in one turn (timers of 0 ms could straddle a
    // millisecond and fire in two turns on a busy machine). better-sqlite3 answers synchronously,
    // so a batcher that started at once would have committed each write before the next ran.
    const ids = await Promise.all(
      Array.from({ length: 10 }, (_, i) => new Promise<number>((resolve, reject) => setImmediate(() => batcher.run(insertForm(`turn-${i}`)).then(resolve, reject)))),
    );
    expect(new Set(ids).size).toBe(10);
    expect(transactions()).toBe(1);
  });

  it('keeps the other writes of a failed shared transaction, and fails only the one that threw', async () => {
    const batcher = createWriteBatcher(handle.db, handle.dialect);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        batcher.run(async (trx) => {
          const id = await insertForm(`mixed-${i}`)(trx);
          if (i === 5) throw new Error('this one fails');
          return id;
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const rows = await sql<{ handle: string }>`select handle from svc_forms where handle like 'mixed-%' order by handle`.execute(handle.db);
    expect(rows.rows.map((r) => r.handle)).toEqual(['mixed-0', 'mixed-1', 'mixed-2', 'mixed-3', 'mixed-4', 'mixed-6', 'mixed-7']);
  });

  /** Form rows in one multi-row INSERT; their ids in the order of `handles`. */
  async function insertForms(db: Kysely<Database>, handles: readonly string[]): Promise<number[]> {
    const rows = await db
      .insertInto('svc_forms')
      .values(handles.map((h) => ({ uid: h, handle: h, hash: 'h', version: 'v', created_at: '', updated_at: '' })))
      .returning(['id', 'handle'])
      .execute();
    const byHandle = new Map(rows.map((r) => [r.handle, Number(r.id)]));
    return handles.map((h) => byHandle.get(h) as number);
  }

  /** A combined write of form rows: one multi-row INSERT per call, its calls and sizes counted. */
  function formInserts() {
    const calls: number[] = [];
    const kind: CombinedWrite<string, number> = {
      async runMany(trx, handles) {
        calls.push(handles.length);
        if (handles.includes('poison')) throw new Error('a bad input');
        return insertForms(trx, handles);
      },
    };
    return { kind, calls };
  }

  it('runs the combined writes of one batch as one call, beside its own writes, and answers each caller its own result', async () => {
    const { batcher, transactions } = countingBatcher();
    const { kind, calls } = formInserts();
    const combined = Array.from({ length: 12 }, (_, i) => batcher.combine(kind, `combined-${i}`));
    const own = batcher.run(insertForm('combined-own'));
    const ids = await Promise.all(combined);
    await own;
    expect(calls).toEqual([12]);
    expect(transactions()).toBe(1);
    const rows = await sql<{ handle: string; id: number }>`select handle, id from svc_forms where handle like 'combined-%'`.execute(handle.db);
    const byHandle = new Map(rows.rows.map((r) => [r.handle, Number(r.id)]));
    ids.forEach((id, i) => expect(byHandle.get(`combined-${i}`)).toBe(id));
    expect(byHandle.has('combined-own')).toBe(true);
  });

  it('runs each input of a failed combined call again alone, so only the bad one fails', async () => {
    const batcher = createWriteBatcher(handle.db, handle.dialect);
    const { kind, calls } = formInserts();
    const outcomes = await Promise.allSettled(['alone-0', 'alone-1', 'poison', 'alone-3'].map((h) => batcher.combine(kind, h)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    // One shared call that failed, then one call per input.
    expect(calls).toEqual([4, 1, 1, 1, 1]);
    const rows = await sql<{ handle: string }>`select handle from svc_forms where handle like 'alone-%' order by handle`.execute(handle.db);
    expect(rows.rows.map((r) => r.handle)).toEqual(['alone-0', 'alone-1', 'alone-3']);
  });

  it('runs a batch of one kind as its single statement on PostgreSQL (no transaction), and in a transaction otherwise', async () => {
    const { batcher, transactions } = countingBatcher();
    const statements: number[] = [];
    const kind: CombinedWrite<string, number> = {
      runMany: insertForms,
      runStatement(db, handles) {
        statements.push(handles.length);
        return insertForms(db, handles);
      },
    };
    const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => batcher.combine(kind, `statement-${i}`)));
    expect(new Set(ids).size).toBe(6);
    const postgres = handle.dialect === 'postgres';
    expect(statements).toEqual(postgres ? [6] : []);
    expect(transactions()).toBe(postgres ? 0 : 1);
    // A batch that mixes kinds needs the transaction, statement form or not.
    const mixed = await Promise.all([batcher.combine(kind, 'statement-mixed'), batcher.run(insertForm('statement-own'))]);
    expect(new Set(mixed).size).toBe(2);
    expect(statements).toEqual(postgres ? [6] : []);
    expect(transactions()).toBe(postgres ? 1 : 2);
    const rows = await sql<{ handle: string }>`select handle from svc_forms where handle like 'statement-%'`.execute(handle.db);
    expect(rows.rows).toHaveLength(8);
  });

  it('runs again a transaction PostgreSQL ended as one side of a deadlock, so both writes commit', async () => {
    if (handle.dialect !== 'postgres') return;
    const batcher = createWriteBatcher(handle.db, handle.dialect);
    const [x, y] = [await batcher.run(insertForm('deadlock-x')), await batcher.run(insertForm('deadlock-y'))];
    const touch = (trx: Parameters<Parameters<typeof batcher.run>[0]>[0], id: number) => trx.updateTable('svc_forms').set({ version: sql`version || '.'` }).where('id', '=', id).execute();
    let firstHolds!: () => void;
    const firstHoldsX = new Promise<void>((resolve) => (firstHolds = resolve));
    let secondHolds!: () => void;
    const secondHoldsY = new Promise<void>((resolve) => (secondHolds = resolve));
    // Each takes one row and then wants the other's: PostgreSQL ends one of them (after its deadlock_timeout).
    const first = batcher.run(async (trx) => {
      await touch(trx, x);
      firstHolds();
      await secondHoldsY;
      await touch(trx, y);
      return 'first';
    });
    await firstHoldsX;
    const second = batcher.run(async (trx) => {
      await touch(trx, y);
      secondHolds();
      await touch(trx, x);
      return 'second';
    });
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
  });
});
