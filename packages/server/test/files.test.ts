/**
 * File uploads (contract §7, interface.md §4.4): drag and drop to `/svc/api/forms/{h}/files/{field}`
 * with an upload token, delete, multipart submits, uploads named in JSON submits, multi-page and
 * draft carry-over, the purge of unattached uploads, idempotent multipart retries and GraphQL.
 * Every body is a real multipart/form-data body; every stored file is checked on disk.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { LightMyRequestResponse } from 'fastify';
import { countSubmissions, findSubmission } from '../src/submissions/submission-repository.js';
import type { SubmitBody } from '../src/submissions/submit-response.js';
import { purgeExpired } from '../src/storage/purge-job.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';
import { paddedPdf, tinyPng } from './support/sample-files.js';
import { fieldPart, filePart, multipartBody, type MultipartPart } from './support/multipart-body.js';
import { buffer } from 'node:stream/consumers';
import { sealedSize } from '../src/files/upload-sealing.js';
import { postGraphql } from './support/graphql-client.js';

const FORMS_DIR = resolve(import.meta.dirname, 'fixtures/file-forms');
const START = Date.parse('2026-11-22T10:00:00Z');
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
// Creation time (12 hex digits), then 128 random bits.
const UPLOAD_ID = /^[0-9a-f]{12}[A-Za-z0-9_-]{22}$/;

// ---------------------------------------------------------------------------------------------
// Real file contents
// ---------------------------------------------------------------------------------------------

const png = tinyPng;
const pdf = paddedPdf;

/** A minimal Windows PE: DOS header with e_lfanew at 0x3c, the PE signature, a COFF and optional header. */
function windowsExe(): Buffer {
  const exe = Buffer.alloc(1024);
  exe.write('MZ', 0, 'latin1');
  exe.writeUInt16LE(0x90, 0x02); // bytes on last page
  exe.writeUInt16LE(0x03, 0x04); // pages
  exe.writeUInt16LE(0x04, 0x08); // header paragraphs
  exe.writeUInt16LE(0xffff, 0x0c); // max alloc
  exe.writeUInt16LE(0xb8, 0x10); // initial SP
  exe.writeUInt16LE(0x40, 0x18); // relocation table offset
  exe.writeUInt32LE(0x80, 0x3c); // e_lfanew
  exe.write('This program cannot be run in DOS mode.\r\r\n$', 0x4e, 'latin1');
  exe.write('PE\0\0', 0x80, 'latin1');
  exe.writeUInt16LE(0x014c, 0x84); // machine: i386
  exe.writeUInt16LE(1, 0x86); // sections
  exe.writeUInt32LE(0x5f5e1000, 0x88); // timestamp
  exe.writeUInt16LE(0xe0, 0x94); // size of optional header
  exe.writeUInt16LE(0x0102, 0x96); // characteristics: executable, 32-bit
  exe.writeUInt16LE(0x010b, 0x98); // optional header magic: PE32
  exe.write('.text\0\0\0', 0x178, 'latin1');
  return exe;
}

const TEXT = Buffer.from('Dear committee,\nplease find my notes attached – thanks! ✓\n', 'utf8');

// ---------------------------------------------------------------------------------------------

interface UploadOk {
  readonly success: true;
  readonly data: { id: string; name: string; extension: string; size: number };
  readonly meta: { pluginVersion: string; uploadToken: string };
}

interface ErrorBody {
  readonly success: false;
  readonly code: string;
  readonly message: string;
  readonly errors?: string[];
}

interface FileRow {
  readonly public_id: string;
  readonly form_id: number;
  readonly field_handle: string;
  readonly column_index: number | null;
  readonly storage_key: string;
  readonly name: string;
  readonly extension: string;
  readonly kind: string;
  readonly size: number;
  readonly submission_id: number | null;
  readonly hold_until: string | null;
  readonly created_at: string;
  readonly data_key: string | null;
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

describeEachDialect('file uploads', (target) => {
  let svc: TestApp;
  let clock = START;

  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        database: { url: target.url() },
        forms: { dir: FORMS_DIR, watch: false },
        headless: {
          forms: {
            uploads: { exposeManifest: true, allowSubmit: true },
            staged: { exposeManifest: true, allowSubmit: true },
            locked: { exposeManifest: true },
          },
        },
      },
      now: () => new Date(clock),
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const db = () => svc.context.database.db;
  const filesDir = () => join(svc.dataDir, 'files');
  const tmpDir = () => join(svc.dataDir, 'tmp');
  const formId = (handle: string) => svc.context.forms.get(handle)?.id ?? -1;
  const submissionCount = (handle = 'uploads') => countSubmissions(db(), formId(handle));

  async function fileRow(id: string): Promise<FileRow | undefined> {
    return (await db().selectFrom('svc_files').selectAll().where('public_id', '=', id).executeTakeFirst()) as FileRow | undefined;
  }
  async function fileRows(): Promise<FileRow[]> {
    return (await db().selectFrom('svc_files').selectAll().orderBy('id').execute()) as FileRow[];
  }
  async function rowsNamed(name: string): Promise<FileRow[]> {
    return (await db().selectFrom('svc_files').selectAll().where('name', '=', name).execute()) as FileRow[];
  }
  const blobPath = (row: FileRow) => join(filesDir(), ...row.storage_key.split('/'));
  /** The stored file's bytes as every reader gets them: opened under the upload's data key (issue #37). */
  async function storedBytes(row: FileRow): Promise<Buffer> {
    const body = await svc.context.uploads.read({ storageKey: row.storage_key, dataKey: row.data_key });
    if (!body) throw new Error(`nothing stored for ${row.public_id}`);
    return buffer(body);
  }

  /** Drag and drop: one file for `field` under `token`; CSRF in the header unless told otherwise. */
  async function upload(
    field: string,
    filename: string,
    data: Buffer | string,
    options: { token?: string | null; csrf?: 'header' | 'field' | 'field-after' | 'none' | 'bad'; handle?: string; partName?: string } = {},
  ): Promise<LightMyRequestResponse> {
    const { token: csrfToken, cookie } = await svc.csrf();
    const mode = options.csrf ?? 'header';
    const file = filePart(options.partName ?? field, filename, data);
    const parts: MultipartPart[] =
      mode === 'field' ? [fieldPart('SVC_CSRF_TOKEN', csrfToken), file] : mode === 'field-after' ? [file, fieldPart('SVC_CSRF_TOKEN', csrfToken)] : [file];
    const body = multipartBody(parts);
    const headers: Record<string, string> = { ...body.headers, cookie };
    if (mode === 'header') headers['x-csrf-token'] = csrfToken;
    if (mode === 'bad') headers['x-csrf-token'] = `${csrfToken}x`;
    const token = options.token === undefined ? randomUUID() : options.token;
    if (token !== null) headers['x-svc-upload-token'] = token;
    return svc.app.inject({ method: 'POST', url: `/svc/api/forms/${options.handle ?? 'uploads'}/files/${field}`, headers, payload: body.payload });
  }

  async function uploadOk(field: string, filename: string, data: Buffer | string, token: string, handle = 'uploads'): Promise<string> {
    const res = await upload(field, filename, data, { token, handle });
    if (res.statusCode !== 200) throw new Error(`upload of ${filename} to ${field}: ${res.statusCode} ${res.body}`);
    return res.json<UploadOk>().data.id;
  }

  async function remove(field: string, id: unknown, token: string): Promise<LightMyRequestResponse> {
    const { token: csrfToken, cookie } = await svc.csrf();
    return svc.app.inject({
      method: 'POST',
      url: `/svc/api/forms/uploads/files/${field}/delete`,
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, 'x-svc-upload-token': token, cookie },
      payload: JSON.stringify({ id }),
    });
  }

  /** A multipart submit: `_svc` first, then the CSRF field (unless `csrf` is false), then the files. */
  async function multipartSubmit(
    handle: string,
    payload: Record<string, unknown> | string | null,
    files: readonly MultipartPart[],
    options: { csrf?: boolean; headers?: Record<string, string>; extra?: readonly MultipartPart[] } = {},
  ): Promise<LightMyRequestResponse> {
    const { token, cookie } = await svc.csrf();
    const parts: MultipartPart[] = [];
    if (payload !== null) parts.push(fieldPart('_svc', typeof payload === 'string' ? payload : JSON.stringify(payload)));
    if (options.csrf !== false) parts.push(fieldPart('SVC_CSRF_TOKEN', token));
    parts.push(...(options.extra ?? []), ...files);
    const body = multipartBody(parts);
    return svc.app.inject({
      method: 'POST',
      url: `/svc/api/forms/${handle}/submit`,
      headers: { ...body.headers, cookie, ...options.headers },
      payload: body.payload,
    });
  }

  const error = (res: LightMyRequestResponse) => res.json<ErrorBody>();
  const submitBody = (res: LightMyRequestResponse) => res.json<SubmitBody>();

  // -------------------------------------------------------------------------------------------
  // Drag and drop
  // -------------------------------------------------------------------------------------------

  it('stores a drag-and-drop upload and answers the envelope with id, name, extension, size and the upload token', async () => {
    const token = randomUUID();
    const bytes = png(1);
    const res = await upload('photos', 'holiday.png', bytes, { token });
    expect(res.statusCode).toBe(200);
    const body = res.json<UploadOk>();
    expect(body).toEqual({
      success: true,
      data: { id: expect.stringMatching(UPLOAD_ID), name: 'holiday.png', extension: 'png', size: bytes.length },
      meta: { pluginVersion: expect.any(String), uploadToken: token },
    });
    expect(body.meta.pluginVersion).toMatch(/^\d+\.\d+\.\d+/);
    const row = await fileRow(body.data.id);
    expect(row).toMatchObject({
      form_id: formId('uploads'),
      field_handle: 'photos',
      column_index: null,
      name: 'holiday.png',
      extension: 'png',
      kind: 'image',
      submission_id: null,
      hold_until: null,
      created_at: new Date(clock).toISOString(),
    });
    expect(Number(row?.size)).toBe(bytes.length);
    const path = blobPath(row as FileRow);
    expect(path.startsWith(`${filesDir()}/`)).toBe(true);
    // On disk only sealed bytes; opened, the exact upload.
    expect(readFileSync(path).length).toBe(sealedSize(bytes.length));
    expect(readFileSync(path).includes(bytes.subarray(0, 16))).toBe(false);
    expect((await storedBytes(row as FileRow)).equals(bytes)).toBe(true);
  });

  it('accepts the CSRF token as a SVC_CSRF_TOKEN field placed before the file', async () => {
    const res = await upload('photos', 'field-csrf.png', png(2), { csrf: 'field' });
    expect(res.statusCode).toBe(200);
    expect((await rowsNamed('field-csrf.png')).length).toBe(1);
  });

  it('chooses the stored name itself: a traversal file name is metadata only', async () => {
    const bytes = png(3);
    const res = await upload('photos', '../../etc/passwd.png', bytes);
    expect(res.statusCode).toBe(200);
    const { data } = res.json<UploadOk>();
    expect(data.name).toBe('passwd.png');
    const row = (await fileRow(data.id)) as FileRow;
    expect(row.name).toBe('passwd.png');
    expect(row.storage_key).not.toContain('passwd');
    expect(row.storage_key).not.toContain('..');
    expect(row.storage_key).not.toContain(data.id);
    expect(row.storage_key).toMatch(/^[a-z0-9-]+\/[0-9a-f]{32}\.png$/);
    expect((await storedBytes(row)).equals(bytes)).toBe(true);
    expect(existsSync(join(svc.dataDir, 'etc'))).toBe(false);
    expect(existsSync(join(filesDir(), '..', '..', 'etc', 'passwd.png'))).toBe(false);
  });

  it.each([
    ['no CSRF token', 'none' as const],
    ['a tampered CSRF token', 'bad' as const],
    ['the CSRF field after the file part', 'field-after' as const],
  ])('answers 400 CSRF_INVALID for %s and stores nothing, neither row nor blob', async (_label, csrf) => {
    const name = `csrf-${csrf}.png`;
    const rowsBefore = (await fileRows()).length;
    const blobsBefore = listFiles(filesDir());
    const res = await upload('photos', name, png(4), { csrf });
    expect(res.statusCode).toBe(400);
    expect(error(res)).toMatchObject({ success: false, code: 'CSRF_INVALID' });
    expect(await rowsNamed(name)).toEqual([]);
    expect((await fileRows()).length).toBe(rowsBefore);
    expect(listFiles(filesDir())).toEqual(blobsBefore);
    expect(listFiles(tmpDir())).toEqual([]);
  });

  it.each([
    ['no upload token', null],
    ['a token shorter than 8 characters', 'ff-1234'],
    ['a token with characters outside A-Z, a-z, 0-9, - and _', `${randomUUID()}/x`],
    ['a token longer than 128 characters', 'a'.repeat(129)],
  ])('answers 400 PAYLOAD_INVALID for %s', async (_label, token) => {
    const name = `token-${String(token).slice(0, 8)}.png`;
    const res = await upload('photos', name, png(5), { token });
    expect(res.statusCode).toBe(400);
    expect(error(res).code).toBe('PAYLOAD_INVALID');
    expect(await rowsNamed(name)).toEqual([]);
  });

  it('answers PAYLOAD_INVALID for a field that takes no files, FORM_NOT_FOUND for an unknown form', async () => {
    const text = await upload('name', 'a.png', png(6));
    expect(text.statusCode).toBe(400);
    expect(error(text).code).toBe('PAYLOAD_INVALID');
    const missing = await upload('nope', 'a.png', png(6));
    expect(missing.statusCode).toBe(400);
    expect(error(missing).code).toBe('PAYLOAD_INVALID');
    const table = await upload('refs', 'a.pdf', pdf());
    expect(table.statusCode).toBe(400);
    expect(error(table).code).toBe('PAYLOAD_INVALID');
    const unknown = await upload('photos', 'a.png', png(6), { handle: 'no-such-form' });
    expect(unknown.statusCode).toBe(404);
    expect(error(unknown).code).toBe('FORM_NOT_FOUND');
  });

  it('answers PAYLOAD_INVALID when the file part is not named after the field', async () => {
    const res = await upload('photos', 'misnamed.png', png(7), { partName: 'cv' });
    expect(res.statusCode).toBe(400);
    expect(error(res).code).toBe('PAYLOAD_INVALID');
    expect(await rowsNamed('misnamed.png')).toEqual([]);
  });

  it('answers 403 SUBMIT_NOT_ALLOWED for a form without allowSubmit and stores nothing', async () => {
    const res = await upload('attachment', 'locked.png', png(8), { handle: 'locked' });
    expect(res.statusCode).toBe(403);
    expect(error(res).code).toBe('SUBMIT_NOT_ALLOWED');
    expect(await rowsNamed('locked.png')).toEqual([]);
  });

  it('answers 415 MEDIA_TYPE_UNSUPPORTED for a JSON body', async () => {
    const { token, cookie } = await svc.csrf();
    const res = await svc.app.inject({
      method: 'POST',
      url: '/svc/api/forms/uploads/files/photos',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, 'x-svc-upload-token': randomUUID(), cookie },
      payload: JSON.stringify({ photos: 'iVBORw0KGgo=' }),
    });
    expect(res.statusCode).toBe(415);
    expect(error(res).code).toBe('MEDIA_TYPE_UNSUPPORTED');
  });

  // --- content sniffing ------------------------------------------------------------------------

  it('rejects a PNG renamed cv.pdf for the cv field (pdf, document) with FILE_REJECTED and a message', async () => {
    const res = await upload('cv', 'cv.pdf', png(9));
    expect(res.statusCode).toBe(400);
    const body = error(res);
    expect(body.code).toBe('FILE_REJECTED');
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]).toContain('cv.pdf');
    expect(body.errors?.[0]).toMatch(/not an allowed type/);
    expect(await rowsNamed('cv.pdf')).toEqual([]);
    expect(listFiles(tmpDir())).toEqual([]);
  });

  it('rejects a Windows executable renamed photo.jpg for photos', async () => {
    const exe = windowsExe();
    expect(await fileTypeFromBuffer(exe)).toMatchObject({ ext: 'exe' });
    const res = await upload('photos', 'photo.jpg', exe);
    expect(res.statusCode).toBe(400);
    expect(error(res).code).toBe('FILE_REJECTED');
    expect(error(res).errors?.[0]).toContain('photo.jpg');
    expect(await rowsNamed('photo.jpg')).toEqual([]);
  });

  it('rejects a Windows executable even for a field without fileKinds (anything)', async () => {
    const res = await upload('anything', 'setup.txt', windowsExe());
    expect(res.statusCode).toBe(400);
    expect(error(res).code).toBe('FILE_REJECTED');
    expect(await rowsNamed('setup.txt')).toEqual([]);
  });

  it('accepts a real PDF for cv as extension pdf, whatever the client called it', async () => {
    const bytes = pdf(1200);
    expect(await fileTypeFromBuffer(bytes)).toMatchObject({ ext: 'pdf' });
    const res = await upload('cv', 'curriculum.bin', bytes);
    expect(res.statusCode).toBe(200);
    const { data } = res.json<UploadOk>();
    expect(data).toMatchObject({ name: 'curriculum.bin', extension: 'pdf', size: 1200 });
    const row = (await fileRow(data.id)) as FileRow;
    expect(row).toMatchObject({ kind: 'pdf', extension: 'pdf', field_handle: 'cv' });
    expect(row.storage_key).toMatch(/\.pdf$/);
    expect((await storedBytes(row)).equals(bytes)).toBe(true);
  });

  it('accepts a real PNG for photos and a UTF-8 text file for anything (extension txt)', async () => {
    const image = await upload('photos', 'pixel.png', png(10));
    expect(image.statusCode).toBe(200);
    expect(image.json<UploadOk>().data).toMatchObject({ extension: 'png', size: png(10).length });
    const text = await upload('anything', 'letter', TEXT);
    expect(text.statusCode).toBe(200);
    const { data } = text.json<UploadOk>();
    expect(data).toMatchObject({ name: 'letter', extension: 'txt', size: TEXT.length });
    const row = (await fileRow(data.id)) as FileRow;
    expect(row.kind).toBe('text');
    expect((await storedBytes(row)).equals(TEXT)).toBe(true);
  });

  it('rejects an empty file', async () => {
    const res = await upload('anything', 'empty.txt', Buffer.alloc(0));
    expect(res.statusCode).toBe(400);
    expect(error(res).code).toBe('FILE_REJECTED');
    expect(error(res).errors?.[0]).toMatch(/empty/);
    expect(await rowsNamed('empty.txt')).toEqual([]);
  });

  // --- size ------------------------------------------------------------------------------------

  it('accepts a file of exactly maxFileSizeKB (cv: 5 KB)', async () => {
    const bytes = pdf(5 * 1024);
    const res = await upload('cv', 'exact.pdf', bytes);
    expect(res.statusCode).toBe(200);
    expect(res.json<UploadOk>().data.size).toBe(5 * 1024);
    const row = (await rowsNamed('exact.pdf'))[0] as FileRow;
    expect(readFileSync(blobPath(row)).length).toBe(sealedSize(5 * 1024));
    expect((await storedBytes(row)).length).toBe(5 * 1024);
  });

  it('answers 413 PAYLOAD_TOO_LARGE one byte over maxFileSizeKB and keeps neither a row, a blob nor a temp file', async () => {
    const blobsBefore = listFiles(filesDir());
    const res = await upload('cv', 'over.pdf', pdf(5 * 1024 + 1));
    expect(res.statusCode).toBe(413);
    const body = error(res);
    expect(body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(body.errors?.[0]).toContain('over.pdf');
    expect(await rowsNamed('over.pdf')).toEqual([]);
    expect(listFiles(filesDir())).toEqual(blobsBefore);
    expect(listFiles(tmpDir())).toEqual([]);
  });

  it('answers 413 for a 3 MB file to a 64 KB field, and removes what it had written in place', async () => {
    const blobsBefore = listFiles(filesDir());
    const res = await upload('anything', 'huge.txt', Buffer.alloc(3 * 1024 * 1024, 'a'));
    expect(res.statusCode).toBe(413);
    expect(error(res).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await rowsNamed('huge.txt')).toEqual([]);
    expect(listFiles(filesDir())).toEqual(blobsBefore);
    expect(listFiles(tmpDir())).toEqual([]);
  });

  // --- count -----------------------------------------------------------------------------------

  it('refuses the 4th photo under one upload token (fileCount 3) and takes it under another', async () => {
    const token = randomUUID();
    for (let i = 0; i < 3; i += 1) await uploadOk('photos', `count-${i}.png`, png(20 + i), token);
    const fourth = await upload('photos', 'count-3.png', png(23), { token });
    expect(fourth.statusCode).toBe(400);
    expect(error(fourth).code).toBe('FILE_REJECTED');
    expect(error(fourth).errors).toEqual(['Upload at most 3 files']);
    expect(await rowsNamed('count-3.png')).toEqual([]);
    const other = await upload('photos', 'count-3.png', png(23), { token: randomUUID() });
    expect(other.statusCode).toBe(200);
    expect((await rowsNamed('count-3.png')).length).toBe(1);
  });

  it('stores exactly fileCount of many uploads racing under one token, and keeps no blob of the rest', async () => {
    const token = randomUUID();
    const blobsBefore = listFiles(filesDir()).length;
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => upload('photos', `race-${i}.png`, png(40 + i), { token })));
    const stored = results.filter((res) => res.statusCode === 200);
    const refused = results.filter((res) => res.statusCode !== 200);
    expect(stored.length).toBe(3);
    for (const res of refused) {
      expect(res.statusCode).toBe(400);
      expect(error(res).errors).toEqual(['Upload at most 3 files']);
    }
    const rows = (await fileRows()).filter((row) => row.name.startsWith('race-'));
    expect(rows.map((row) => row.public_id).sort()).toEqual(stored.map((res) => res.json<UploadOk>().data.id).sort());
    expect(listFiles(filesDir()).length).toBe(blobsBefore + 3);
  });

  it('counts per field: a full photos field does not limit anything', async () => {
    const token = randomUUID();
    for (let i = 0; i < 3; i += 1) await uploadOk('photos', `per-field-${i}.png`, png(30 + i), token);
    const res = await upload('anything', 'per-field.txt', TEXT, { token });
    expect(res.statusCode).toBe(200);
  });

  // --- delete ----------------------------------------------------------------------------------

  it('deletes an upload with its token (row and blob gone); again or under another token it is FILE_NOT_FOUND', async () => {
    const token = randomUUID();
    const id = await uploadOk('photos', 'to-delete.png', png(40), token);
    const row = (await fileRow(id)) as FileRow;
    expect(existsSync(blobPath(row))).toBe(true);

    const other = randomUUID();
    const wrongOwner = await remove('photos', id, other);
    expect(wrongOwner.statusCode).toBe(404);
    expect(error(wrongOwner).code).toBe('FILE_NOT_FOUND');
    expect(await fileRow(id)).toBeDefined();
    expect(existsSync(blobPath(row))).toBe(true);

    const wrongField = await remove('anything', id, token);
    expect(wrongField.statusCode).toBe(404);
    expect(error(wrongField).code).toBe('FILE_NOT_FOUND');
    expect(await fileRow(id)).toBeDefined();

    const res = await remove('photos', id, token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await fileRow(id)).toBeUndefined();
    expect(existsSync(blobPath(row))).toBe(false);

    const again = await remove('photos', id, token);
    expect(again.statusCode).toBe(404);
    expect(error(again).code).toBe('FILE_NOT_FOUND');

    const notAnId = await remove('photos', 42, token);
    expect(notAnId.statusCode).toBe(400);
    expect(error(notAnId).code).toBe('PAYLOAD_INVALID');
  });

  it('frees a slot when a photo is deleted', async () => {
    const token = randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push(await uploadOk('photos', `slot-${i}.png`, png(50 + i), token));
    expect((await remove('photos', ids[0], token)).statusCode).toBe(200);
    expect((await upload('photos', 'slot-3.png', png(53), { token })).statusCode).toBe(200);
  });

  it('refuses a delete without CSRF and keeps the file', async () => {
    const token = randomUUID();
    const id = await uploadOk('photos', 'keep-me.png', png(60), token);
    const res = await svc.app.inject({
      method: 'POST',
      url: '/svc/api/forms/uploads/files/photos/delete',
      headers: { 'content-type': 'application/json', 'x-svc-upload-token': token },
      payload: JSON.stringify({ id }),
    });
    expect(res.statusCode).toBe(400);
    expect(error(res).code).toBe('CSRF_INVALID');
    expect(await fileRow(id)).toBeDefined();
  });

  // -------------------------------------------------------------------------------------------
  // JSON submit naming drag-and-drop uploads
  // -------------------------------------------------------------------------------------------

  it('attaches drag-and-drop uploads named in a JSON submit with the same upload token', async () => {
    const token = randomUUID();
    const photo = await uploadOk('photos', 'json-1.png', png(70), token);
    const photo2 = await uploadOk('photos', 'json-2.png', png(71), token);
    const cv = await uploadOk('cv', 'json-cv.pdf', pdf(900), token);
    const before = await submissionCount();
    const res = await svc.submit('uploads', { intent: 'submit', values: { name: 'Ann', photos: [photo, photo2], cv: [cv] }, context: { uploadToken: token } });
    expect(res.statusCode).toBe(200);
    const body = submitBody(res);
    expect(body).toMatchObject({ success: true, status: 'submitted', complete: true, errors: { fields: {}, form: [] } });
    const id = body.submission?.id as number;
    expect(await submissionCount()).toBe(before + 1);
    const stored = await findSubmission(db(), id, svc.context.sealer);
    expect(stored?.values).toMatchObject({ name: 'Ann', photos: [photo, photo2], cv: [cv] });
    for (const upload of [photo, photo2, cv]) {
      expect((await fileRow(upload))?.submission_id).toBe(id);
    }
    // An attached upload can no longer be deleted by its uploader.
    const del = await remove('photos', photo, token);
    expect(del.statusCode).toBe(404);
    expect(await fileRow(photo)).toBeDefined();
  });

  it('refuses ids uploaded under another upload token, or with no token, with a field error on photos', async () => {
    const token = randomUUID();
    const photo = await uploadOk('photos', 'foreign.png', png(80), token);
    const before = await submissionCount();
    for (const context of [{ uploadToken: randomUUID() }, {}]) {
      const res = await svc.submit('uploads', { intent: 'submit', values: { name: 'Eve', photos: [photo] }, context });
      expect(res.statusCode).toBe(422);
      const body = submitBody(res);
      expect(body).toMatchObject({ success: false, status: 'validation_failed', submission: null });
      expect(body.errors.fields.photos).toHaveLength(1);
      expect(Object.keys(body.errors.fields)).toEqual(['photos']);
    }
    expect(await submissionCount()).toBe(before);
    expect((await fileRow(photo))?.submission_id).toBeNull();
  });

  it("refuses the id of another field's upload with a field error", async () => {
    const token = randomUUID();
    const other = await uploadOk('anything', 'elsewhere.png', png(81), token);
    const before = await submissionCount();
    const res = await svc.submit('uploads', { intent: 'submit', values: { photos: [other] }, context: { uploadToken: token } });
    expect(res.statusCode).toBe(422);
    expect(submitBody(res).errors.fields.photos).toHaveLength(1);
    expect(await submissionCount()).toBe(before);
    expect((await fileRow(other))?.submission_id).toBeNull();
  });

  it('refuses an id that was never uploaded, and one already attached to another submission', async () => {
    const token = randomUUID();
    const photo = await uploadOk('photos', 'once.png', png(82), token);
    const first = await svc.submit('uploads', { intent: 'submit', values: { photos: [photo] }, context: { uploadToken: token } });
    expect(first.statusCode).toBe(200);
    const firstId = submitBody(first).submission?.id;
    const before = await submissionCount();
    for (const ids of [[photo], ['AAAAAAAAAAAAAAAAAAAAAA']]) {
      const res = await svc.submit('uploads', { intent: 'submit', values: { photos: ids }, context: { uploadToken: token } });
      expect(res.statusCode).toBe(422);
      expect(submitBody(res).errors.fields.photos).toHaveLength(1);
    }
    expect(await submissionCount()).toBe(before);
    expect((await fileRow(photo))?.submission_id).toBe(firstId);
  });

  it('refuses the id of an upload made for another form, even under the same upload token', async () => {
    const token = randomUUID();
    const portfolio = await uploadOk('portfolio', 'other-form.png', png(83), token, 'staged');
    const res = await svc.submit('uploads', { intent: 'submit', values: { photos: [portfolio] }, context: { uploadToken: token } });
    expect(res.statusCode).toBe(422);
    expect(submitBody(res).errors.fields.photos).toHaveLength(1);
    expect((await fileRow(portfolio))?.submission_id).toBeNull();
  });

  // -------------------------------------------------------------------------------------------
  // Multipart submit
  // -------------------------------------------------------------------------------------------

  it('combines drag-and-drop ids posted in _svc with files of the same multipart submit', async () => {
    const token = randomUUID();
    const early = await uploadOk('photos', 'mixed-early.png', png(84), token);
    const res = await multipartSubmit('uploads', { intent: 'submit', values: { photos: [early] }, context: { uploadToken: token } }, [
      filePart('files[photos][]', 'mixed-late.png', png(85)),
    ]);
    expect(res.statusCode).toBe(200);
    const id = submitBody(res).submission?.id as number;
    const [late] = await rowsNamed('mixed-late.png');
    const stored = await findSubmission(db(), id, svc.context.sealer);
    expect(stored?.values.photos).toEqual([early, late?.public_id]);
    expect((await fileRow(early))?.submission_id).toBe(id);
    expect(late?.submission_id).toBe(id);
  });

  it('counts drag-and-drop ids and multipart files together against fileCount', async () => {
    const token = randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push(await uploadOk('photos', `together-${i}.png`, png(86 + i), token));
    const before = await submissionCount();
    const res = await multipartSubmit('uploads', { intent: 'submit', values: { photos: ids }, context: { uploadToken: token } }, [
      filePart('files[photos][]', 'together-3.png', png(89)),
    ]);
    expect(res.statusCode).toBe(422);
    expect(submitBody(res).errors.fields.photos).toEqual(['Upload at most 3 files']);
    expect(await submissionCount()).toBe(before);
    for (const id of ids) expect((await fileRow(id))?.submission_id).toBeNull();
  });

  it('stores a multipart submit with files for cv, several photos and a table cell, and attaches them', async () => {
    const cvBytes = pdf(2000);
    const photoA = png(90);
    const photoB = png(91);
    const letter = pdf(800);
    const before = await submissionCount();
    const res = await multipartSubmit('uploads', { intent: 'submit', values: { name: 'Multi', refs: [['Prof X']] } }, [
      filePart('files[cv][]', 'mp-cv.pdf', cvBytes, 'application/pdf'),
      filePart('files[photos][]', 'mp-a.png', photoA, 'image/png'),
      filePart('files[photos][]', 'mp-b.png', photoB, 'image/png'),
      filePart('files[refs][0][1][]', 'mp-letter.pdf', letter, 'application/pdf'),
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = submitBody(res);
    expect(body).toMatchObject({ success: true, status: 'submitted', complete: true, errors: { fields: {}, form: [] } });
    const id = body.submission?.id as number;
    expect(await submissionCount()).toBe(before + 1);

    const [cvRow] = await rowsNamed('mp-cv.pdf');
    const [aRow] = await rowsNamed('mp-a.png');
    const [bRow] = await rowsNamed('mp-b.png');
    const [letterRow] = await rowsNamed('mp-letter.pdf');
    for (const row of [cvRow, aRow, bRow, letterRow]) {
      expect(row?.public_id).toMatch(UPLOAD_ID);
      expect(row?.submission_id).toBe(id);
    }
    expect(letterRow).toMatchObject({ field_handle: 'refs', column_index: 1, kind: 'pdf' });
    expect(cvRow).toMatchObject({ field_handle: 'cv', column_index: null });

    const stored = await findSubmission(db(), id, svc.context.sealer);
    expect(stored?.values).toMatchObject({
      name: 'Multi',
      cv: [cvRow?.public_id],
      photos: [aRow?.public_id, bRow?.public_id],
    });
    const refs = stored?.values.refs as unknown[][];
    expect(refs).toHaveLength(1);
    expect(refs[0]?.[0]).toBe('Prof X');
    expect(refs[0]?.[1]).toEqual([letterRow?.public_id]);

    expect((await storedBytes(cvRow as FileRow)).equals(cvBytes)).toBe(true);
    expect((await storedBytes(bRow as FileRow)).equals(photoB)).toBe(true);
    expect((await storedBytes(letterRow as FileRow)).equals(letter)).toBe(true);
    expect(listFiles(tmpDir())).toEqual([]);
  });

  it('stores a table cell file without a posted row as row 0, column 1', async () => {
    const res = await multipartSubmit('uploads', { intent: 'submit', values: {} }, [filePart('files[refs][0][1][]', 'lonely-letter.pdf', pdf(700))]);
    expect(res.statusCode).toBe(200);
    const [row] = await rowsNamed('lonely-letter.pdf');
    const stored = await findSubmission(db(), submitBody(res).submission?.id as number, svc.context.sealer);
    const refs = stored?.values.refs as unknown[][];
    expect(refs).toHaveLength(1);
    expect(refs[0]?.[1]).toEqual([row?.public_id]);
    expect(row?.submission_id).toBe(submitBody(res).submission?.id);
  });

  it.each([
    ['a PNG sent as cv', 'cv', () => filePart('files[cv][]', 'wrong-kind.pdf', png(100)), 'wrong-kind.pdf'],
    ['an executable sent as a photo', 'photos', () => filePart('files[photos][]', 'wrong-exe.jpg', windowsExe()), 'wrong-exe.jpg'],
    ['an oversized cv', 'cv', () => filePart('files[cv][]', 'too-big.pdf', pdf(5 * 1024 + 1)), 'too-big.pdf'],
    ['an oversized table cell', 'refs', () => filePart('files[refs][0][1][]', 'too-big-cell.pdf', pdf(5 * 1024 + 1)), 'too-big-cell.pdf'],
    ['a PNG in a pdf-only table cell', 'refs', () => filePart('files[refs][0][1][]', 'cell-kind.png', png(101)), 'cell-kind.png'],
  ])('answers 422 with a field error for %s; the refused file leaves no row', async (_label, handle, part, name) => {
    const before = await submissionCount();
    const res = await multipartSubmit('uploads', { intent: 'submit', values: { name: 'Bad' } }, [
      filePart('files[photos][]', `ok-beside-${name}.png`, png(102)),
      part(),
    ]);
    expect(res.statusCode).toBe(422);
    const body = submitBody(res);
    expect(body).toMatchObject({ success: false, status: 'validation_failed', submission: null });
    expect(Object.keys(body.errors.fields)).toEqual([handle]);
    expect(body.errors.fields[handle]?.[0]).toContain(name);
    expect(await submissionCount()).toBe(before);
    expect(await rowsNamed(name)).toEqual([]);
    // The accepted file beside it is not attached to anything.
    for (const row of await rowsNamed(`ok-beside-${name}.png`)) expect(row.submission_id).toBeNull();
    expect(listFiles(tmpDir())).toEqual([]);
  });

  it('answers a field error for more files than fileCount and stores no submission', async () => {
    const before = await submissionCount();
    const res = await multipartSubmit('uploads', { intent: 'submit', values: {} }, [
      filePart('files[cv][]', 'count-cv-1.pdf', pdf(600)),
      filePart('files[cv][]', 'count-cv-2.pdf', pdf(601)),
    ]);
    expect(res.statusCode).toBe(422);
    expect(submitBody(res).errors.fields.cv).toEqual(['Upload at most 1 file']);
    expect(await submissionCount()).toBe(before);
    expect(await rowsNamed('count-cv-2.pdf')).toEqual([]);
  });

  it('answers 400 PAYLOAD_INVALID for a multipart body without _svc', async () => {
    const res = await multipartSubmit('uploads', null, [filePart('files[photos][]', 'no-svc.png', png(110))]);
    expect(res.statusCode).toBe(400);
    expect(error(res).code).toBe('PAYLOAD_INVALID');
  });

  it.each([
    ['not JSON', '{intent: submit'],
    ['a JSON list', '[1,2]'],
  ])('answers 400 PAYLOAD_INVALID when _svc is %s', async (_label, raw) => {
    const before = await submissionCount();
    const res = await multipartSubmit('uploads', raw, []);
    expect(res.statusCode).toBe(400);
    expect(error(res).code).toBe('PAYLOAD_INVALID');
    expect(await submissionCount()).toBe(before);
  });

  it.each([
    ['an unknown field part', [fieldPart('nickname', 'x')]],
    ['a file part for an undeclared handle', [filePart('files[nope][]', 'nope.png', png(111))]],
    ['a file part for a text field', [filePart('files[name][]', 'text-field.png', png(112))]],
    ['a file part for a non-file table column', [filePart('files[refs][0][0][]', 'who.pdf', pdf(600))]],
  ])('answers 400 PAYLOAD_INVALID for %s', async (_label, extra) => {
    const before = await submissionCount();
    const res = await multipartSubmit('uploads', { intent: 'submit', values: {} }, [], { extra });
    expect(res.statusCode).toBe(400);
    expect(error(res).code).toBe('PAYLOAD_INVALID');
    expect(await submissionCount()).toBe(before);
  });

  it('answers 400 CSRF_INVALID for a multipart submit without the CSRF field and stores no file', async () => {
    const rowsBefore = (await fileRows()).length;
    const blobsBefore = listFiles(filesDir());
    const before = await submissionCount();
    const res = await multipartSubmit('uploads', { intent: 'submit', values: {} }, [filePart('files[photos][]', 'mp-no-csrf.png', png(120))], { csrf: false });
    expect(res.statusCode).toBe(400);
    expect(error(res).code).toBe('CSRF_INVALID');
    expect((await fileRows()).length).toBe(rowsBefore);
    expect(listFiles(filesDir())).toEqual(blobsBefore);
    expect(await submissionCount()).toBe(before);
  });

  it('answers CSRF_INVALID for a multipart submit without CSRF and without files', async () => {
    const before = await submissionCount();
    const res = await multipartSubmit('uploads', { intent: 'submit', values: { name: 'NoCsrf' } }, [], { csrf: false });
    expect(res.statusCode).toBe(400);
    expect(error(res).code).toBe('CSRF_INVALID');
    expect(await submissionCount()).toBe(before);
  });

  it('ignores an empty file input (filename "" and no bytes)', async () => {
    const rowsBefore = (await fileRows()).length;
    const res = await multipartSubmit('uploads', { intent: 'submit', values: { name: 'Empty input' } }, [
      filePart('files[photos][]', '', Buffer.alloc(0)),
      filePart('files[cv][]', '', Buffer.alloc(0)),
    ]);
    expect(res.statusCode).toBe(200);
    expect(submitBody(res).status).toBe('submitted');
    expect((await fileRows()).length).toBe(rowsBefore);
    const stored = await findSubmission(db(), submitBody(res).submission?.id as number, svc.context.sealer);
    expect(stored?.values.name).toBe('Empty input');
    expect(stored?.values.photos ?? []).toEqual([]);
    expect(stored?.values.cv ?? []).toEqual([]);
  });

  // -------------------------------------------------------------------------------------------
  // Multi-page, drafts
  // -------------------------------------------------------------------------------------------

  it('carries a page-1 multipart file through the state token to the final JSON submit of staged', async () => {
    const image = png(130);
    const next = await multipartSubmit('staged', { intent: 'next', values: {} }, [filePart('files[portfolio][]', 'staged.png', image)]);
    expect(next.statusCode).toBe(200);
    const page = submitBody(next);
    expect(page).toMatchObject({ success: true, status: 'page_valid', complete: false, page: { currentIndex: 1, total: 2 } });
    const [row] = await rowsNamed('staged.png');
    expect(row).toMatchObject({ form_id: formId('staged'), field_handle: 'portfolio', submission_id: null });
    expect(page.state.values).toMatchObject({ portfolio: [row?.public_id] });
    const stateToken = page.state.token as string;
    expect(stateToken).toEqual(expect.any(String));

    const before = await submissionCount('staged');
    const done = await svc.submit('staged', { intent: 'submit', values: { about: 'Painter' }, context: { stateToken } });
    expect(done.statusCode).toBe(200);
    const body = submitBody(done);
    expect(body.status).toBe('submitted');
    expect(await submissionCount('staged')).toBe(before + 1);
    const stored = await findSubmission(db(), body.submission?.id as number, svc.context.sealer);
    expect(stored?.values).toMatchObject({ portfolio: [row?.public_id], about: 'Painter' });
    expect((await fileRow(row?.public_id as string))?.submission_id).toBe(body.submission?.id);
  });

  it('requires the portfolio on page 1 of staged: next without a file is a field error', async () => {
    const res = await multipartSubmit('staged', { intent: 'next', values: {} }, []);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(submitBody(res).errors.fields)).toEqual(['portfolio']);
  });

  it('holds drag-and-drop uploads named in a draft for drafts.ttlDays, and attaches them when the draft is submitted', async () => {
    const token = randomUUID();
    const photo = await uploadOk('photos', 'draft.png', png(140), token);
    const saved = await svc.submit('uploads', { intent: 'saveDraft', values: { name: 'Drafty', photos: [photo] }, context: { uploadToken: token } });
    expect(saved.statusCode).toBe(200);
    const body = submitBody(saved);
    expect(body.status).toBe('draft_saved');
    const draft = body.draft as { token: string; key: string };
    expect(svc.config.drafts.ttlDays).toBe(30);
    const held = await fileRow(photo);
    expect(held?.submission_id).toBeNull();
    expect(held?.hold_until).toBe(new Date(clock + 30 * DAY_MS).toISOString());

    const before = await submissionCount();
    const res = await svc.submit('uploads', { intent: 'submit', values: {}, context: { draftToken: draft.token, draftKey: draft.key } });
    expect(res.statusCode).toBe(200);
    const done = submitBody(res);
    expect(done.status).toBe('submitted');
    expect(await submissionCount()).toBe(before + 1);
    const stored = await findSubmission(db(), done.submission?.id as number, svc.context.sealer);
    expect(stored?.values).toMatchObject({ name: 'Drafty', photos: [photo] });
    expect(await fileRow(photo)).toMatchObject({ submission_id: done.submission?.id, hold_until: null });
  });

  it('refuses a draft naming another token’s upload', async () => {
    const photo = await uploadOk('photos', 'draft-foreign.png', png(141), randomUUID());
    const res = await svc.submit('uploads', { intent: 'saveDraft', values: { photos: [photo] }, context: { uploadToken: randomUUID() } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(submitBody(res).errors.fields)).toEqual(['photos']);
    expect((await fileRow(photo))?.hold_until).toBeNull();
  });

  // -------------------------------------------------------------------------------------------
  // Idempotency, GraphQL
  // -------------------------------------------------------------------------------------------

  it('replays a repeated multipart submit with the same Idempotency-Key: one submission, the same answer', async () => {
    const { token, cookie } = await svc.csrf();
    const body = multipartBody([
      fieldPart('_svc', JSON.stringify({ intent: 'submit', values: { name: 'Twice' } })),
      fieldPart('SVC_CSRF_TOKEN', token),
      filePart('files[photos][]', 'idem.png', png(150)),
    ]);
    const key = randomUUID();
    const send = () =>
      svc.app.inject({ method: 'POST', url: '/svc/api/forms/uploads/submit', headers: { ...body.headers, cookie, 'idempotency-key': key }, payload: body.payload });
    const before = await submissionCount();
    const first = await send();
    expect(first.statusCode).toBe(200);
    expect(submitBody(first).status).toBe('submitted');
    const second = await send();
    expect(second.statusCode).toBe(first.statusCode);
    expect(second.json()).toEqual(first.json());
    expect(submitBody(second).submission?.id).toBe(submitBody(first).submission?.id);
    expect(await submissionCount()).toBe(before + 1);
    const attached = (await rowsNamed('idem.png')).filter((row) => row.submission_id !== null);
    expect(attached).toHaveLength(1);
    expect(attached[0]?.submission_id).toBe(submitBody(first).submission?.id);
  });

  it('answers 409 IDEMPOTENCY_CONFLICT for the same key with different file bytes', async () => {
    const key = randomUUID();
    const first = await multipartSubmit('uploads', { intent: 'submit', values: {} }, [filePart('files[photos][]', 'idem-a.png', png(151))], {
      headers: { 'idempotency-key': key },
    });
    expect(first.statusCode).toBe(200);
    const before = await submissionCount();
    const second = await multipartSubmit('uploads', { intent: 'submit', values: {} }, [filePart('files[photos][]', 'idem-a.png', png(152))], {
      headers: { 'idempotency-key': key },
    });
    expect(second.statusCode).toBe(409);
    expect(error(second).code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await submissionCount()).toBe(before);
  });

  it('attaches drag-and-drop uploads through save_uploads_Submission and lists them as assets', async () => {
    const token = randomUUID();
    const bytes = png(160);
    const photo = await uploadOk('photos', 'graphql.png', bytes, token);
    const { token: csrf, cookie } = await svc.csrf();
    const MUTATION = `mutation ($csrf: SvcCsrfTokenInputType, $photos: [String], $token: String) {
      save_uploads_Submission(csrfToken: $csrf, photos: $photos, uploadToken: $token, name: "Gql") { id success assets { id filename kind size field } }
    }`;
    const before = await submissionCount();
    const { res, body } = await postGraphql<{ save_uploads_Submission: { id: number; success: boolean; assets: unknown[] } | null }>(
      svc,
      MUTATION,
      { csrf: { name: 'SVC_CSRF_TOKEN', value: csrf }, photos: [photo], token },
      { cookie },
    );
    expect(res.statusCode).toBe(200);
    expect(body.errors).toBeUndefined();
    const answer = body.data?.save_uploads_Submission;
    expect(answer?.success).toBe(true);
    expect(answer?.assets).toEqual([{ id: photo, filename: 'graphql.png', kind: 'image', size: bytes.length, field: 'photos' }]);
    expect(await submissionCount()).toBe(before + 1);
    expect((await fileRow(photo))?.submission_id).toBe(answer?.id);

    // Another token: VALIDATION_FAILED on photos, nothing stored.
    const foreign = await uploadOk('photos', 'graphql-foreign.png', png(161), randomUUID());
    const { token: csrf2, cookie: cookie2 } = await svc.csrf();
    const refused = await postGraphql<{ save_uploads_Submission: unknown }>(
      svc,
      MUTATION,
      { csrf: { name: 'SVC_CSRF_TOKEN', value: csrf2 }, photos: [foreign], token },
      { cookie: cookie2 },
    );
    expect(refused.body.data?.save_uploads_Submission ?? null).toBeNull();
    expect(refused.body.errors).toHaveLength(1);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', fields: { photos: [expect.any(String)] } });
    expect(await submissionCount()).toBe(before + 1);
    expect((await fileRow(foreign))?.submission_id).toBeNull();
  });

  // -------------------------------------------------------------------------------------------
  // Purge (moves the clock: keep last)
  // -------------------------------------------------------------------------------------------

  it('purges an unattached upload after 24 h with its blob; keeps attached and draft-held ones', async () => {
    const token = randomUUID();
    const loose = await uploadOk('photos', 'purge-loose.png', png(170), token);
    const kept = await uploadOk('photos', 'purge-attached.png', png(171), token);
    const submitted = await svc.submit('uploads', { intent: 'submit', values: { photos: [kept] }, context: { uploadToken: token } });
    expect(submitted.statusCode).toBe(200);
    const heldToken = randomUUID();
    const held = await uploadOk('photos', 'purge-held.png', png(172), heldToken);
    const draft = await svc.submit('uploads', { intent: 'saveDraft', values: { photos: [held] }, context: { uploadToken: heldToken } });
    expect(submitBody(draft).status).toBe('draft_saved');

    const rows = new Map<string, FileRow>();
    for (const id of [loose, kept, held]) rows.set(id, (await fileRow(id)) as FileRow);

    // 23 h later nothing of these goes.
    clock += 23 * HOUR_MS;
    await purgeExpired(svc.context);
    expect(await fileRow(loose)).toBeDefined();
    expect(existsSync(blobPath(rows.get(loose) as FileRow))).toBe(true);

    clock += 2 * HOUR_MS;
    const report = await purgeExpired(svc.context);
    expect(report.uploads).toBeGreaterThanOrEqual(1);
    expect(await fileRow(loose)).toBeUndefined();
    expect(existsSync(blobPath(rows.get(loose) as FileRow))).toBe(false);
    for (const id of [kept, held]) {
      expect(await fileRow(id)).toBeDefined();
      expect(existsSync(blobPath(rows.get(id) as FileRow))).toBe(true);
    }
    // The purged id can no longer be submitted.
    const late = await svc.submit('uploads', { intent: 'submit', values: { photos: [loose] }, context: { uploadToken: token } });
    expect(late.statusCode).toBe(422);
    expect(submitBody(late).errors.fields.photos).toHaveLength(1);
  });
});
