/**
 * The console's sign-in lockout (issue #15): failures slow the next answer and past ten in the
 * window refuse it, per account and per address; the counts live in the rate limiter's store, so
 * two instances sharing Redis share them, and a store that cannot answer refuses the sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../src/console/console-passwords.js';
import { createLockout, LOCKOUT_WINDOW_MS } from '../src/console/console-lockout.js';
import { createMemoryStore, createRedisStore } from '../src/security/rate-limit-store.js';
import { describeWithService } from './support/service-requirements.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const PASSWORD = 'lockout test password 7';

function cookieValue(res: LightMyRequestResponse, name: string): string {
  const raw = res.headers['set-cookie'];
  const found = (Array.isArray(raw) ? raw : raw ? [raw] : []).find((c) => c.startsWith(`${name}=`)) ?? '';
  return found.split(';')[0]?.slice(name.length + 1) ?? '';
}

async function signIn(svc: TestApp, password: string): Promise<LightMyRequestResponse> {
  const page = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  return svc.app.inject({
    method: 'POST',
    url: '/svc/console/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_console_pre=${cookieValue(page, 'svc_console_pre')}` },
    payload: new URLSearchParams({ csrf, username: 'kim', password }).toString(),
  });
}

const users = async () => ({ admin: { users: [{ username: 'kim', passwordHash: await hashPassword(PASSWORD), scopes: ['read'], forms: ['*'] }] } });

describe('console lockout', () => {
  it('slows each failure more and refuses after ten, per account and per address, until the window passes', async () => {
    let t = 1_800_000_000_000;
    const lockout = createLockout(createMemoryStore(() => t));
    expect(await lockout.check('user:kim', '1.2.3.4')).toBe(0);
    for (let i = 0; i < 5; i++) await lockout.failed('user:kim', '1.2.3.4');
    expect(await lockout.check('user:kim', '9.9.9.9')).toBe(1000);
    expect(await lockout.check('user:other', '1.2.3.4')).toBe(1000);
    for (let i = 0; i < 5; i++) await lockout.failed('user:kim', '1.2.3.4');
    expect(await lockout.check('user:kim', '9.9.9.9')).toBeNull();
    t += LOCKOUT_WINDOW_MS + 60_000;
    expect(await lockout.check('user:kim', '9.9.9.9')).toBe(0);
    for (let i = 0; i < 3; i++) await lockout.failed('user:kim', '1.2.3.4');
    await lockout.succeeded('user:kim');
    expect(await lockout.check('user:kim', '5.5.5.5')).toBe(0);
    // The address keeps its own count: a success for one account does not clear a guesser.
    expect(await lockout.check('user:nobody', '1.2.3.4')).toBe(600);
  });
});

describeWithService('console lockout shared through Redis', process.env.SVC_TEST_REDIS_URL, 'SVC_TEST_REDIS_URL is not set', (redisUrl) => {
  const keyPrefix = `svc-test-${randomBytes(6).toString('hex')}:`;
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    const config = { forms: { watch: false }, redis: { url: redisUrl, keyPrefix }, ...(await users()) };
    first = await createTestApp({ config });
    second = await createTestApp({ config });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('counts two lockouts over one Redis as one', async () => {
    const prefix = `${keyPrefix}unit:`;
    const [a, b] = [createRedisStore(redisUrl, prefix), createRedisStore(redisUrl, prefix)];
    try {
      expect(await Promise.all([a.ready(), b.ready()])).toEqual([true, true]);
      const [left, right] = [createLockout(a), createLockout(b)];
      await left.failed('user:ann', '10.0.0.1');
      await right.failed('user:ann', '10.0.0.2');
      expect(await right.check('user:ann', '10.0.0.3')).toBe(400);
      await left.succeeded('user:ann');
      expect(await right.check('user:ann', '10.0.0.3')).toBe(0);
      expect(await right.check('user:bob', '10.0.0.2')).toBe(200);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refuses on one instance the account another instance saw guessed ten times', async () => {
    // Five wrong passwords on each instance at once: alone, neither would reach ten.
    const guesses = await Promise.all([first, second, first, second, first, second, first, second, first, second].map((svc) => signIn(svc, 'wrong guess')));
    expect(guesses.map((r) => r.statusCode)).toEqual(Array(10).fill(401));
    for (const svc of [first, second]) {
      const refused = await signIn(svc, PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('900');
      expect(cookieValue(refused, 'svc_console')).toBe('');
    }
  }, 60_000);

  it('refuses sign-in with 503 when Redis cannot be reached, never skipping the lockout', async () => {
    const down = await createTestApp({ config: { forms: { watch: false }, redis: { url: 'redis://127.0.0.1:1', keyPrefix }, ...(await users()) } });
    try {
      const res = await signIn(down, PASSWORD);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(cookieValue(res, 'svc_console')).toBe('');
    } finally {
      await down.close();
    }
  });
});
