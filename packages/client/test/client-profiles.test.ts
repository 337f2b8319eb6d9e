/**
 * `client.profileSession` against a real listening svc (issue #13, contract §9): a signed-in
 * member through an auth callback (a bearer JWT from a JWKS on loopback), and a single-use signed
 * link with its properties. The session sends them with every step; the service locks, hides and
 * records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJwksServer, type JwksServer } from '../../server/test/support/jwks-server.js';
import { SvcClientError } from '../src/index.js';
import { probedClient, startLiveServer, submissionRow, type LiveServer } from './support/live-server.js';

const ISSUER = 'https://id.example.test';
const AUDIENCE = 'svc-client-tests';

let live: LiveServer;
let jwks: JwksServer;
beforeAll(async () => {
  jwks = await startJwksServer();
  live = await startLiveServer({
    config: {
      headless: {
        profiles: {
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
          },
        },
      },
      auth: { issuers: [{ issuer: ISSUER, audience: AUDIENCE, jwksUrl: jwks.url }], jwksCooldownSeconds: 0 },
    },
  });
});
afterAll(async () => {
  await live?.close();
  await jwks?.close();
});

const memberToken = () => jwks.sign({ iss: ISSUER, aud: AUDIENCE, sub: 'kim', email: 'kim@example.test', given_name: 'Kim', family_name: 'Lee' });

describe('@svc/client profile sessions', () => {
  it('a member: the auth callback is asked before each request, the locked email is read-only, and the submission keeps the subject', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    let asked = 0;
    const form = await client.profileSession('member', {
      auth: async () => {
        asked += 1;
        return memberToken();
      },
    });
    expect(form.manifest.metadata).toEqual({ profile: 'member', properties: {} });
    expect(form.manifest.fields.email).toMatchObject({ readOnly: true, defaultValue: 'kim@example.test' });
    expect(form.manifest.fields.lastName).toBeUndefined();
    expect(form.values).toMatchObject({ email: 'kim@example.test', firstName: 'Kim' });
    expect(form.manifest.endpoints.submit.url).toBe('/svc/api/manifests/member/submit');

    form.setValue('message', 'Renewing for another year.');
    form.setValue('email', 'someone-else@example.test'); // forced back by the service
    const result = await form.submit();
    expect(result).toMatchObject({ success: true, status: 'submitted' });
    expect(asked).toBe(2);
    const sent = probe.matching('POST', '/svc/api/manifests/member/submit')[0]!;
    expect(sent.headers.get('authorization')).toMatch(/^Bearer ey/);
    expect(JSON.parse(String(sent.body))).toMatchObject({ properties: {} });
    const row = await submissionRow(live.svc, result.submission!.id);
    expect(JSON.parse(String(row!.values))).toMatchObject({ email: 'kim@example.test', firstName: 'Kim', lastName: 'Lee' });
    expect(row!.profile).toContain('"subject":"kim"');
  });

  it('a member without a token gets AUTH_REQUIRED when the manifest is asked for', async () => {
    const { client } = probedClient(live.baseUrl);
    const refusal = await client.profileSession('member', { auth: () => null }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SvcClientError);
    expect(refusal).toMatchObject({ code: 'AUTH_REQUIRED', status: 401 });
  });

  it('a single-use feedback link: the token and properties go with the manifest and the submit; opening it again after the submit says it is spent', async () => {
    const token = await live.svc.context.profiles.links.sign({ profile: 'feedback', properties: { eventId: 42 }, ttlSeconds: 3600, singleUse: true });
    const { client, probe } = probedClient(live.baseUrl);
    const form = await client.profileSession('feedback', { properties: { eventId: 42 }, token });
    const asked = new URL(String(probe.matching('GET', '/svc/api/manifests/feedback/manifest')[0]!.url));
    expect(Object.fromEntries(asked.searchParams)).toEqual({ 'properties[eventId]': '42', token });
    expect(form.manifest.fields.message).toMatchObject({ readOnly: true, defaultValue: 'Feedback on event 42' });
    for (const [handle, value] of Object.entries({ firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test' })) form.setValue(handle, value);

    const first = await form.submit();
    expect(first).toMatchObject({ success: true, status: 'submitted' });
    const body = JSON.parse(String(probe.matching('POST', '/svc/api/manifests/feedback/submit')[0]!.body)) as Record<string, unknown>;
    expect(body).toMatchObject({ properties: { eventId: 42 }, context: { token } });

    // Spent: opening the link again says so (viewing never spends one; a completed submit did).
    const spent = await client.profileSession('feedback', { properties: { eventId: 42 }, token }).catch((error: unknown) => error);
    expect(spent).toMatchObject({ code: 'TOKEN_SPENT', status: 409 });
  });
});
