/**
 * A session reads the manifest's conditionals as the server normalised them (ruleLayoutFromManifest)
 * instead of turning them back into definitions: both roads must hide the same fields and pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeVisibility, visibilityOf, type Values } from '@svc/core';
import { createTestApp, type TestApp } from '../../server/test/support/test-app.js';
import { formFromManifest, ruleLayoutFromManifest } from '../src/manifest-model.js';
import type { Manifest } from '../src/manifest-types.js';

const CASES: readonly (readonly [string, Values])[] = [
  ['application', {}],
  ['application', { applicantType: 'company' }],
  ['application', { applicantType: 'individual', heardFrom: 'other' }],
  ['donation', { gift: '25' }],
  ['donation', { gift: 'other' }],
  ['kitchen-sink', {}],
  ['kitchen-sink', { checkboxGroup: ['tea'] }],
];

describe('ruleLayoutFromManifest', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({ config: { forms: { watch: false }, headless: { forms: { donation: { exposeManifest: true } } } } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it.each(CASES)('%s with %j hides what computeVisibility over formFromManifest hides', async (handle, values) => {
    const res = await svc.app.inject({ method: 'GET', url: `/svc/api/forms/${handle}/manifest` });
    expect(res.statusCode).toBe(200);
    const manifest = (res.json() as { data: Manifest }).data;
    const form = formFromManifest(manifest);
    const expected = computeVisibility(form, values);
    const actual = visibilityOf(ruleLayoutFromManifest(manifest, form), values);
    expect([...actual.hiddenFields].sort()).toEqual([...expected.hiddenFields].sort());
    expect([...actual.hiddenPages].sort()).toEqual([...expected.hiddenPages].sort());
  });
});
