/**
 * An owner's write and its audit entry commit together (issue #15), through the admin API and the
 * console alike: when the entry cannot be written the change rolls back, and when the change
 * fails no entry is left. The failures are made by the database itself (a trigger that refuses),
 * so what is proven is the transaction, on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../src/console/console-passwords.js';
import { describeEachDialect } from './support/dialects.js';
import { ADMIN_KEYS_CONFIG, adminSend, createAdminTestApp, KEYS, seed } from './support/admin-fixture.js';
import type { TestApp } from './support/test-app.js';

const PASSWORD = 'audit transaction password 9';

function cookieValue(res: LightMyRequestResponse, name: string): string {
  const raw = res.headers['set-cookie'];
  const found = (Array.isArray(raw) ? raw : raw ? [raw] : []).find((c) => c.startsWith(`${name}=`)) ?? '';
  return found.split(';')[0]?.slice(name.length + 1) ?? '';
}

describeEachDialect('audit entries in the transaction of the write', (target) => {
  let svc: TestApp;
  let session: string;
  beforeAll(async () => {
    svc = await createAdminTestApp({
      url: target.url(),
      // No worker: a resent delivery stays pending where the test can see it.
      config: { deliveries: { enabled: false }, admin: { keys: ADMIN_KEYS_CONFIG, users: [{ username: 'lee', passwordHash: await hashPassword(PASSWORD), scopes: ['read', 'write'], forms: ['*'] }] } },
    });
    const page = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const signed = await svc.app.inject({
      method: 'POST',
      url: '/svc/console/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_console_pre=${cookieValue(page, 'svc_console_pre')}` },
      payload: new URLSearchParams({ csrf, username: 'lee', password: PASSWORD }).toString(),
    });
    session = `svc_console=${cookieValue(signed, 'svc_console')}`;
  });
  afterAll(async () => {
    await svc?.close();
  });

  const db = () => svc.context.database.db;
  const postgres = () => svc.context.database.dialect === 'postgres';

  /** Runs `write` while the database refuses `event` on `table` (a trigger raising an error). */
  async function refusing<T>(table: 'svc_audit_log' | 'svc_submissions', event: 'INSERT' | 'UPDATE' | 'DELETE', write: () => Promise<T>): Promise<T> {
    if (postgres()) {
      await sql`CREATE OR REPLACE FUNCTION svc_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`.execute(db());
      await sql.raw(`CREATE TRIGGER svc_test_refuse BEFORE ${event} ON ${table} FOR EACH ROW EXECUTE FUNCTION svc_test_refuse()`).execute(db());
    } else {
      await sql.raw(`CREATE TRIGGER svc_test_refuse BEFORE ${event} ON ${table} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`).execute(db());
    }
    try {
      return await write();
    } finally {
      await sql.raw(postgres() ? `DROP TRIGGER svc_test_refuse ON ${table}` : 'DROP TRIGGER svc_test_refuse').execute(db());
    }
  }

  const entriesFor = async (target: string) => db().selectFrom('svc_audit_log').select(['action', 'actor']).where('target', '=', target).execute();
  const statusOf = async (id: number) => (await db().selectFrom('svc_submissions').select('status').where('id', '=', id).executeTakeFirst())?.status ?? null;
  const fresh = () => seed(svc, 'notes', { title: 'Ann', values: { name: 'Ann' }, createdAt: new Date().toISOString() });
  const consolePost = async (url: string, fields: Record<string, string>) => {
    const page = await svc.app.inject({ method: 'GET', url: '/svc/console/', headers: { cookie: session } });
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    return svc.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: session }, payload: new URLSearchParams({ csrf, ...fields }).toString() });
  };
  const resend = (delivery: number) => svc.app.inject({ method: 'POST', url: `/svc/api/admin/deliveries/${delivery}/resend`, headers: { authorization: `Bearer ${KEYS.admin}` } });
  async function deadDelivery(submissionId: number): Promise<number> {
    const form = svc.context.forms.get('notes')!;
    const at = new Date().toISOString();
    const row = await db()
      .insertInto('svc_deliveries')
      .values({ uid: randomUUID(), submission_id: submissionId, form_id: form.id, kind: 'webhook', target: '{}', payload: '{}', status: 'dead', attempts: 5, next_attempt_at: at, locked_until: null, last_error: 'gone', created_at: at, updated_at: at, delivered_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('commits a status change and its entry together, through the API and the console', async () => {
    const id = await fresh();
    expect((await adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${id}`, { status: 'closed' })).statusCode).toBe(200);
    expect((await consolePost(`/svc/console/submissions/${id}`, { status: 'pending' })).statusCode).toBe(303);
    expect(await statusOf(id)).toBe('pending');
    expect(await entriesFor(`submission:${id}`)).toEqual([
      { action: 'submission.update', actor: 'key:admin' },
      { action: 'submission.update', actor: 'user:lee' },
    ]);
  });

  it('rolls a status change back when its entry cannot be written (API and console)', async () => {
    const id = await fresh();
    const [api, page] = await refusing('svc_audit_log', 'INSERT', async () => [
      await adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${id}`, { status: 'closed', isSpam: true }),
      await consolePost(`/svc/console/submissions/${id}`, { status: 'closed' }),
    ]);
    expect([api?.statusCode, page?.statusCode]).toEqual([500, 500]);
    expect(await db().selectFrom('svc_submissions').select(['status', 'is_spam']).where('id', '=', id).executeTakeFirst()).toEqual({ status: 'open', is_spam: 0 });
    expect(await entriesFor(`submission:${id}`)).toEqual([]);
  });

  it('leaves no entry for a status change the database refused', async () => {
    const id = await fresh();
    const res = await refusing('svc_submissions', 'UPDATE', () => adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${id}`, { status: 'closed' }));
    expect(res.statusCode).toBe(500);
    expect(await statusOf(id)).toBe('open');
    expect(await entriesFor(`submission:${id}`)).toEqual([]);
  });

  it('keeps a submission and its deliveries when the delete cannot be audited, and audits none that failed', async () => {
    const id = await fresh();
    const delivery = await deadDelivery(id);
    const [api, page] = await refusing('svc_audit_log', 'INSERT', async () => [
      await adminSend(svc, 'DELETE', `/svc/api/admin/submissions/${id}`, undefined),
      await consolePost(`/svc/console/submissions/${id}/delete`, { confirm: 'yes' }),
    ]);
    expect([api?.statusCode, page?.statusCode]).toEqual([500, 500]);
    expect(await statusOf(id)).toBe('open');
    expect(await db().selectFrom('svc_deliveries').select('id').where('id', '=', delivery).executeTakeFirst()).toEqual({ id: delivery });
    const refused = await refusing('svc_submissions', 'DELETE', () => adminSend(svc, 'DELETE', `/svc/api/admin/submissions/${id}`, undefined));
    expect(refused.statusCode).toBe(500);
    expect(await entriesFor(`submission:${id}`)).toEqual([]);
    expect((await consolePost(`/svc/console/submissions/${id}/delete`, { confirm: 'yes' })).statusCode).toBe(303);
    expect(await statusOf(id)).toBeNull();
    expect(await entriesFor(`submission:${id}`)).toEqual([{ action: 'submission.delete', actor: 'user:lee' }]);
  });

  it('does not requeue a delivery whose resend cannot be audited', async () => {
    const delivery = await deadDelivery(await fresh());
    const [api, page] = await refusing('svc_audit_log', 'INSERT', async () => [
      await resend(delivery),
      await consolePost(`/svc/console/deliveries/${delivery}/resend`, {}),
    ]);
    expect([api?.statusCode, page?.statusCode]).toEqual([500, 500]);
    const statusOfDelivery = async () => (await db().selectFrom('svc_deliveries').select('status').where('id', '=', delivery).executeTakeFirstOrThrow()).status;
    expect(await statusOfDelivery()).toBe('dead');
    expect(await entriesFor(`delivery:${delivery}`)).toEqual([]);
    expect((await resend(delivery)).statusCode).toBe(200);
    expect(await statusOfDelivery()).toBe('pending');
    expect(await entriesFor(`delivery:${delivery}`)).toEqual([{ action: 'delivery.resend', actor: 'key:admin' }]);
  });

  it('sends no export and signs nobody in when the entry cannot be written', async () => {
    const [exported, signIn] = await refusing('svc_audit_log', 'INSERT', async () => {
      const page = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
      return [
        await svc.app.inject({ method: 'GET', url: '/svc/console/forms/notes/export?format=jsonl', headers: { cookie: session } }),
        await svc.app.inject({
          method: 'POST',
          url: '/svc/console/sign-in',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_console_pre=${cookieValue(page, 'svc_console_pre')}` },
          payload: new URLSearchParams({ csrf, username: 'lee', password: PASSWORD }).toString(),
        }),
      ];
    });
    expect([exported?.statusCode, signIn?.statusCode]).toEqual([500, 500]);
    expect(exported?.body).not.toContain('"name":"Ann"');
    expect(cookieValue(signIn as LightMyRequestResponse, 'svc_console')).toBe('');
  });
});
