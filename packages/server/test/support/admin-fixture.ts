/**
 * What the admin API, export and retention suites share: the admin-forms fixtures, a set of API
 * keys (stored as their SHA-256, as an operator would configure them), direct seeding through the
 * submission repository with controlled timestamps, and a real multipart submit with a file.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { Values } from '@svc/core';
import { insertSubmission, type NewSubmission } from '../../src/submissions/submission-repository.js';
import { createTestApp, type TestApp } from './test-app.js';
import { fieldPart, filePart, multipartBody } from './multipart-body.js';
import { tinyPng } from './sample-files.js';

export const ADMIN_FORMS_DIR = resolve(import.meta.dirname, '../fixtures/admin-forms');

const key = () => `svc_${randomBytes(24).toString('base64url')}`;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** Plain keys a client sends; the config holds only their hashes. */
export const KEYS = {
  admin: key(),
  reader: key(),
  notesWriter: key(),
  otherReader: key(),
} as const;

export const ADMIN_KEYS_CONFIG = [
  { name: 'admin', sha256: sha(KEYS.admin), scopes: ['read', 'write'], forms: ['*'] },
  { name: 'reader', sha256: sha(KEYS.reader), scopes: ['read'], forms: ['*'] },
  { name: 'notes-writer', sha256: sha(KEYS.notesWriter), scopes: ['read', 'write'], forms: ['notes'] },
  { name: 'other-reader', sha256: sha(KEYS.otherReader), scopes: ['read'], forms: ['other'] },
];

/** A valid 1×1 PNG (sniffed as an image). */
export const PNG = tinyPng();

export async function createAdminTestApp(options: { url: string | null; now?: () => Date; config?: Record<string, unknown> }): Promise<TestApp> {
  return createTestApp({
    config: {
      database: { url: options.url },
      forms: { dir: ADMIN_FORMS_DIR, watch: false },
      headless: {
        forms: {
          notes: { exposeManifest: true, allowSubmit: true },
          other: { exposeManifest: true, allowSubmit: true },
          keep: { exposeManifest: true, allowSubmit: true },
        },
      },
      admin: { keys: ADMIN_KEYS_CONFIG },
      ...options.config,
    },
    ...(options.now ? { now: options.now } : {}),
  });
}

export interface SeedRow {
  readonly values?: Values;
  readonly title?: string;
  readonly status?: string;
  readonly isSpam?: boolean;
  readonly createdAt: string;
}

/** Inserts one submission row as the submit pipeline would store it; returns its id. */
export async function seed(svc: TestApp, handle: string, row: SeedRow): Promise<number> {
  const form = svc.context.forms.get(handle);
  if (!form) throw new Error(`no form ${handle}`);
  const submission: NewSubmission = {
    uid: randomUUID(),
    formId: form.id,
    tokenHash: sha(randomUUID()),
    title: row.title ?? '',
    status: row.status ?? 'open',
    isSpam: row.isSpam ?? false,
    spamReasons: row.isSpam ? ['honeypot'] : [],
    ip: null,
    values: row.values ?? {},
    createdAt: row.createdAt,
  };
  return insertSubmission(svc.context.database.db, submission);
}

export function adminGet(svc: TestApp, url: string, apiKey: string | null = KEYS.admin): Promise<LightMyRequestResponse> {
  return svc.app.inject({ method: 'GET', url, headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} });
}

export function adminSend(svc: TestApp, method: 'PATCH' | 'DELETE', url: string, body: unknown, apiKey: string = KEYS.admin): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return svc.app.inject({ method, url, headers, ...(body !== undefined ? { payload: JSON.stringify(body) } : {}) });
}

/** A multipart submit to `notes` with files for `attachment` (and a table row with a letter). */
export async function submitWithFiles(
  svc: TestApp,
  values: Record<string, unknown>,
  files: readonly { field: string; name: string; data: Buffer }[],
): Promise<number> {
  const { token, cookie } = await svc.csrf();
  const body = multipartBody([
    fieldPart('_svc', JSON.stringify({ intent: 'submit', values })),
    fieldPart('SVC_CSRF_TOKEN', token),
    ...files.map((f) => filePart(f.field, f.name, f.data, 'image/png')),
  ]);
  const res = await svc.app.inject({ method: 'POST', url: '/svc/api/forms/notes/submit', headers: { ...body.headers, cookie }, payload: body.payload });
  if (res.statusCode !== 200) throw new Error(`submit failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { submission: { id: number } }).submission.id;
}
