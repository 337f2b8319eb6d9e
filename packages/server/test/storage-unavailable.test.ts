/**
 * A file store that cannot take a write (issue #32): a disk store whose directory cannot be made
 * (tests run as root, so chmod would not stop a write: the directory sits under a plain file) and
 * an S3 store whose endpoint is a closed port. An upload or a multipart submit answers 503
 * STORAGE_UNAVAILABLE with Retry-After, never 500 INTERNAL, and stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from './support/test-app.js';
import { tinyPng } from './support/sample-files.js';
import { fieldPart, filePart, multipartBody } from './support/multipart-body.js';
import { S3RVER_CREDENTIALS } from './support/s3-server.js';

const FORMS_DIR = resolve(import.meta.dirname, 'fixtures/file-forms');

function formsConfig(files: Record<string, unknown>) {
  return {
    forms: { dir: FORMS_DIR, watch: false },
    headless: { forms: { uploads: { exposeManifest: true, allowSubmit: true } } },
    files,
  };
}

async function upload(svc: TestApp): Promise<LightMyRequestResponse> {
  const { token, cookie } = await svc.csrf();
  const body = multipartBody([filePart('photos', 'me.png', tinyPng(3))]);
  return svc.app.inject({
    method: 'POST',
    url: '/svc/api/forms/uploads/files/photos',
    headers: { ...body.headers, cookie, 'x-csrf-token': token, 'x-svc-upload-token': randomUUID() },
    payload: body.payload,
  });
}

async function multipartSubmit(svc: TestApp): Promise<LightMyRequestResponse> {
  const { token, cookie } = await svc.csrf();
  const body = multipartBody([
    fieldPart('_svc', JSON.stringify({ intent: 'submit', values: { name: 'Ann' } })),
    fieldPart('SVC_CSRF_TOKEN', token),
    filePart('files[photos][]', 'me.png', tinyPng(3)),
  ]);
  return svc.app.inject({ method: 'POST', url: '/svc/api/forms/uploads/submit', headers: { ...body.headers, cookie }, payload: body.payload });
}

async function expectUnavailable(svc: TestApp): Promise<void> {
  for (const res of [await upload(svc), await multipartSubmit(svc)]) {
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toMatchObject({ success: false, code: 'STORAGE_UNAVAILABLE' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  }
  const files = await svc.context.database.db.selectFrom('svc_files').select('id').execute();
  const submissions = await svc.context.database.db.selectFrom('svc_submissions').select('id').execute();
  expect({ files: files.length, submissions: submissions.length }).toEqual({ files: 0, submissions: 0 });
}

describe('a file store that cannot take a write', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-store-down-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('a disk store whose directory cannot be made answers uploads and multipart submits 503 STORAGE_UNAVAILABLE with Retry-After', async () => {
    const blocker = join(dir, 'not-a-directory');
    writeFileSync(blocker, 'a file where the store wants a directory');
    const lines: string[] = [];
    const svc = await createTestApp({ config: formsConfig({ dir: join(blocker, 'files') }), logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } } });
    try {
      await expectUnavailable(svc);
      // The client hears only the code; the operator's log says why the disk refused.
      const logged = lines.filter((line) => line.includes('file store cannot take a write'));
      expect(logged.length).toBeGreaterThan(0);
      expect(logged[0]).toMatch(/ENOTDIR|EEXIST|ENOENT/);
    } finally {
      await svc.close();
    }
  });

  it('an S3 store that cannot be reached answers uploads and multipart submits 503 STORAGE_UNAVAILABLE with Retry-After', async () => {
    const svc = await createTestApp({
      config: formsConfig({ store: 's3', s3: { bucket: 'svc-down', endpoint: 'http://127.0.0.1:1', forcePathStyle: true, ...S3RVER_CREDENTIALS } }),
    });
    try {
      await expectUnavailable(svc);
    } finally {
      await svc.close();
    }
  });
});
