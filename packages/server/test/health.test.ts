/**
 * Liveness and readiness (issue #16): `/healthz` answers while the process runs; `/readyz` says
 * whether this instance can serve forms (database migrated, forms loaded, Redis when configured,
 * a writable file store), with 503 and the failing part named, never its internals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.js';
import { S3RVER_CREDENTIALS } from './support/s3-server.js';

describe('health', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp();
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('/healthz and its older name /health answer 200 while the process runs, never cached', async () => {
    for (const url of ['/healthz', '/health']) {
      const res = await svc.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'ok', uptimeSeconds: expect.any(Number) });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('/readyz answers 200 when the database is migrated, forms are loaded and the store takes a write', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', forms: 'ok', files: 'ok' } });
  });

  it('/readyz answers 503 naming the database while a migration of this build has not run', async () => {
    const db = svc.context.database.db as unknown as import('kysely').Kysely<{ svc_migrations: { name: string } }>;
    const last = await db.selectFrom('svc_migrations').select('name').orderBy('name', 'desc').limit(1).executeTakeFirstOrThrow();
    await db.deleteFrom('svc_migrations').where('name', '=', last.name).execute();
    try {
      const res = await svc.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not_ready', checks: { database: 'failing', files: 'ok' } });
    } finally {
      await db.insertInto('svc_migrations').values({ name: last.name, timestamp: new Date().toISOString() } as never).execute();
    }
  });

  it('/readyz answers 503 naming Redis and the file store when they cannot be reached, and says no more', async () => {
    const down = await createTestApp({
      config: {
        redis: { url: 'redis://127.0.0.1:1' },
        files: { store: 's3', s3: { bucket: 'svc-health', endpoint: 'http://127.0.0.1:1', forcePathStyle: true, ...S3RVER_CREDENTIALS } },
      },
    });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'not_ready', checks: { database: 'ok', forms: 'ok', files: 'failing', redis: 'failing' } });
      expect(res.body).not.toContain('127.0.0.1');
      // Alive all the same: the process answers.
      expect((await down.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await down.close();
    }
  }, 20_000);
});
