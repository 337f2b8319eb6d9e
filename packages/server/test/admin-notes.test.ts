/**
 * Notes on a submission through the admin API (issue #35 item 3), on both dialects: a note answers
 * 201 with who and when, the list is oldest first, each note is audited in its transaction
 * (without its text), the text is capped with a clear code, notes go with their submission (an
 * owner's delete and the retention purge alike), and exports carry them as a `notes` column.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDialect } from './support/dialects.js';
import type { TestApp } from './support/test-app.js';
import { adminGet, adminSend, createAdminTestApp, KEYS, seed } from './support/admin-fixture.js';
import { purgeExpired } from '../src/storage/purge-job.js';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const json = (res: LightMyRequestResponse) => res.json() as { success: boolean; code?: string; message?: string; data: unknown };
interface Note { id: number; author: string; createdAt: string; text: string }

describeEachDialect('admin notes', (target) => {
  let svc: TestApp;
  let clock = NOW;
  const post = (id: number, body: unknown, key: string = KEYS.admin) =>
    svc.app.inject({ method: 'POST', url: `/svc/api/admin/submissions/${id}/notes`, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const list = async (id: number) => json(await adminGet(svc, `/svc/api/admin/submissions/${id}/notes`)).data as Note[];
  const noteRows = async (id: number) => svc.context.database.db.selectFrom('svc_submission_notes').select('id').where('submission_id', '=', id).execute();

  beforeAll(async () => {
    svc = await createAdminTestApp({ url: target.url(), now: () => new Date(clock), config: { retention: { purgeAfterDays: 30 } } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('adds a note (201, who and when), lists notes oldest first, and shows them on the submission', async () => {
    const id = await seed(svc, 'notes', { title: 'Ann', values: { name: 'Ann' }, createdAt: '2026-11-26T09:00:00.000Z' });
    const first = await post(id, { text: '  Called back.\r\nWill send the form again.  ' });
    expect(first.statusCode, first.body).toBe(201);
    expect(json(first).data).toEqual({ id: expect.any(Number), author: 'key:admin', createdAt: '2026-11-27T12:00:00.000Z', text: 'Called back.\nWill send the form again.' });
    clock += 60_000;
    expect((await post(id, { text: '<b>not bold</b>' }, KEYS.notesWriter)).statusCode).toBe(201);
    const notes = await list(id);
    expect(notes.map((n) => [n.author, n.text])).toEqual([['key:admin', 'Called back.\nWill send the form again.'], ['key:notes-writer', '<b>not bold</b>']]);
    const detail = json(await adminGet(svc, `/svc/api/admin/submissions/${id}`)).data as { notes: Note[] };
    expect(detail.notes).toEqual(notes);
  });

  it('audits each note in its transaction, naming the note but not copying its text', async () => {
    const id = await seed(svc, 'notes', { title: 'Bob', createdAt: '2026-11-26T09:00:00.000Z' });
    const note = json(await post(id, { text: 'private remark' })).data as Note;
    const [entry] = json(await adminGet(svc, '/svc/api/admin/audit?limit=1')).data as { action: string; target: string; form: string; detail: Record<string, unknown> }[];
    expect(entry).toMatchObject({ action: 'submission.note', target: `submission:${id}`, form: 'notes', detail: { note: note.id, characters: 14 } });
    expect(JSON.stringify(entry)).not.toContain('private remark');
  });

  it('refuses an empty note, one over 5,000 characters (NOTE_TOO_LONG), a read-only key and a form the key cannot see', async () => {
    const id = await seed(svc, 'notes', { title: 'Cy', createdAt: '2026-11-26T09:00:00.000Z' });
    const other = await seed(svc, 'other', { title: 'Elsewhere', createdAt: '2026-11-26T09:00:00.000Z' });
    expect(json(await post(id, { text: '   ' })).code).toBe('PAYLOAD_INVALID');
    expect(json(await post(id, { text: 1 })).code).toBe('PAYLOAD_INVALID');
    expect(json(await post(id, {})).code).toBe('PAYLOAD_INVALID');
    expect(json(await post(id, { text: 'a\u0000b' })).code).toBe('PAYLOAD_INVALID');
    // 5,000 characters (not UTF-16 units) pass; 5,001 do not.
    expect((await post(id, { text: '😀'.repeat(5_000) })).statusCode).toBe(201);
    const long = await post(id, { text: 'x'.repeat(5_001) });
    expect(long.statusCode).toBe(400);
    expect(json(long)).toMatchObject({ code: 'NOTE_TOO_LONG', message: expect.stringContaining('5001') });
    expect((await post(id, { text: 'hi' }, KEYS.reader)).statusCode).toBe(403);
    expect(json(await post(other, { text: 'hi' }, KEYS.notesWriter)).code).toBe('SUBMISSION_NOT_FOUND');
    expect(json(await adminGet(svc, `/svc/api/admin/submissions/${other}/notes`, KEYS.notesWriter)).code).toBe('SUBMISSION_NOT_FOUND');
    expect((await list(id)).length).toBe(1);
  });

  it('deletes notes with their submission, by an owner and by the retention purge', async () => {
    const deleted = await seed(svc, 'notes', { title: 'Di', createdAt: '2026-11-26T09:00:00.000Z' });
    const purged = await seed(svc, 'notes', { title: 'Old', createdAt: '2026-09-01T09:00:00.000Z' });
    await post(deleted, { text: 'one' });
    await post(purged, { text: 'two' });
    expect((await noteRows(deleted)).length).toBe(1);
    expect((await adminSend(svc, 'DELETE', `/svc/api/admin/submissions/${deleted}`, undefined)).statusCode).toBe(200);
    expect(await noteRows(deleted)).toEqual([]);
    await purgeExpired(svc.context);
    expect(await noteRows(purged)).toEqual([]);
  });

  it('exports notes as a notes column (CSV) and a notes list (JSON Lines) once a form has any', async () => {
    const other = await seed(svc, 'other', { title: 'O', values: { subject: 'none yet' }, createdAt: '2026-11-26T10:00:00.000Z' });
    const csv = async () => (await adminGet(svc, '/svc/api/admin/forms/other/export?format=csv')).body;
    expect((await csv()).split('\r\n')[0]).not.toContain('notes');
    clock = Date.parse('2026-11-27T13:00:00Z');
    await post(other, { text: 'First line\nsecond, "quoted"' });
    clock += 1000;
    await post(other, { text: '=SUM(1)' });
    const lines = (await csv()).split('\r\n');
    expect(lines[0]?.split(',').at(-1)).toBe('notes');
    expect(await csv()).toContain('"2026-11-27T13:00:00.000Z key:admin: First line\nsecond, ""quoted""\n\n2026-11-27T13:00:01.000Z key:admin: =SUM(1)"\r\n');
    const jsonl = (await adminGet(svc, '/svc/api/admin/forms/other/export?format=jsonl')).body.trim().split('\n').map((l) => JSON.parse(l) as { id: number; notes: Note[] });
    expect(jsonl.find((r) => r.id === other)?.notes.map((n) => n.text)).toEqual(['First line\nsecond, "quoted"', '=SUM(1)']);
  });
});
