/**
 * Liveness and readiness (issue #16): `/healthz` answers while the process runs; `/readyz` says
 * whether this instance can serve forms (database migrated, forms loaded, Redis when configured,
 * a writable file store), with 503 and the failing part named, never its internals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.js';
import { S3RVER_CREDENTIALS } from './support/s3-server.js';
import { sql } from 'kysely';
import { TABLE_GROUPS } from '../src/health/health-checks.js';

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

  it('/readyz probes every table the migrations make (a new table joins a group)', async () => {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name like 'svc!_%' escape '!'`.execute(svc.context.database.db);
    const probed = new Set(Object.values(TABLE_GROUPS).flat());
    // The migration runner's own bookkeeping is what the migration check reads.
    const made = rows.map((row) => row.name).filter((name) => !name.startsWith('svc_migrations'));
    expect(made.filter((name) => !probed.has(name))).toEqual([]);
  });

  it('/readyz answers 503 naming the database while a migration of this build has not run, reading the migration list at most every 30 s', async () => {
    let clock = Date.parse('2026-11-27T12:00:00Z');
    const timed = await createTestApp({ now: () => new Date(clock) });
    const db = timed.context.database.db as unknown as import('kysely').Kysely<{ svc_migrations: { name: string } }>;
    try {
      expect((await timed.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      const last = await db.selectFrom('svc_migrations').select('name').orderBy('name', 'desc').limit(1).executeTakeFirstOrThrow();
      await db.deleteFrom('svc_migrations').where('name', '=', last.name).execute();
      // Within the cache the list is not read again.
      expect((await timed.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      clock += 30_000;
      const res = await timed.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not_ready', checks: { database: 'failing', files: 'ok' } });
      // A database found behind is asked again at once.
      await db.insertInto('svc_migrations').values({ name: last.name, timestamp: new Date().toISOString() } as never).execute();
      expect((await timed.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await timed.close();
    }
  });

  it('/readyz answers 503 naming the database when a table svc uses does not answer (renamed away), and 200 once it is back', async () => {
    const db = svc.context.database.db;
    const { sql } = await import('kysely');
    await sql`alter table svc_submissions rename to svc_submissions_away`.execute(db);
    try {
      const res = await svc.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'not_ready', checks: { database: 'failing', forms: 'ok', files: 'ok' } });
      expect(res.body).not.toContain('svc_submissions');
    } finally {
      await sql`alter table svc_submissions_away rename to svc_submissions`.execute(db);
    }
    expect((await svc.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
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
  });
});
