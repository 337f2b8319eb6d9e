/**
 * Editing a stored submission through the admin API (issue #35 item 2), on both dialects: only the
 * handles given change, judged by the form's own rules (422 with the submit's field errors), a
 * field the rules hide cannot be set and loses its value when the edit hides it, files and
 * signatures stay as sent, and each edit adds one to the revision and writes the old and new
 * values into the audit log in its transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDialect } from './support/dialects.js';
import type { TestApp } from './support/test-app.js';
import { adminGet, adminSend, createAdminTestApp, KEYS, seed } from './support/admin-fixture.js';

const EDIT_FORMS = resolve(import.meta.dirname, 'fixtures/edit-forms');
const json = (res: LightMyRequestResponse) => res.json() as { success: boolean; code?: string; data: Record<string, unknown>; errors?: { fields: Record<string, string[]>; form: string[] } };

async function createEditTestApp(url: string | null): Promise<TestApp> {
  return createAdminTestApp({
    url,
    config: {
      forms: { dir: EDIT_FORMS, watch: false },
      headless: { forms: { edit: { exposeManifest: true, allowSubmit: true } } },
    },
  });
}

describeEachDialect('admin edit of values', (target) => {
  let svc: TestApp;
  const day = '2026-11-20T09:00:00.000Z';
  const patch = (id: number, body: unknown, key: string = KEYS.admin) => adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${id}`, body, key);
  const stored = async (id: number) => json(await adminGet(svc, `/svc/api/admin/submissions/${id}`)).data;
  const audit = async () => (json(await adminGet(svc, '/svc/api/admin/audit?limit=5')).data as unknown as { action: string; target: string; actor: string; detail: Record<string, unknown> }[]);

  beforeAll(async () => {
    svc = await createEditTestApp(target.url());
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('changes only the handles given, counts the revision, renews the title and audits old and new values', async () => {
    const id = await seed(svc, 'edit', { title: 'Ann', values: { name: 'Ann', email: 'ann@example.test', drinks: ['coffee'], cups: '2', message: 'hello' }, createdAt: day });
    expect((await stored(id))['revision']).toBe(0);
    const res = await patch(id, { values: { name: 'Ann Lee', cups: '3' } });
    expect(res.statusCode, res.body).toBe(200);
    const data = json(res).data;
    expect(data['values']).toEqual({ name: 'Ann Lee', email: 'ann@example.test', drinks: ['coffee'], cups: '3', message: 'hello' });
    expect(data['revision']).toBe(1);
    expect(data['title']).toBe('Ann Lee');
    const [entry] = await audit();
    expect(entry).toMatchObject({ action: 'submission.edit', target: `submission:${id}`, actor: 'key:admin', detail: { revision: 1, from: { name: 'Ann', cups: '2' }, to: { name: 'Ann Lee', cups: '3' } } });
    expect((await patch(id, { values: { message: 'second' } })).statusCode).toBe(200);
    expect((await stored(id))['revision']).toBe(2);
  });

  it('answers an invalid value with 422 VALUES_INVALID and the field errors a submit gives, changing nothing', async () => {
    const id = await seed(svc, 'edit', { title: 'Bob', values: { name: 'Bob', email: 'bob@example.test', cups: '1' }, createdAt: day });
    const res = await patch(id, { values: { email: 'not an address', cups: '11', name: '' } });
    expect(res.statusCode, res.body).toBe(422);
    const body = json(res);
    expect(body).toMatchObject({ success: false, code: 'VALUES_INVALID' });
    expect(Object.keys(body.errors?.fields ?? {}).sort()).toEqual(['cups', 'email', 'name']);
    expect(body.errors?.form).toEqual([]);
    // The same words the submit answers for the same values.
    const submitted = await svc.submit('edit', { intent: 'submit', values: { name: '', email: 'not an address', cups: '11' } });
    expect(submitted.statusCode).toBe(422);
    expect((submitted.json() as { errors: { fields: Record<string, string[]> } }).errors.fields).toMatchObject(body.errors?.fields ?? {});
    expect(await stored(id)).toMatchObject({ revision: 0, values: { name: 'Bob', email: 'bob@example.test', cups: '1' } });
  });

  it('refuses a value for a field the rules hide, and drops the value of a field the edit hides', async () => {
    const id = await seed(svc, 'edit', { title: 'Cy', values: { name: 'Cy', drinks: ['tea'], teaKind: 'green' }, createdAt: day });
    const hidden = await seed(svc, 'edit', { title: 'Di', values: { name: 'Di', drinks: ['coffee'] }, createdAt: day });
    const refused = await patch(hidden, { values: { teaKind: 'black' } });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(json(refused).errors?.fields).toEqual({ teaKind: [expect.stringContaining('hidden')] });
    // Revealing a required field asks for it, as the submit would.
    const revealed = await patch(hidden, { values: { drinks: ['coffee', 'tea'] } });
    expect(revealed.statusCode, revealed.body).toBe(422);
    expect(Object.keys(json(revealed).errors?.fields ?? {})).toEqual(['teaKind']);
    expect((await patch(hidden, { values: { drinks: ['coffee', 'tea'], teaKind: 'black' } })).statusCode).toBe(200);
    // Hiding it: the value goes, as a submit would not have stored it; the audit entry keeps it.
    const res = await patch(id, { values: { drinks: ['coffee'] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).data['values']).not.toHaveProperty('teaKind');
    const [entry] = await audit();
    expect(entry?.detail).toMatchObject({ from: { drinks: ['tea'], teaKind: 'green' }, to: { drinks: ['coffee'], teaKind: null } });
  });

  it('refuses files and signatures (FIELD_NOT_EDITABLE), unknown handles and a read-only key', async () => {
    const id = await seed(svc, 'edit', { title: 'Ed', values: { name: 'Ed' }, createdAt: day });
    const files = await patch(id, { values: { photos: [], sig: '' } });
    expect(files.statusCode).toBe(400);
    expect(json(files)).toMatchObject({ code: 'FIELD_NOT_EDITABLE', errors: { fields: { photos: [expect.any(String)], sig: [expect.any(String)] } } });
    expect(json(await patch(id, { values: { nope: 'x' } })).code).toBe('PAYLOAD_INVALID');
    expect(json(await patch(id, { values: [] })).code).toBe('PAYLOAD_INVALID');
    expect(json(await patch(id, { values: {} })).code).toBe('PAYLOAD_INVALID');
    expect((await patch(id, { values: { name: 'X' } }, KEYS.reader)).statusCode).toBe(403);
    expect(await stored(id)).toMatchObject({ revision: 0, values: { name: 'Ed' } });
  });

  it('takes values with a status change in one call, and writes nothing for an edit that changes nothing', async () => {
    const id = await seed(svc, 'edit', { title: 'Flo', values: { name: 'Flo' }, createdAt: day });
    const res = await patch(id, { values: { name: 'Flo B' }, status: 'closed' });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).data).toMatchObject({ status: 'closed', revision: 1, values: { name: 'Flo B' } });
    const before = (await audit())[0];
    expect((await patch(id, { values: { name: 'Flo B' } })).statusCode).toBe(200);
    expect((await stored(id))['revision']).toBe(1);
    expect((await audit())[0]).toEqual(before);
  });

  it('keeps both of two edits made at once (each writes over the revision it read)', async () => {
    const id = await seed(svc, 'edit', { title: 'Gus', values: { name: 'Gus' }, createdAt: day });
    const results = await Promise.all([patch(id, { values: { email: 'gus@example.test' } }), patch(id, { values: { cups: 4 } })]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(await stored(id)).toMatchObject({ revision: 2, values: { name: 'Gus', email: 'gus@example.test', cups: '4' } });
  });
});

describe('admin edit of values, body checks', () => {
  it('answers an unknown top-level key with 400 PAYLOAD_INVALID', async () => {
    const svc = await createEditTestApp(null);
    try {
      const id = await seed(svc, 'edit', { values: { name: 'H' }, createdAt: '2026-11-20T09:00:00.000Z' });
      const res = await adminSend(svc, 'PATCH', `/svc/api/admin/submissions/${id}`, { values: { name: 'I' }, extra: 1 });
      expect(res.statusCode).toBe(400);
      expect(json(res).code).toBe('PAYLOAD_INVALID');
    } finally {
      await svc.close();
    }
  });
});
