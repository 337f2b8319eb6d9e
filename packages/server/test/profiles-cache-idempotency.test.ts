/**
 * Profiles (issue #31 item 6, contract §9): the profile manifest's Cache-Control header and its
 * body's `cache` block come from the profile's `cache`, and the profile submit honours the
 * `Idempotency-Key` header as the plain submit does (contract §4).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.js';
import { startJwksServer, type JwksServer } from './support/jwks-server.js';

const ISSUER = 'https://id.example.test';
const AUDIENCE = 'svc-tests';
const PERSON = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hello' };

describe('profile manifest caching and profile submit idempotency', () => {
  let svc: TestApp;
  let jwks: JwksServer;
  beforeAll(async () => {
    jwks = await startJwksServer();
    svc = await createTestApp({
      config: {
        headless: {
          profiles: {
            plain: { form: 'contact', properties: { topic: { type: 'string' } } },
            shared: { form: 'contact', cache: 'public, max-age=60' },
            member: { form: 'contact', requiresAuth: true, cache: 'public, max-age=60, s-maxage=600' },
            revalidated: { form: 'contact', cache: 'no-cache' },
          },
        },
        auth: { issuers: [{ issuer: ISSUER, audience: AUDIENCE, jwksUrl: jwks.url }] },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
    await jwks?.close();
  });

  async function manifest(profile: string, headers: Record<string, string> = {}) {
    const res = await svc.app.inject({ method: 'GET', url: `/svc/api/manifests/${profile}/manifest`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return { header: res.headers['cache-control'], vary: res.headers['vary'], block: res.json<{ data: { cache: unknown } }>().data.cache };
  }

  describe('the cache block and the Cache-Control header say the same thing', () => {
    it('keeps nothing by default: no-store, and a block with visibility no-store and maxAge 0', async () => {
      expect(await manifest('plain')).toMatchObject({ header: 'no-store', block: { visibility: 'no-store', maxAge: 0 } });
    });

    it("follows a public profile's max-age in both", async () => {
      expect(await manifest('shared')).toMatchObject({ header: 'public, max-age=60', block: { visibility: 'public', maxAge: 60 } });
    });

    it('makes a profile that needs a token private in both, without the shared-cache lifetime', async () => {
      const token = await jwks.sign({ iss: ISSUER, aud: AUDIENCE, sub: 'member-1', email: 'kim@example.test' });
      const answer = await manifest('member', { authorization: `Bearer ${token}` });
      expect(answer).toMatchObject({ header: 'private, max-age=60', block: { visibility: 'private', maxAge: 60 } });
      expect(answer.vary).toContain('Authorization');
    });

    it('gives maxAge 0 to a copy that must be checked before every use', async () => {
      expect(await manifest('revalidated')).toMatchObject({ header: 'public, no-cache', block: { visibility: 'public', maxAge: 0 } });
    });

    it('refuses at boot a cache value that is no Cache-Control, naming the key', async () => {
      const boot = createTestApp({ config: { headless: { profiles: { odd: { form: 'contact', cache: 'max-age=soon' } } } } });
      await expect(boot).rejects.toThrow(/headless\.profiles\.odd\.cache: "max-age=soon" is not a Cache-Control value/);
    });
  });

  describe('Idempotency-Key on the profile submit', () => {
    async function submit(body: Record<string, unknown>, key: string) {
      const { token, cookie } = await svc.csrf();
      return svc.app.inject({
        method: 'POST',
        url: '/svc/api/manifests/plain/submit',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie, 'idempotency-key': key },
        payload: JSON.stringify({ intent: 'submit', meta: await svc.meta('contact'), ...body }),
      });
    }
    async function stored(): Promise<number> {
      const row = await svc.context.database.db.selectFrom('svc_submissions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    }

    it('replays the first answer for the same key and body, storing one submission', async () => {
      const before = await stored();
      const first = await submit({ values: PERSON, properties: { topic: 'billing' } }, 'profile-key-1');
      expect(first.statusCode, first.body).toBe(200);
      const again = await submit({ values: PERSON, properties: { topic: 'billing' } }, 'profile-key-1');
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json<{ submission: { id: number } }>().submission.id).toBe(first.json<{ submission: { id: number } }>().submission.id);
      expect(await stored()).toBe(before + 1);
    });

    it.each([
      ['other values', 'profile-key-2', { values: { ...PERSON, message: 'Changed' }, properties: { topic: 'billing' } }],
      ['other properties', 'profile-key-3', { values: PERSON, properties: { topic: 'sales' } }],
    ])('answers 409 IDEMPOTENCY_CONFLICT for the same key with %s', async (_what, key, body) => {
      const first = await submit({ values: PERSON, properties: { topic: 'billing' } }, key);
      expect(first.statusCode, first.body).toBe(200);
      const before = await stored();
      const conflict = await submit(body, key);
      expect(conflict.statusCode, conflict.body).toBe(409);
      expect(conflict.json()).toMatchObject({ success: false, code: 'IDEMPOTENCY_CONFLICT' });
      expect(await stored()).toBe(before);
    });

    it('refuses a key that is no usable key with 400 PAYLOAD_INVALID', async () => {
      const res = await submit({ values: PERSON }, 'has spaces in it');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'PAYLOAD_INVALID' });
    });
  });
});
