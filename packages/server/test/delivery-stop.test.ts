/**
 * A delivery worker that is stopped (issue #16: shutdown) finishes the attempts it started, starts
 * no more, and hands the jobs it had claimed but not begun back at once: no lease left to expire,
 * no attempt counted, so another instance delivers them straight away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryWorker } from '../src/notifications/delivery-worker.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const PERSON = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hi' };
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;

describe('stopping a delivery worker', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({ config: { deliveries: { enabled: false } } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('finishes what it started, starts nothing more, and releases the rest for another worker at once', async () => {
    for (let i = 0; i < 10; i++) {
      const { token, cookie } = await svc.csrf();
      const res = await svc.app.inject({
        method: 'POST',
        url: '/svc/api/forms/contact/submit',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
        payload: JSON.stringify({ intent: 'submit', values: PERSON, meta: await svc.meta('contact') }),
      });
      expect(res.statusCode).toBe(200);
    }
    const db = svc.context.database.db;
    const options = { pollMs: 60_000, concurrency: 2, maxAttempts: 5, backoffSeconds: 1, leaseMs: 600_000 };
    const started: number[] = [];
    const slow = createDeliveryWorker({
      db,
      dialect: svc.context.database.dialect,
      handle: async (job) => {
        started.push(job.id);
        await new Promise((resolve) => setTimeout(resolve, 150));
        return 'ok';
      },
      options,
      sealer: svc.context.sealer,
      now: () => new Date(),
      log: quiet,
    });
    slow.start();
    await expect.poll(() => started.length).toBeGreaterThan(0);
    const before = Date.now();
    await slow.stop();
    // It waited for the two attempts in flight (150 ms), not for the twenty jobs it had claimed.
    expect(Date.now() - before).toBeLessThan(1500);
    const rows = await db.selectFrom('svc_deliveries').select(['id', 'status', 'attempts', 'locked_until']).execute();
    expect(rows).toHaveLength(20);
    const delivered = rows.filter((r) => r.status === 'delivered');
    expect(delivered.map((r) => r.id).sort()).toEqual([...started].sort());
    expect(delivered.length).toBeLessThan(20);
    for (const row of rows.filter((r) => r.status === 'pending')) expect([row.attempts, row.locked_until]).toEqual([0, null]);

    // Another worker takes the rest now, not when the first one's lease would have run out.
    const other = createDeliveryWorker({ db, dialect: svc.context.database.dialect, handle: async () => 'ok', options, sealer: svc.context.sealer, now: () => new Date(), log: quiet });
    expect(await other.drain()).toBe(20 - delivered.length);
    const after = await db.selectFrom('svc_deliveries').select('status').where('status', '!=', 'delivered').execute();
    expect(after).toEqual([]);
  });
});
