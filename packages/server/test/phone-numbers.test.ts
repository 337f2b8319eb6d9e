/**
 * Phone numbers as people type them (issue #31 item 12c): the submit stores one canonical form,
 * E.164, read in the field's `defaultCountry` when the number has no `+`; what is no number is
 * refused with the field's message, never stored.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from '@svc/core';
import { findSubmission } from '../src/submissions/submission-repository.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const PHONE_YAML = `name: Phone
settings:
  spam: { honeypot: false, javascriptTest: false }
fields:
  - { type: phone, handle: phone, label: Phone, required: true }
  - { type: phone, handle: office, label: Office, defaultCountry: GB }
  - { type: phone, handle: masked, label: Masked, pattern: "(000) 000-0000" }
`;

describe('phone numbers', () => {
  let svc: TestApp;
  let formsDir: string;

  beforeAll(async () => {
    formsDir = mkdtempSync(join(tmpdir(), 'svc-phone-forms-'));
    writeFileSync(join(formsDir, 'phone.yaml'), PHONE_YAML);
    svc = await createTestApp({ config: { forms: { dir: formsDir }, headless: { forms: { phone: { exposeManifest: true, allowSubmit: true } } } } });
  });
  afterAll(async () => {
    await svc?.close();
    if (formsDir) rmSync(formsDir, { recursive: true, force: true });
  });

  it.each(['5551234567', '555 123 4567', '555-123-4567', '(555) 123-4567', '+1 555 123 4567'])('"%s" is stored as +15551234567', async (typed) => {
    const res = await svc.submit('phone', { intent: 'submit', values: { phone: typed } });
    expect(res.statusCode, res.body).toBe(200);
    const stored = await findSubmission(svc.context.database.db, res.json().submission.id, svc.context.sealer);
    expect(stored?.values.phone).toBe('+15551234567');
  });

  it('reads a number without + in the field defaultCountry, and keeps a pattern field as typed', async () => {
    const res = await svc.submit('phone', { intent: 'submit', values: { phone: '+44 20 7946 0958', office: '020 7946 0958', masked: '(555) 123-4567' } });
    expect(res.statusCode, res.body).toBe(200);
    const stored = await findSubmission(svc.context.database.db, res.json().submission.id, svc.context.sealer);
    expect(stored?.values).toMatchObject({ phone: '+442079460958', office: '+442079460958', masked: '(555) 123-4567' });
  });

  it('refuses what is no phone number with the field message', async () => {
    const res = await svc.submit('phone', { intent: 'submit', values: { phone: 'call me maybe' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.fields).toEqual({ phone: [FIELD_MESSAGES.invalidPhone] });
  });
});
