/** The example forms and config are what a newcomer runs first (`npm start`): they must be complete (issue #11). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { missingTemplates } from '../src/notifications/template-check.js';
import { createTestApp, EXAMPLE_FORMS_DIR, type TestApp } from './support/test-app.js';

const TEMPLATES = resolve(EXAMPLE_FORMS_DIR, '../templates');

describe('the examples', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({ config: { notifications: { templatesDir: TEMPLATES } } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('load every form file of examples/forms', () => {
    const files = readdirSync(EXAMPLE_FORMS_DIR).filter((f) => f.endsWith('.yaml'));
    expect(svc.context.forms.list().map((f) => `${f.handle}.yaml`).sort()).toEqual(files.sort());
  });

  it('name only email templates that examples/templates has', () => {
    expect(missingTemplates(svc.context.forms.list(), TEMPLATES)).toEqual([]);
  });
});
