/**
 * The audit log (issue #15): every write through the admin API (status and spam changes, deletes,
 * resends, exports, signed links) is appended with who, what, when and from where; owners read
 * it back for the forms they may see; nothing edits or removes an entry; no submitted value is in it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from './support/dialects.js';
import { adminGet, adminSend, createAdminTestApp, KEYS, seed } from './support/admin-fixture.js';
import type { TestApp } from './support/test-app.js';

describeEachDialect('audit log', (target) => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createAdminTestApp({ url: target.url() });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const entries = async (key: string = KEYS.admin, query = '') => {
    const res = await adminGet(svc, `/svc/api/admin/audit${query}`, key);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: Record<string, any>[]; meta: { nextCursor: string | null } }>();
  };

  it('appends status, spam and delete writes with the key, the change, the time and the address', async () => {
    const id = await seed(svc, 'notes', { title: 'Ann', values: { name: 'Ann Secret-Value', email: 'ann@example.test' }, createdAt: new Date().toISOString() });
    expect((await adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${id}`, { status: 'closed' })).statusCode).toBe(200);
    expect((await adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${id}`, { isSpam: true }, KEYS.notesWriter)).statusCode).toBe(200);
    expect((await adminSend(svc, 'DELETE', `/svc/api/admin/submissions/${id}`, undefined)).statusCode).toBe(200);
    const { data } = await entries();
    const mine = data.filter((e) => e.target === `submission:${id}`);
    expect(mine.map((e) => [e.action, e.actor])).toEqual([
      ['submission.delete', 'key:admin'],
      ['submission.update', 'key:notes-writer'],
      ['submission.update', 'key:admin'],
    ]);
    expect(mine[2]).toMatchObject({ form: 'notes', detail: { from: { status: 'open' }, to: { status: 'closed' } }, ip: '127.0.0.1', at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(mine[1]?.detail).toEqual({ from: { isSpam: false }, to: { isSpam: true } });
    expect(JSON.stringify(data)).not.toContain('Secret-Value');
  });

  it('records exports, and a refused write records nothing', async () => {
    const before = (await entries()).data.length;
    const id = await seed(svc, 'notes', { title: 'Bob', values: { name: 'Bob' }, createdAt: new Date().toISOString() });
    expect((await adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${id}`, { status: 'closed' }, KEYS.reader)).statusCode).toBe(403);
    expect((await adminGet(svc, '/svc/api/admin/forms/notes/export?format=csv&status=open')).statusCode).toBe(200);
    const { data } = await entries();
    expect(data.length).toBe(before + 1);
    expect(data[0]).toMatchObject({ action: 'export', form: 'notes', actor: 'key:admin', detail: { format: 'csv', filter: { status: 'open' } } });
  });

  it('shows a key only the entries of forms it may see, pages newest first, and offers no way to change an entry', async () => {
    const otherId = await seed(svc, 'other', { title: 'Elsewhere', values: { subject: 'x' }, createdAt: new Date().toISOString() });
    expect((await adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${otherId}`, { status: 'closed' })).statusCode).toBe(200);
    const otherOnly = await entries(KEYS.otherReader);
    expect(otherOnly.data.length).toBeGreaterThan(0);
    expect(otherOnly.data.every((e) => e.form === 'other')).toBe(true);
    const notesOnly = await entries(KEYS.notesWriter);
    expect(notesOnly.data.every((e) => e.form === 'notes')).toBe(true);

    const all = (await entries(KEYS.admin, '?limit=500')).data;
    const first = await entries(KEYS.admin, '?limit=2');
    expect(first.data.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    const second = await entries(KEYS.admin, `?limit=2&before=${first.meta.nextCursor}`);
    expect(second.data.map((e) => e.id)).toEqual(all.slice(2, 4).map((e) => e.id));

    expect((await adminGet(svc, '/svc/api/admin/audit?limit=0')).statusCode).toBe(400);
    const id = all[0]!.id;
    expect([404, 405]).toContain((await adminSend(svc, 'PATCH', `/svc/api/admin/audit/${id}`, { action: 'x' })).statusCode);
    expect([404, 405]).toContain((await adminSend(svc, 'DELETE', '/svc/api/admin/audit', undefined)).statusCode);
    expect((await entries(KEYS.admin, '?limit=500')).data).toEqual(all);
  });
});
