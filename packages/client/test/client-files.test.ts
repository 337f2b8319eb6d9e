/**
 * Files through @svc/client against a real listening svc (contract §7): drag-and-drop uploads and
 * deletes under one upload token, plain file fields sent as a multipart submit, kinds checked by
 * content on the server, and which of these requests are retried on network failure.
 * Form: packages/server/test/fixtures/file-forms/uploads.yaml (cv: pdf/document ≤5 KB, 1 file;
 * photos: images, up to 3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClientError } from '../src/index.js';
import { isRequest } from './support/fetch-probe.js';
import { formDataNames, pdfFile, pngFile } from './support/file-bytes.js';
import { FILE_FORMS_DIR, probedClient, startLiveServer, submissionCount, submissionRow, type LiveServer } from './support/live-server.js';

let live: LiveServer;
beforeAll(async () => {
  live = await startLiveServer({
    config: {
      forms: { dir: FILE_FORMS_DIR, watch: false },
      headless: { forms: { uploads: { exposeManifest: true, allowSubmit: true }, staged: { exposeManifest: true, allowSubmit: true } } },
    },
  });
});
afterAll(async () => {
  await live?.close();
});

// Creation time (12 hex digits), then 128 random bits.
const UPLOAD_ID = /^[0-9a-f]{12}[A-Za-z0-9_-]{22}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function fileRow(publicId: string) {
  return live.svc.context.database.db.selectFrom('svc_files').selectAll().where('public_id', '=', publicId).executeTakeFirst();
}

async function rejection(promise: Promise<unknown>): Promise<SvcClientError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SvcClientError);
  return error as SvcClientError;
}

describe('drag-and-drop uploads', () => {
  it('upload() returns the UploadedFile and adds its id to the value; removeUpload() deletes it', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('uploads');
    const csrf = await client.csrf();

    const first = await session.upload('photos', pngFile('a.png', 1));
    expect(first).toEqual({ id: expect.stringMatching(UPLOAD_ID), name: 'a.png', extension: 'png', size: pngFile('a.png', 1).size });
    expect(session.values.photos).toEqual([first.id]);
    expect(session.uploadToken).toMatch(UUID);

    const second = await session.upload('photos', pngFile('b.png', 2));
    expect(session.values.photos).toEqual([first.id, second.id]);

    const uploads = probe.matching('POST', '/uploads/files/photos');
    expect(uploads).toHaveLength(2);
    for (const request of uploads) {
      expect(request.headers.get('x-svc-upload-token')).toBe(session.uploadToken);
      expect(request.headers.get('x-csrf-token')).toBe(csrf!.value);
      expect(request.body).toBeInstanceOf(FormData);
      expect(request.headers.has('content-type')).toBe(false); // fetch sets the multipart boundary
      const form = request.body as FormData;
      expect(formDataNames(form)).toEqual(['SVC_CSRF_TOKEN', 'photos']);
    }
    expect(await fileRow(first.id)).toMatchObject({ field_handle: 'photos', submission_id: null, name: 'a.png' });

    await session.removeUpload('photos', first.id);
    expect(session.values.photos).toEqual([second.id]);
    expect(await fileRow(first.id)).toBeUndefined();
    const deletes = probe.matching('POST', '/uploads/files/photos/delete');
    expect(deletes).toHaveLength(1);
    expect(deletes[0]!.headers.get('x-svc-upload-token')).toBe(session.uploadToken);
    expect(JSON.parse(String(deletes[0]!.body))).toEqual({ id: first.id });

    // The remaining upload is attached by a JSON submit that names it with the same upload token.
    session.setValue('name', 'Ann');
    const result = await session.submit();
    expect(result.status).toBe('submitted');
    const submit = probe.matching('POST', '/uploads/submit')[0]!;
    expect(submit.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(String(submit.body)).context).toEqual({ uploadToken: session.uploadToken });
    expect(await fileRow(second.id)).toMatchObject({ submission_id: result.submission!.id });
    expect(JSON.parse((await submissionRow(live.svc, result.submission!.id))!.values)).toMatchObject({ name: 'Ann', photos: [second.id] });
  });

  it('a file the field refuses is FILE_REJECTED with the reasons in details', async () => {
    const { client } = probedClient(live.baseUrl);
    const session = await client.session('uploads');
    expect(session.values.cv).toEqual([]); // the manifest's defaultValue of a file field
    const error = await rejection(session.upload('cv', pngFile()));
    expect(error).toMatchObject({ code: 'FILE_REJECTED', status: 400 });
    expect(error.details).toEqual([expect.any(String)]);
    expect(session.values.cv).toEqual([]);
  });

  it('an upload after the CSRF cookie expired refreshes the token once and goes through', async () => {
    const { client, probe, jar } = probedClient(live.baseUrl);
    const session = await client.session('uploads');
    await client.csrf();
    jar.clear(); // the cookie that binds the cached token is gone (Max-Age passed)
    const outcome = await session.upload('photos', pngFile('late.png', 5)).catch((error: unknown) => error);
    expect(probe.matching('POST', '/uploads/files/photos')[0]!.status).toBe(400); // CSRF_INVALID
    expect(outcome).toMatchObject({ id: expect.stringMatching(UPLOAD_ID), name: 'late.png' });
    expect(probe.matching('GET', '/svc/tokens')).toHaveLength(2);
  });

  it('removeUpload() before any upload is FILE_NOT_FOUND without a request', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('uploads');
    const before = probe.requests.length;
    expect(await rejection(session.removeUpload('photos', 'AAAAAAAAAAAAAAAAAAAAAA'))).toMatchObject({ code: 'FILE_NOT_FOUND', status: 404 });
    expect(probe.requests).toHaveLength(before);
  });

  it('an upload is not retried after a network failure (not idempotent): NETWORK_ERROR after one attempt', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('uploads');
    probe.inject(isRequest('POST', '/uploads/files/photos'), { kind: 'fail-before' }, Infinity);
    expect(await rejection(session.upload('photos', pngFile()))).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    expect(probe.matching('POST', '/uploads/files/photos')).toHaveLength(1);
    expect(session.values.photos).toEqual([]);
  });

  it('a delete whose answer was lost is retried and still removes the upload', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('uploads');
    const uploaded = await session.upload('photos', pngFile('c.png', 3));
    // The first delete reaches the server and deletes the file; its answer never arrives.
    probe.inject(isRequest('POST', '/uploads/files/photos/delete'), { kind: 'fail-after' });
    const outcome = await session.removeUpload('photos', uploaded.id).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    expect(probe.matching('POST', '/uploads/files/photos/delete')).toHaveLength(2); // retried: marked idempotent
    expect(await fileRow(uploaded.id)).toBeUndefined();
    // The upload is gone on the server, so the client must not keep naming it in the value.
    expect(outcome).toBe('resolved');
    expect(session.values.photos).toEqual([]);
  });
});

describe('plain file fields: multipart submits', () => {
  it('setFiles() makes the submit multipart; the stored submission has the file attached', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('uploads');
    const csrf = await client.csrf();
    session.setValue('name', 'Ann');
    session.setFiles('cv', [pdfFile('my cv.pdf')]);
    expect(session.files.get('cv')).toHaveLength(1);
    expect(session.validate('form')).toEqual({});

    const result = await session.submit();
    expect(result).toMatchObject({ status: 'submitted', submission: { id: expect.any(Number) } });
    expect(session.files.size).toBe(0);

    const submit = probe.matching('POST', '/uploads/submit')[0]!;
    expect(submit.body).toBeInstanceOf(FormData);
    expect(submit.headers.has('content-type')).toBe(false);
    expect(submit.headers.get('idempotency-key')).toMatch(/\S/);
    const form = submit.body as FormData;
    // CSRF first (as a field, contract §3), then the JSON part, then the files.
    expect(formDataNames(form)).toEqual(['SVC_CSRF_TOKEN', '_svc', 'files[cv][]']);
    expect(form.get('SVC_CSRF_TOKEN')).toBe(csrf!.value);
    expect(JSON.parse(String(form.get('_svc')))).toMatchObject({ intent: 'submit', values: { name: 'Ann' } });
    expect((form.get('files[cv][]') as File).name).toBe('my cv.pdf');

    const rows = await live.svc.context.database.db
      .selectFrom('svc_files')
      .selectAll()
      .where('submission_id', '=', result.submission!.id)
      .execute();
    expect(rows).toEqual([expect.objectContaining({ field_handle: 'cv', name: 'my cv.pdf', extension: 'pdf', kind: 'pdf' })]);
    const values = JSON.parse((await submissionRow(live.svc, result.submission!.id))!.values) as Record<string, unknown>;
    expect(values.cv).toEqual([rows[0]!.public_id]);
  });

  it('a file of the wrong kind is validation_failed on cv; a right one then goes through', async () => {
    const { client } = probedClient(live.baseUrl);
    const session = await client.session('uploads');
    const before = await submissionCount(live.svc, 'uploads');
    session.setFiles('cv', [new File([pngFile().slice()], 'cv.pdf', { type: 'application/pdf' })]); // a PNG named .pdf

    const refused = await session.submit();
    expect(refused).toMatchObject({ status: 'validation_failed', success: false });
    expect(refused.errors.fields.cv).toEqual([expect.any(String)]);
    expect(session.errors.fields.cv).toEqual(refused.errors.fields.cv);
    expect(session.files.has('cv')).toBe(true);
    expect(await submissionCount(live.svc, 'uploads')).toBe(before);

    session.setFiles('cv', [pdfFile()]);
    const accepted = await session.submit();
    expect(accepted.status).toBe('submitted');
    expect(await submissionCount(live.svc, 'uploads')).toBe(before + 1);
  });

  it('a multipart submit after the CSRF cookie expired refreshes the token (sent as a field) once', async () => {
    const { client, probe, jar } = probedClient(live.baseUrl);
    const session = await client.session('uploads');
    const stale = await client.csrf();
    jar.clear();
    session.setFiles('cv', [pdfFile()]);
    expect((await session.submit()).status).toBe('submitted');
    const submits = probe.matching('POST', '/uploads/submit');
    expect(submits.map((s) => s.status)).toEqual([400, 200]);
    const fresh = (submits[1]!.body as FormData).get('SVC_CSRF_TOKEN');
    expect(fresh).not.toBe(stale!.value);
    expect(fresh).toBe((await client.csrf())!.value);
  });

  it('setFiles(handle, []) forgets the files: the submit is JSON again', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('uploads');
    session.setFiles('cv', [pdfFile()]);
    session.setFiles('cv', []);
    expect(session.files.size).toBe(0);
    expect((await session.submit()).status).toBe('submitted');
    expect(probe.matching('POST', '/uploads/submit')[0]!.headers.get('content-type')).toBe('application/json');
  });

  it('a multipart submit whose answer was lost is retried with the same key: one submission', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('uploads');
    session.setFiles('cv', [pdfFile()]);
    const before = await submissionCount(live.svc, 'uploads');
    probe.inject(isRequest('POST', '/uploads/submit'), { kind: 'fail-after' });
    const result = await session.submit();
    expect(result.status).toBe('submitted');
    const submits = probe.matching('POST', '/uploads/submit');
    expect(submits.map((s) => s.status)).toEqual(['network error', 200]);
    expect(submits[1]!.headers.get('idempotency-key')).toBe(submits[0]!.headers.get('idempotency-key'));
    expect(await submissionCount(live.svc, 'uploads')).toBe(before + 1);
    const attached = await live.svc.context.database.db.selectFrom('svc_files').selectAll().where('submission_id', '=', result.submission!.id).execute();
    expect(attached).toHaveLength(1);
  });
});

describe('files on a multi-page form (staged.yaml: a required portfolio on page 1)', () => {
  it('a required file field is checked locally; files sent with next() become ids in the values', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('staged');
    const before = probe.requests.length;
    expect(await session.next()).toMatchObject({ status: 'validation_failed', errors: { fields: { portfolio: ['This field is required'] } } });
    expect(probe.requests).toHaveLength(before);

    session.setFiles('portfolio', [pngFile('p1.png', 7), pngFile('p2.png', 8)]);
    const step = await session.next();
    expect(step).toMatchObject({ status: 'page_valid', page: { currentIndex: 1 } });
    expect(probe.matching('POST', '/staged/submit')[0]!.body).toBeInstanceOf(FormData);
    expect(session.files.size).toBe(0);
    const ids = session.values.portfolio as string[];
    expect(ids).toEqual([expect.stringMatching(UPLOAD_ID), expect.stringMatching(UPLOAD_ID)]);

    session.setValue('about', 'Painter');
    const done = await session.submit();
    expect(done.status).toBe('submitted');
    expect(probe.matching('POST', '/staged/submit')[1]!.headers.get('content-type')).toBe('application/json');
    for (const id of ids) expect(await fileRow(id)).toMatchObject({ field_handle: 'portfolio', submission_id: done.submission!.id });
  });

  it('a drag-and-drop upload on page 1 is attached by the final submit', async () => {
    const { client } = probedClient(live.baseUrl);
    const session = await client.session('staged');
    const uploaded = await session.upload('portfolio', pngFile('dd.png', 9));
    expect((await session.next()).status).toBe('page_valid');
    session.setValue('about', 'Sculptor');
    const done = await session.submit();
    expect(done.status).toBe('submitted');
    expect(await fileRow(uploaded.id)).toMatchObject({ submission_id: done.submission!.id });
  });

  it('back() to the page of a file sent by multipart, then next() again, keeps the file', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('staged');
    session.setFiles('portfolio', [pngFile('back.png', 10)]);
    expect((await session.next()).status).toBe('page_valid');
    const ids = session.values.portfolio as string[];
    expect((await session.back()).page.currentIndex).toBe(0);
    expect(session.values.portfolio).toEqual(ids);

    const again = await session.next();
    expect(again.errors).toEqual({ fields: {}, form: [] });
    expect(again).toMatchObject({ status: 'page_valid', page: { currentIndex: 1 } });
    session.setValue('about', 'Back and forth');
    const done = await session.submit();
    expect(done.status).toBe('submitted');
    expect(await fileRow(ids[0]!)).toMatchObject({ submission_id: done.submission!.id });
    expect(probe.matching('POST', '/staged/submit').map((r) => r.status)).toEqual([200, 200, 200, 200]);
  });
});
