/**
 * A resumed draft names its files (issue #31 item 12b): the answer that loads a draft carries
 * `state.files`, the uploads its values hold by field handle with the name, extension and size they
 * were uploaded with, so a browser that did not upload them can list them. Only the draft's own
 * uploads are named; answers without a draft are as they were.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { SubmitBody } from '../src/submissions/submit-response.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';
import { paddedPdf, tinyPng } from './support/sample-files.js';
import { fieldPart, filePart, multipartBody } from './support/multipart-body.js';

const FORMS_DIR = resolve(import.meta.dirname, 'fixtures/file-forms');

describeEachDialect('the files of a resumed draft', (target) => {
  let svc: TestApp;

  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        database: { url: target.url() },
        forms: { dir: FORMS_DIR, watch: false },
        headless: { forms: { uploads: { exposeManifest: true, allowSubmit: true } } },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  /** A drag-and-drop upload under `token`; answers the upload's id. */
  async function upload(field: string, filename: string, data: Buffer, token: string): Promise<string> {
    const { token: csrf, cookie } = await svc.csrf();
    const body = multipartBody([filePart(field, filename, data)]);
    const res = await svc.app.inject({
      method: 'POST',
      url: `/svc/api/forms/uploads/files/${field}`,
      headers: { ...body.headers, cookie, 'x-csrf-token': csrf, 'x-svc-upload-token': token },
      payload: body.payload,
    });
    if (res.statusCode !== 200) throw new Error(`upload of ${filename}: ${res.statusCode} ${res.body}`);
    return res.json<{ data: { id: string } }>().data.id;
  }

  const body = (res: LightMyRequestResponse) => res.json<SubmitBody>();

  it('the answer that loads a draft lists its uploads by field with name, extension and size', async () => {
    const token = randomUUID();
    const photo = tinyPng(311);
    const letter = paddedPdf(900);
    const photoId = await upload('photos', 'photo.png', photo, token);
    // The table's letter travels with the draft itself, as a multipart part of its cell.
    const { token: csrf, cookie } = await svc.csrf();
    const parts = multipartBody([
      fieldPart('_svc', JSON.stringify({ intent: 'saveDraft', values: { name: 'Drafty', photos: [photoId], refs: [['Ann']] }, context: { uploadToken: token } })),
      fieldPart('SVC_CSRF_TOKEN', csrf),
      filePart('files[refs][0][1][]', 'letter.pdf', letter, 'application/pdf'),
    ]);
    const saved = await svc.app.inject({ method: 'POST', url: '/svc/api/forms/uploads/submit', headers: { ...parts.headers, cookie }, payload: parts.payload });
    expect(saved.statusCode, saved.body).toBe(200);
    const draft = body(saved).draft as { token: string; key: string };
    expect(body(saved).state.files).toBeUndefined();
    const letterId = ((body(saved).state.values.refs as unknown[][])[0]?.[1] as string[])[0];

    // Resumed elsewhere: another CSRF cookie, no upload token, only the draft's token and key.
    const resumed = await svc.submit('uploads', { intent: 'validate', values: {}, context: { draftToken: draft.token, draftKey: draft.key } });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(body(resumed).state.values).toMatchObject({ photos: [photoId] });
    expect(body(resumed).state.files).toEqual({
      photos: [{ id: photoId, name: 'photo.png', extension: 'png', size: photo.length }],
      refs: [{ id: letterId, name: 'letter.pdf', extension: 'pdf', size: letter.length }],
    });
  });

  it('names only the draft’s own uploads, and nothing once they are attached or without a draft', async () => {
    const token = randomUUID();
    const held = await upload('photos', 'held.png', tinyPng(312), token);
    const saved = await svc.submit('uploads', { intent: 'saveDraft', values: { photos: [held] }, context: { uploadToken: token } });
    const draft = body(saved).draft as { token: string; key: string };

    // Another client's upload posted alongside the draft is refused, and its name is not told.
    const foreign = await upload('anything', 'secret-plan.png', tinyPng(313), randomUUID());
    const mixed = await svc.submit('uploads', { intent: 'validate', values: { anything: [foreign] }, context: { draftToken: draft.token, draftKey: draft.key } });
    expect(JSON.stringify(body(mixed))).not.toContain('secret-plan');
    expect(body(mixed).state.files).toEqual({ photos: [expect.objectContaining({ id: held, name: 'held.png' })] });

    const plain = await svc.submit('uploads', { intent: 'validate', values: { photos: [held] }, context: { uploadToken: token } });
    expect(body(plain).state).not.toHaveProperty('files');

    const done = await svc.submit('uploads', { intent: 'submit', values: {}, context: { draftToken: draft.token, draftKey: draft.key } });
    expect(body(done).status, done.body).toBe('submitted');
    expect(body(done).state).not.toHaveProperty('files');
  });
});
