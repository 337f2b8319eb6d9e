/** The manifest turned back into @svc/core's model normalises exactly as the server does. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseFieldValue } from '@svc/core';
import { createTestApp, type TestApp } from '../../server/test/support/test-app.js';
import { formFromManifest } from '../src/manifest-model.js';
import type { Manifest } from '../src/manifest-types.js';

describe('formFromManifest', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({ config: { forms: { watch: false } } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it("keeps a checkbox's checked value, so a ticked box means what the server stores", async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/svc/api/forms/application/manifest' });
    const manifest = (res.json() as { data: Manifest }).data;
    const client = formFromManifest(manifest).byHandle.get('agree');
    const server = svc.context.forms.get('application')?.fields.find((f) => f.handle === 'agree');
    expect(client && server).toBeTruthy();
    for (const raw of [true, 'yes', '1', false, null]) {
      expect(normaliseFieldValue(client as never, raw)).toEqual(normaliseFieldValue(server as never, raw));
    }
    expect(normaliseFieldValue(client as never, true)).toEqual({ ok: true, value: 'yes' });
  });
});
