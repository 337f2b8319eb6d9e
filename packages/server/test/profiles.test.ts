/**
 * Named profiles (issue #13, contract §9): typed properties, bearer JWTs from a JWKS on loopback,
 * links svc signs itself (single-use ones spent exactly once), and the context that locks, hides
 * and prefills fields, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { generateKeyPair, SignJWT, exportSPKI } from 'jose';
import { describeEachDialect } from './support/dialects.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { startJwksServer, type JwksServer } from './support/jwks-server.js';
import { postGraphql } from './support/graphql-client.js';
import type { ProfileFeature } from '../src/profiles/profiles-feature.js';
import { findSubmission } from '../src/submissions/submission-repository.js';


const ISSUER = 'https://id.example.test';
const AUDIENCE = 'svc-tests';
const ADMIN_KEY = 'svc_profiles_admin_key_0123456789abcdef';
const WRITER_KEY = 'svc_profiles_writer_key_0123456789abcdef';
const PERSON = { firstName: 'Posted', lastName: 'Posted', email: 'posted@example.test', message: 'Hello' };

function profilesConfig(jwksUrl: string) {
  return {
    headless: {
      profiles: {
        open: {
          form: 'contact',
          properties: { topic: { type: 'string', required: true }, page: { type: 'integer' }, vip: { type: 'boolean' } },
          context: { defaultValues: { message: 'About {{ properties.topic }}' } },
          cache: 'public, max-age=60',
        },
        member: {
          form: 'contact',
          requiresAuth: true,
          context: { lockedFields: { email: '{{ user.email }}' }, defaultValues: { firstName: '{{ user.given_name }}' }, hiddenFields: { lastName: '{{ user.family_name }}' } },
        },
        feedback: {
          form: 'contact',
          requiresSignedToken: true,
          singleUse: true,
          properties: { eventId: { type: 'integer', required: true } },
          context: { lockedFields: { message: 'Feedback on event {{ properties.eventId }}' } },
          linkTemplate: 'https://events.example.test/feedback?token={token}',
        },
        closed: { form: 'contact', allowSubmit: false },
      },
    },
    auth: { issuers: [{ issuer: ISSUER, audience: AUDIENCE, jwksUrl }], jwksCooldownSeconds: 0 },
    admin: {
      keys: [
        { name: 'test', sha256: createHash('sha256').update(ADMIN_KEY).digest('hex'), scopes: ['read'], forms: ['*'] },
        { name: 'writer', sha256: createHash('sha256').update(WRITER_KEY).digest('hex'), scopes: ['read', 'write'], forms: ['contact'] },
      ],
    },
  };
}

describeEachDialect('named profiles', (target) => {
  let svc: TestApp;
  let jwks: JwksServer;
  let links: ProfileFeature['links'];
  beforeAll(async () => {
    jwks = await startJwksServer();
    svc = await createTestApp({ config: { database: { url: target.url() }, ...profilesConfig(jwks.url) } });
    links = svc.context.profiles.links;
  });
  afterAll(async () => {
    await svc?.close();
    await jwks?.close();
  });

  const manifest = (profile: string, query = '', headers: Record<string, string> = {}) =>
    svc.app.inject({ method: 'GET', url: `/svc/api/manifests/${profile}/manifest${query}`, headers });
  async function submit(profile: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
    const { token, cookie } = await svc.csrf();
    return svc.app.inject({
      method: 'POST',
      url: `/svc/api/manifests/${profile}/submit`,
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie, ...headers },
      payload: JSON.stringify({ intent: 'submit', meta: await svc.meta('contact'), ...body }),
    });
  }
  const member = (claims: Record<string, unknown> = {}, options?: Parameters<JwksServer['sign']>[1]) =>
    jwks.sign({ iss: ISSUER, aud: AUDIENCE, sub: 'member-42', email: 'kim@example.test', given_name: 'Kim', family_name: 'Member', ...claims }, options);
  async function stored(id: number) {
    const row = await findSubmission(svc.context.database.db, id, svc.context.sealer);
    if (!row) throw new Error(`submission ${id} is not stored`);
    return { values: row.values as Record<string, unknown>, profile: row.profile as Record<string, unknown> | null };
  }

  describe('properties', () => {
    it('answers the profile manifest with mode, endpoints, metadata and context', async () => {
      const res = await manifest('open', '?properties[topic]=billing&properties[page]=3&properties[vip]=true');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      const data = res.json<{ data: Record<string, any> }>().data;
      expect(data.settings.mode).toBe('profile');
      expect(data.endpoints.submit.url).toBe('/svc/api/manifests/open/submit');
      expect(data.metadata).toEqual({ profile: 'open', properties: { topic: 'billing', page: 3, vip: true } });
      expect(data.context.defaultValues).toEqual({ message: 'About billing' });
      expect(data.fields.message.defaultValue).toBe('About billing');
    });

    it.each([
      ['an unknown profile', '/svc/api/manifests/nope/manifest', 'PROFILE_NOT_FOUND'],
      ['a missing required property', '/svc/api/manifests/open/manifest', 'PROFILE_PROPERTY_INVALID'],
      ['an undeclared property', '/svc/api/manifests/open/manifest?properties[topic]=a&properties[other]=b', 'PROFILE_PROPERTY_INVALID'],
      ['an ill-typed integer', '/svc/api/manifests/open/manifest?properties[topic]=a&properties[page]=3.5', 'PROFILE_PROPERTY_INVALID'],
      ['an ill-typed boolean', '/svc/api/manifests/open/manifest?properties[topic]=a&properties[vip]=maybe', 'PROFILE_PROPERTY_INVALID'],
      ['a raw identifier parameter', '/svc/api/manifests/open/manifest?properties[topic]=a&submissionId=4', 'PROFILE_PROPERTY_INVALID'],
      ['a raw identifier as a property', '/svc/api/manifests/open/manifest?properties[topic]=a&properties[userId]=4', 'PROFILE_PROPERTY_INVALID'],
    ])('refuses %s with 400', async (_what, url, code) => {
      const res = await svc.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code });
    });

    it('records the profile and its properties with a submission made through it', async () => {
      const res = await submit('open', { values: PERSON, properties: { topic: 'billing', page: '2' } });
      expect(res.statusCode, res.body).toBe(200);
      const { profile } = await stored(res.json<{ submission: { id: number } }>().submission.id);
      expect(profile).toEqual({ name: 'open', properties: { topic: 'billing', page: 2 }, subject: null, issuer: null });
    });

    it('refuses a submit through a profile that does not allow submissions', async () => {
      const res = await submit('closed', { values: PERSON });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'PROFILE_FORBIDDEN' });
    });
  });

  describe('requiresAuth', () => {
    it('refuses a request without a bearer token with 401 AUTH_REQUIRED and a WWW-Authenticate challenge', async () => {
      const res = await manifest('member');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'AUTH_REQUIRED' });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
    });

    it('locks, hides and prefills from the verified claims, privately cached', async () => {
      const res = await manifest('member', '', { authorization: `Bearer ${await member()}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const data = res.json<{ data: Record<string, any> }>().data;
      expect(data.fields.email).toMatchObject({ defaultValue: 'kim@example.test', readOnly: true });
      expect(data.fields.lastName).toBeUndefined();
      expect(JSON.stringify(data.layout)).not.toContain('lastName');
      expect(data.fields.firstName.defaultValue).toBe('Kim');
      expect(data.context).toEqual({ defaultValues: { firstName: 'Kim' }, hiddenFields: ['lastName'], lockedFields: { email: 'kim@example.test' } });
      expect(res.body).not.toContain('Member');
    });

    it('forces locked and hidden values on submit whatever was posted, and records the subject', async () => {
      const res = await submit('member', { values: PERSON }, { authorization: `Bearer ${await member()}` });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json<{ submission: { id: number } }>().submission.id;
      const row = await stored(id);
      expect(row.values).toMatchObject({ firstName: 'Posted', lastName: 'Member', email: 'kim@example.test' });
      expect(row.profile).toEqual({ name: 'member', properties: {}, subject: 'member-42', issuer: ISSUER });
      const detail = await svc.app.inject({ method: 'GET', url: `/svc/api/admin/submissions/${id}`, headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      expect(detail.json<{ data: { profile: unknown } }>().data.profile).toEqual({ name: 'member', properties: {}, subject: 'member-42', issuer: ISSUER });

      // Exports: CSV gains profile columns for a form with profile submissions; JSON Lines a `profile` key.
      const exported = (format: string) => svc.app.inject({ method: 'GET', url: `/svc/api/admin/forms/contact/export?format=${format}`, headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      const csv = (await exported('csv')).body.split('\r\n');
      const header = csv[0]!.replace(/^\uFEFF/, '').split(',');
      expect(header).toEqual(expect.arrayContaining(['profile', 'profileSubject', 'profileProperties']));
      const line = csv.find((l) => l.startsWith(`${id},`))!;
      expect(line).toContain(',member,member-42,{}');
      const jsonl = (await exported('jsonl')).body.trim().split('\n').map((l) => JSON.parse(l) as { id: number; profile?: unknown });
      expect(jsonl.find((entry) => entry.id === id)?.profile).toEqual({ name: 'member', properties: {}, subject: 'member-42', issuer: ISSUER });
    });

    it('accepts a key the issuer rotated in, fetching its JWKS again for the unknown kid', async () => {
      const kid = await jwks.rotate();
      const before = jwks.fetches;
      const res = await manifest('member', '', { authorization: `Bearer ${await member({}, { kid })}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(jwks.fetches).toBeGreaterThan(before);
    });

    it.each([
      ['an expired token', () => member({}, { expiresIn: Math.floor(Date.now() / 1000) - 600 })],
      ['a token for another audience', () => member({ aud: 'someone-else' })],
      ['a token from another issuer', () => member({ iss: 'https://evil.example.test' })],
      ['a token without a subject', () => member({ sub: undefined })],
      ['a token with an unknown kid', () => member({}, { header: { kid: 'nobody' } })],
      ['a tampered token', async () => `${(await member()).slice(0, -4)}AAAA`],
      ['an unsigned token (alg none)', async () => {
        const [, payload] = (await member()).split('.');
        return `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
      }],
      ['an HS256 token keyed with the public key (algorithm confusion)', async () => {
        const { publicKey } = await generateKeyPair('RS256', { extractable: true });
        const pem = await exportSPKI(publicKey);
        return new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'x' }).setProtectedHeader({ alg: 'HS256', kid: 'test-key-1' }).setExpirationTime('5m').sign(new TextEncoder().encode(pem));
      }],
    ])('refuses %s with 401', async (_what, make) => {
      const res = await manifest('member', '', { authorization: `Bearer ${await make()}` });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'AUTH_REQUIRED' });
    });
  });

  describe('requiresSignedToken', () => {
    const sign = (properties: Record<string, string | number | boolean>, ttlSeconds = 600) => links.sign({ profile: 'feedback', properties, ttlSeconds, singleUse: true });

    it('opens the manifest with a signed link, its properties bound, and never spends it by viewing', async () => {
      const token = await sign({ eventId: 7 });
      for (let i = 0; i < 2; i++) {
        const res = await manifest('feedback', `?token=${token}`);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<{ data: Record<string, any> }>().data.metadata.properties).toEqual({ eventId: 7 });
      }
      const other = await manifest('feedback', `?token=${token}&properties[eventId]=8`);
      expect(other.statusCode).toBe(401);
    });

    it('refuses a missing, forged, expired or other-profile link with 401', async () => {
      const forged = await new SignJWT({ prp: { eventId: 7 } })
        .setProtectedHeader({ alg: 'HS256', typ: 'svc-link+jwt', kid: 'k1' })
        .setIssuer('svc').setAudience('profile:feedback').setSubject('link').setIssuedAt().setExpirationTime('5m')
        .sign(new TextEncoder().encode('not the key'));
      const expired = await links.sign({ profile: 'feedback', properties: { eventId: 7 }, ttlSeconds: -60, singleUse: true });
      const other = await links.sign({ profile: 'open', properties: { topic: 'x' }, ttlSeconds: 600, singleUse: false });
      for (const query of ['', `?token=${forged}`, `?token=${expired}`, `?token=${other}`]) {
        const res = await manifest('feedback', query);
        expect(res.statusCode, query).toBe(401);
      }
    });

    it('spends a single-use link with its first completed submission: the next answers 409 TOKEN_SPENT', async () => {
      const token = await sign({ eventId: 9 });
      const first = await submit('feedback', { values: PERSON, context: { token } });
      expect(first.statusCode, first.body).toBe(200);
      const row = await stored(first.json<{ submission: { id: number } }>().submission.id);
      expect(row.values['message']).toBe('Feedback on event 9');
      expect(row.profile).toMatchObject({ name: 'feedback', properties: { eventId: 9 }, issuer: 'svc' });
      const second = await submit('feedback', { values: PERSON, context: { token } });
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({ code: 'TOKEN_SPENT' });
      expect((await manifest('feedback', `?token=${token}`)).statusCode).toBe(409);
    });

    it('makes exactly one submission when two submits race with one single-use link', async () => {
      for (let round = 0; round < 5; round++) {
        const token = await sign({ eventId: 100 + round });
        const results = await Promise.all([0, 1, 2].map(() => submit('feedback', { values: PERSON, context: { token } })));
        expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
      }
    });

    it('mints links through the admin API for a key that may write, with the link from the linkTemplate', async () => {
      const mint = (key: string, body: unknown) =>
        svc.app.inject({ method: 'POST', url: '/svc/api/admin/profiles/feedback/links', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      const minted = await mint(WRITER_KEY, { properties: { eventId: 21 }, ttlSeconds: 3600 });
      expect(minted.statusCode, minted.body).toBe(201);
      const { token, link } = minted.json<{ data: { token: string; link: string } }>().data;
      expect(link).toBe(`https://events.example.test/feedback?token=${encodeURIComponent(token)}`);
      expect((await manifest('feedback', `?token=${token}`)).json<{ data: Record<string, any> }>().data.metadata.properties).toEqual({ eventId: 21 });
      expect((await mint(ADMIN_KEY, { properties: { eventId: 21 } })).json()).toMatchObject({ code: 'ADMIN_FORBIDDEN' });
      expect((await mint(WRITER_KEY, { properties: { eventId: 'x' } })).json()).toMatchObject({ code: 'PROFILE_PROPERTY_INVALID' });
      expect((await mint(WRITER_KEY, { properties: { eventId: 1 }, ttlSeconds: 5 })).json()).toMatchObject({ code: 'PAYLOAD_INVALID' });
    });

    it('refuses to mint a link with singleUse: false under a profile configured singleUse: true, which would still spend it (the profile wins)', async () => {
      const mint = (body: unknown) =>
        svc.app.inject({ method: 'POST', url: '/svc/api/admin/profiles/feedback/links', headers: { authorization: `Bearer ${WRITER_KEY}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      const refused = await mint({ properties: { eventId: 31 }, singleUse: false });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'PAYLOAD_INVALID', message: expect.stringContaining('single-use') });
      // Left out (or true), the link is the profile's kind: spent by its first submission.
      const { token } = (await mint({ properties: { eventId: 31 } })).json<{ data: { token: string } }>().data;
      expect((await submit('feedback', { values: PERSON, context: { token } })).statusCode).toBe(200);
      expect((await submit('feedback', { values: PERSON, context: { token } })).json()).toMatchObject({ code: 'TOKEN_SPENT' });
    });

    it('leaves a link unspent by a submit that fails validation', async () => {
      const token = await sign({ eventId: 11 });
      const invalid = await submit('feedback', { values: { ...PERSON, email: 'nope' }, context: { token } });
      expect(invalid.statusCode).toBe(422);
      expect((await submit('feedback', { values: PERSON, context: { token } })).statusCode).toBe(200);
    });
  });
  describe('over GraphQL', () => {
    const SAVE = `mutation ($csrf: SvcCsrfTokenInputType, $hp: SvcHoneypotInputType, $profile: SvcProfileInputType) {
      save_contact_Submission(csrfToken: $csrf, honeypot: $hp, svcProfile: $profile,
        firstName: "Posted", lastName: "Posted", email: "posted@example.test", message: "Hello") { id success user { id username } }
    }`;
    async function save(variables: Record<string, unknown>) {
      const form = svc.context.forms.get('contact')!;
      const { token, cookie } = await svc.csrf();
      const hp = { name: svc.context.submit.spamFields.honeypotName(form), value: '' };
      return postGraphql<{ save_contact_Submission: { id: number; user: { id: null; username: string } | null } | null }>(
        svc, SAVE, { csrf: { name: 'SVC_CSRF_TOKEN', value: token }, hp, ...variables }, { cookie },
      );
    }

    it("a member's submit through the profile: locked values forced, and the subject is the submission's user", async () => {
      const { body } = await save({ profile: { name: 'member', userToken: await member() } });
      expect(body.errors).toBeUndefined();
      const saved = body.data!.save_contact_Submission!;
      expect(saved.user).toEqual({ id: null, username: 'member-42' });
      const row = await stored(saved.id);
      expect(row.values).toMatchObject({ email: 'kim@example.test', lastName: 'Member' });
      expect(row.profile).toMatchObject({ name: 'member', subject: 'member-42' });
    });

    it('without a profile the user is null; a bad token, another form\'s profile or a spent link are refused with their codes', async () => {
      expect((await save({})).body.data?.save_contact_Submission?.user).toBeNull();
      const codeOf = async (variables: Record<string, unknown>) => (await save(variables)).body.errors?.[0]?.extensions?.['code'];
      expect(await codeOf({ profile: { name: 'member', userToken: 'not-a-jwt' } })).toBe('AUTH_REQUIRED');
      expect(await codeOf({ profile: { name: 'nope' } })).toBe('PROFILE_NOT_FOUND');
      const token = await links.sign({ profile: 'feedback', properties: { eventId: 9 }, ttlSeconds: 600, singleUse: true });
      expect((await save({ profile: { name: 'feedback', token, properties: { eventId: 9 } } })).body.errors).toBeUndefined();
      expect(await codeOf({ profile: { name: 'feedback', token, properties: { eventId: 9 } } })).toBe('TOKEN_SPENT');
    });
  });
});
