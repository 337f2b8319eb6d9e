/** A session checks locally in its manifest's site language (issue #34), or the one a page sets. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../server/test/support/test-app.js';
import { FormSession } from '../src/form-session.js';
import type { SessionClient } from '../src/client-types.js';
import type { Manifest } from '../src/manifest-types.js';

describe('FormSession language', () => {
  let svc: TestApp;
  let manifest: Manifest;
  beforeAll(async () => {
    svc = await createTestApp({ config: { forms: { watch: false } } });
    const res = await svc.app.inject({ method: 'GET', url: '/svc/api/forms/contact/manifest' });
    manifest = (res.json() as { data: Manifest }).data;
  });
  afterAll(async () => {
    await svc?.close();
  });

  // Local checks never reach the client, so none is needed.
  const session = (site: Manifest['site']) => new FormSession({} as SessionClient, { ...manifest, site });

  it('follows site.language, and a language set later', () => {
    const english = session(manifest.site);
    english.setValue('email', 'nope');
    expect(english.language).toBe(manifest.site?.language);
    expect(english.validate('form')).toMatchObject({ firstName: ['This field is required'], email: ['Enter a valid email address'] });

    const german = session({ id: 2, handle: 'de', language: 'de-DE', baseUrl: '' });
    german.setValue('email', 'nope');
    expect(german.validate('form')).toMatchObject({ firstName: ['Dieses Feld ist erforderlich'], email: ['Geben Sie eine gültige E-Mail-Adresse ein'] });
    german.language = 'ar';
    expect(german.validate('form')).toMatchObject({ firstName: ['هذا الحقل مطلوب'] });
  });

  it('speaks English when the manifest names no site', () => {
    expect(session(undefined).language).toBe('en');
    expect(session(undefined).validate('form')).toMatchObject({ firstName: ['This field is required'] });
  });
});
