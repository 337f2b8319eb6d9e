/** GET /svc/api/forms/{handle}/manifest (contract §2) and the identities it carries. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIELD_TYPES, fieldTypeFromWire } from '@svc/core';
import { buildApp } from '../src/app.js';
import { createTestApp, EXAMPLE_FORMS_DIR, testConfig, type TestApp } from './support/test-app.js';

describe('the manifest', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp();
  });
  afterAll(async () => {
    await svc?.close();
  });

  const get = (handle: string, headers: Record<string, string> = {}) =>
    svc.app.inject({ method: 'GET', url: `/svc/api/forms/${handle}/manifest`, headers });

  it('answers the envelope with the compatibility block and the form', async () => {
    const res = await get('contact');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.meta).toEqual({ pluginVersion: '0.1.0' });
    expect(body.data).toMatchObject({
      schemaVersion: '1.0',
      pluginVersion: '0.1.0',
      minimumClientVersion: '0.1.0',
      generatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      form: { id: expect.any(Number), uid: expect.any(String), handle: 'contact', name: 'Contact', multiPage: false },
      endpoints: {
        manifest: { method: 'GET', url: '/svc/api/forms/contact/manifest' },
        submit: { method: 'POST', url: '/svc/api/forms/contact/submit', encodings: ['application/json', 'multipart/form-data'] },
        csrf: { method: 'GET', url: '/svc/tokens', required: true },
      },
      settings: { ajaxEnabled: true, successBehavior: 'message', successMessage: 'Thanks, we got your message.', returnUrl: null },
      cache: { visibility: 'public', maxAge: 300 },
      metadata: {},
    });
  });

  it('lists fields keyed by handle with the contract field shape, and layout rows by handle', async () => {
    const { data } = (await get('contact')).json();
    expect(Object.keys(data.fields)).toEqual(['firstName', 'lastName', 'email', 'message']);
    expect(data.fields.email).toMatchObject({
      id: expect.any(Number), uid: expect.any(String), hash: expect.any(String), handle: 'email', type: 'email',
      label: expect.any(String), required: true, pageIndex: 0, options: null, validation: expect.any(Object), config: expect.any(Object),
    });
    expect(data.fields.message.validation).toEqual({ maxLength: 500 });
    const rows = data.layout.pages[0].rows.flatMap((r: { fields: string[] }) => r.fields);
    expect(rows).toEqual(['firstName', 'lastName', 'email', 'message']);
    expect(data.layout.pages[0].buttons).toMatchObject({ submit: { label: 'Send' }, back: null, save: null });
  });

  it('gives each page of a multi-page form its buttons', async () => {
    const { data } = (await get('application')).json();
    expect(data.form.multiPage).toBe(true);
    const buttons = data.layout.pages.map((p: { buttons: unknown }) => p.buttons);
    expect(buttons[0]).toMatchObject({ submit: { label: 'Next' }, back: null });
    expect(buttons[1]).toMatchObject({ submit: { label: 'Next' }, back: { label: 'Back' } });
    expect(buttons[2]).toMatchObject({ submit: { label: 'Apply' }, back: { label: 'Back' } });
  });

  it('translates rules into the conditionals block', async () => {
    const { data } = (await get('application')).json();
    expect(data.conditionals.fields).toEqual([
      { target: 'heardFromOther', action: 'show', logic: 'all', conditions: [{ field: 'heardFrom', operator: 'equals', value: 'other' }] },
    ]);
    expect(data.conditionals.pages).toEqual([
      { target: '1', action: 'show', logic: 'all', conditions: [{ field: 'applicantType', operator: 'equals', value: 'company' }] },
    ]);
    expect(data.conditionals.buttons).toEqual([]);
    expect(data.conditionals.submit).toEqual([]);
  });

  it('lists only the security entries that are on', async () => {
    const contact = (await get('contact')).json().data.security;
    expect(contact.csrf).toMatchObject({ required: true, tokenEndpoint: '/svc/tokens', submitAs: { json: 'header', multipart: 'field' } });
    expect(contact.honeypot.name).toMatch(/^svc_hp_/);
    expect(contact.javascriptTest).toEqual({ name: expect.stringMatching(/^svc_js_/), value: expect.any(String) });
    expect(contact.captchas).toEqual([]);
    const application = (await get('application')).json().data.security;
    expect(application.honeypot).toBeDefined();
    expect(application).not.toHaveProperty('javascriptTest');
  });

  it('carries every key the official client reads, shaped as Freeform 5 shapes them (contract §2, §12)', async () => {
    const { data } = (await get('application')).json();
    expect(data.site).toEqual({ id: 1, handle: 'default', language: 'en-US', baseUrl: '' });
    expect(data.form).toMatchObject({ type: 'regular', multiPage: true });
    expect(data.settings).toMatchObject({ multiPage: true, ajax: true, mode: 'public' });
    expect(data.endpoints.submit.defaultEncoding).toBe('application/json');
    expect(data.requiredExtensions).toEqual([]);
    const pages = data.layout.pages as { id: number; index: number; buttons: Record<string, unknown>; rows: { id: string; uid: string }[] }[];
    expect(pages.map((p) => p.id)).toEqual([1, 2, 3]);
    // The official Next button is labelled by `buttons.submit`, so every page has one; `next` is null.
    for (const page of pages) {
      expect(page.buttons).toMatchObject({ submit: { label: expect.any(String) }, next: null, save: null });
      for (const row of page.rows) expect(row.uid).toBe(row.id);
    }
    expect(pages[0]?.buttons.back).toBeNull();
    expect(pages[1]?.buttons.back).toEqual({ label: expect.any(String) });
    const field = data.fields.applicantType;
    expect(field).toMatchObject({ type: 'radios', requiredMessage: 'This field is required', frontend: { renderer: 'radios', extension: null } });
    expect(field.attributes).toMatchObject({ container: {}, label: {}, input: {} });
    expect(field.options[0]).toEqual({ value: expect.any(String), label: expect.any(String), checked: expect.any(Boolean), default: expect.any(Boolean), disabled: false });
  });

  it('offers drag and drop as Freeform\'s file-dnd with its upload URLs, and the save button a submit field enables', async () => {
    const app = await createTestApp({ config: { headless: { forms: { 'job-application': { exposeManifest: true, allowSubmit: true } } } } });
    try {
      const { data } = (await app.app.inject({ method: 'GET', url: '/svc/api/forms/job-application/manifest' })).json();
      expect(data.fields.portfolio).toMatchObject({
        type: 'file-dnd',
        frontend: {
          renderer: 'file-dnd',
          extension: 'file-dnd',
          config: {
            uploadUrl: '/svc/api/forms/job-application/files/portfolio',
            deleteUrl: '/svc/api/forms/job-application/files/portfolio/delete',
            maxFiles: 3,
            multiple: true,
            maxFileSizeBytes: 10240 * 1024,
            accept: 'image/*',
          },
        },
      });
      expect(data.fields.cv).toMatchObject({ type: 'file', frontend: { renderer: 'file', extension: null } });
      expect(data.fields.cv.frontend.config).not.toHaveProperty('uploadUrl');
      expect(data.endpoints.submit.defaultEncoding).toBe('multipart/form-data');
      expect(data.requiredExtensions).toEqual([{ name: 'file-dnd', package: '@solspace/freeform-extensions', version: '^0.1.0', severity: 'warning', fallback: 'native' }]);
      for (const page of data.layout.pages) expect(page.buttons.save).toEqual({ label: 'Save and continue later' });
    } finally {
      await app.close();
    }
  });

  it('shows every field type of the interface in the kitchen-sink manifest', async () => {
    const { data } = (await get('kitchen-sink')).json();
    // contract §2: Freeform 5's type names on the wire, each read back as svc's own.
    const types = new Set(Object.values(data.fields as Record<string, { type: string }>).map((f) => fieldTypeFromWire(f.type)));
    // A payment field makes a form a paid one; `donation` shows that type (payments.test.ts).
    for (const type of FIELD_TYPES.filter((t) => t !== 'submit' && t !== 'payment')) expect(types).toContain(type);
    expect(data.fields.department.type).toBe('dynamic-recipients');
    expect(data.fields.emailConfirm.config.targetFieldHash).toBe(data.fields.email.hash);
    expect(JSON.parse(data.fields.table.config.tableLayout)).toHaveLength(3);
    expect(data.fields.number.config).toMatchObject({ decimalSeparator: expect.any(String) });
    expect(data.fields.file.validation).toMatchObject({ fileKinds: ['image', 'pdf'], maxFileSizeKB: 2048, fileCount: 2 });
  });

  it('never reveals dynamic-recipient addresses, only option values', async () => {
    const res = await get('kitchen-sink');
    const options = res.json().data.fields.department.options;
    for (const option of options) expect(Object.keys(option).sort()).toEqual(['checked', 'default', 'disabled', 'label', 'value']);
    const addresses = ['sales@example.test', 'support@example.test', 'oncall@example.test'];
    const source = readFileSync(join(EXAMPLE_FORMS_DIR, 'kitchen-sink.yaml'), 'utf8');
    for (const address of addresses) {
      expect(source).toContain(address);
      expect(res.body).not.toContain(address);
    }
  });

  it('sends caching headers and answers 304 to a matching If-None-Match', async () => {
    const first = await get('contact');
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    expect(first.headers.vary).toBe('Origin');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const cached = await get('contact', { 'if-none-match': etag });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    expect((await get('contact', { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });
});

describe('form identities', () => {
  it('keeps ids, uids, hashes and the ETag across restarts, and keeps a field id when its label changes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-identity-'));
    const formsDir = mkdtempSync(join(tmpdir(), 'svc-forms-'));
    cpSync(join(EXAMPLE_FORMS_DIR, 'contact.yaml'), join(formsDir, 'contact.yaml'));
    const config = testConfig({ config: { forms: { dir: formsDir } } }, dataDir);
    const read = async () => {
      const svc = await buildApp(config, { logger: false });
      try {
        const res = await svc.app.inject({ method: 'GET', url: '/svc/api/forms/contact/manifest' });
        return { data: res.json().data, etag: res.headers.etag };
      } finally {
        await svc.close();
      }
    };
    try {
      const first = await read();
      const second = await read();
      expect(second.data.form).toEqual(first.data.form);
      expect(second.data.fields).toEqual(first.data.fields);
      expect(second.etag).toBe(first.etag);

      const file = join(formsDir, 'contact.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/label: Email/, 'label: Your email'));
      const edited = await read();
      expect(edited.data.fields.email.label).toBe('Your email');
      expect(edited.data.fields.email.id).toBe(first.data.fields.email.id);
      expect(edited.data.fields.email.hash).toBe(first.data.fields.email.hash);
      expect(edited.etag).not.toBe(first.etag);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(formsDir, { recursive: true, force: true });
    }
  });

  it('refuses to start on an invalid form with the full report', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-invalid-'));
    const formsDir = mkdtempSync(join(tmpdir(), 'svc-forms-'));
    writeFileSync(join(formsDir, 'broken.yaml'), 'name: Broken\nfields:\n  - { type: text, label: No handle }\n  - { type: nope, handle: x, label: X }\n');
    try {
      await expect(buildApp(testConfig({ config: { forms: { dir: formsDir } } }, dataDir), { logger: false })).rejects.toThrow(
        /Invalid form definitions:[\s\S]*broken\.yaml[\s\S]*fields\[0\][\s\S]*fields\[1\]/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(formsDir, { recursive: true, force: true });
    }
  });
});
