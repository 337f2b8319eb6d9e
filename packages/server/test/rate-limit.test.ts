/** API rate limits (issue #4): per client, per route group, in process or shared through Redis. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeWithService } from './support/service-requirements.js';

const VALID = { intent: 'submit', values: { firstName: 'Ann', email: 'ann@example.test' } };
const limits = (redis: Record<string, unknown> = {}) => ({
  rateLimit: {
    enabled: true,
    submit: { max: 3, windowSeconds: 60 },
    tokens: { max: 5, windowSeconds: 60 },
    graphql: { max: 2, windowSeconds: 60 },
    upload: { max: 2, windowSeconds: 60 },
  },
  redis,
});

describe('rate limits in process', () => {
  let svc: TestApp;
  let clock = Date.parse('2026-11-22T10:00:00Z');
  beforeAll(async () => {
    svc = await createTestApp({ config: { forms: { watch: false }, ...limits() }, now: () => new Date(clock) });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('answers 429 RATE_LIMITED with Retry-After once a client spends its submit budget, then lets it through in the next window', async () => {
    const csrf = await svc.csrf();
    const submit = () =>
      svc.app.inject({
        method: 'POST',
        url: '/svc/api/forms/contact/submit',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf.token, cookie: csrf.cookie },
        payload: JSON.stringify({ intent: 'validate', values: {} }),
      });
    for (let i = 0; i < 3; i++) expect((await submit()).statusCode).toBe(422);
    const refused = await submit();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    clock += 61_000;
    expect((await submit()).statusCode).toBe(422);
  });

  it('keeps separate budgets per client address and per route group', async () => {
    const other = await createTestApp({ config: { forms: { watch: false }, server: { trustProxy: true }, ...limits() } });
    try {
      const tokens = (ip: string) => other.app.inject({ method: 'GET', url: '/svc/tokens', headers: { 'x-forwarded-for': ip } });
      for (let i = 0; i < 5; i++) expect((await tokens('198.51.100.1')).statusCode).toBe(200);
      expect((await tokens('198.51.100.1')).statusCode).toBe(429);
      expect((await tokens('198.51.100.2')).statusCode).toBe(200);
      const manifest = await other.app.inject({ method: 'GET', url: '/svc/api/forms/contact/manifest', headers: { 'x-forwarded-for': '198.51.100.1' } });
      expect(manifest.statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('gives drag-and-drop uploads and deletes their own budget, counted before the body is read', async () => {
    const csrf = await svc.csrf();
    const remove = () =>
      svc.app.inject({
        method: 'POST',
        url: '/svc/api/forms/kitchen-sink/files/file/delete',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf.token, cookie: csrf.cookie, 'x-svc-upload-token': randomUUID() },
        payload: JSON.stringify({ id: 'not-uploaded' }),
      });
    expect((await remove()).statusCode).toBe(404);
    expect((await remove()).statusCode).toBe(404);
    const refused = await remove();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // The submit budget is another group's.
    const submit = await svc.app.inject({
      method: 'POST',
      url: '/svc/api/forms/kitchen-sink/submit',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf.token, cookie: csrf.cookie },
      payload: JSON.stringify({ intent: 'validate', values: {} }),
    });
    expect(submit.statusCode).not.toBe(429);
  });

  it('limits GraphQL requests too, answering in the GraphQL error shape', async () => {
    const post = () => svc.app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ query: '{ __typename }' }) });
    expect((await post()).statusCode).toBe(200);
    expect((await post()).statusCode).toBe(200);
    const refused = await post();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(refused.headers['retry-after']).toBeDefined();
  });
});

describeWithService('rate limits shared through Redis', process.env.SVC_TEST_REDIS_URL, 'SVC_TEST_REDIS_URL is not set', (redisUrl) => {
  let first: TestApp;
  let second: TestApp;
  const keyPrefix = `svc-test-${randomBytes(6).toString('hex')}:`;
  beforeAll(async () => {
    first = await createTestApp({ config: { forms: { watch: false }, ...limits({ url: redisUrl, keyPrefix }) } });
    second = await createTestApp({ config: { forms: { watch: false }, ...limits({ url: redisUrl, keyPrefix }) } });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('shares one budget between two instances', async () => {
    const statuses: number[] = [];
    for (const svc of [first, second, first, second, first, second]) {
      statuses.push((await svc.app.inject({ method: 'GET', url: '/svc/tokens' })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('fails closed with 503 SERVICE_UNAVAILABLE when Redis cannot be reached, never skipping the limit', async () => {
    const down = await createTestApp({ config: { forms: { watch: false }, ...limits({ url: 'redis://127.0.0.1:1', keyPrefix }) } });
    try {
      const res = await down.submit('contact', VALID);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      await down.close();
    }
  });
});
