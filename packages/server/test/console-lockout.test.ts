/**
 * The console's sign-in lockout (issues #15, #32): each attempt reserves a slot per address and
 * per account before its credential is checked, so at most ten are checked in the window however
 * many arrive at once; each waits longer than the one before; API keys count per presented key,
 * never in one bucket for all. The counts live in the rate limiter's store, so two instances
 * sharing Redis share them, and a store that cannot answer refuses the sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../src/console/console-passwords.js';
import { attemptAccount, createLockout, LOCKOUT_WINDOW_MS } from '../src/console/console-lockout.js';
import { createMemoryStore, createRedisStore } from '../src/security/rate-limit-store.js';
import { describeWithService } from './support/service-requirements.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const PASSWORD = 'lockout test password 7';
const API_KEY = 'lockout-test-api-key-0123456789';

function cookieValue(res: LightMyRequestResponse, name: string): string {
  const raw = res.headers['set-cookie'];
  const found = (Array.isArray(raw) ? raw : raw ? [raw] : []).find((c) => c.startsWith(`${name}=`)) ?? '';
  return found.split(';')[0]?.slice(name.length + 1) ?? '';
}

/** The sign-in form's token and the cookie it is bound to, fetched once and posted many times. */
async function signInForm(svc: TestApp): Promise<{ csrf: string; pre: string }> {
  const page = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
  return { csrf: /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '', pre: cookieValue(page, 'svc_console_pre') };
}

async function post(svc: TestApp, form: { csrf: string; pre: string }, fields: Record<string, string>, remoteAddress = '127.0.0.1'): Promise<LightMyRequestResponse> {
  return svc.app.inject({
    method: 'POST',
    url: '/svc/console/sign-in',
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_console_pre=${form.pre}` },
    payload: new URLSearchParams({ csrf: form.csrf, ...fields }).toString(),
  });
}

async function signIn(svc: TestApp, password: string): Promise<LightMyRequestResponse> {
  return post(svc, await signInForm(svc), { username: 'kim', password });
}

/** How many answers had each status: `{ 401: 10, 429: 190 }`. */
function tally(responses: readonly LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  return counts;
}

const users = async () => ({
  admin: {
    users: [{ username: 'kim', passwordHash: await hashPassword(PASSWORD), scopes: ['read'], forms: ['*'] }],
    keys: [{ name: 'ops', sha256: createHash('sha256').update(API_KEY).digest('hex'), scopes: ['read'], forms: ['*'] }],
  },
});

describe('console lockout', () => {
  it('slows each attempt more and refuses the eleventh, per account and per address, until the window passes', async () => {
    let t = 1_800_000_000_000;
    const lockout = createLockout(createMemoryStore(() => t));
    const kimFrom = (ip: string) => ({ ip, account: 'user:kim' });
    expect(await lockout.reserve(kimFrom('1.2.3.4'))).toBe(0);
    for (let i = 0; i < 4; i++) await lockout.reserve(kimFrom('1.2.3.4'));
    // Five attempts before it for the account: five steps.
    expect(await lockout.reserve(kimFrom('9.9.9.9'))).toBe(1000);
    expect(await lockout.reserve({ ip: '1.2.3.4', account: 'user:other' })).toBe(1000);
    for (let i = 0; i < 4; i++) await lockout.reserve(kimFrom('5.5.5.5'));
    expect(await lockout.reserve(kimFrom('6.6.6.6'))).toBeNull();
    t += LOCKOUT_WINDOW_MS + 60_000;
    expect(await lockout.reserve(kimFrom('9.9.9.9'))).toBe(0);
    for (let i = 0; i < 3; i++) await lockout.reserve(kimFrom('1.2.3.4'));
    await lockout.succeeded(kimFrom('1.2.3.4'));
    expect(await lockout.reserve(kimFrom('7.7.7.7'))).toBe(0);
    // The address keeps its other two attempts: a success gives back its own slot, not a guesser's.
    expect(await lockout.reserve({ ip: '1.2.3.4', account: 'user:nobody' })).toBe(400);
  });

  it('counts an API key under the hash of the key presented, never one bucket for every key', () => {
    const one = attemptAccount({ username: '', apiKey: 'first-key-0123456789' });
    expect(one).toMatch(/^key:[0-9a-f]{32}$/);
    expect(attemptAccount({ username: '', apiKey: 'second-key-0123456789' })).not.toBe(one);
    expect(one).not.toContain('first-key');
    expect(attemptAccount({ username: 'kim', apiKey: '' })).toBe('user:kim');
  });
});

describe('console lockout under concurrency and per credential', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({ config: { forms: { watch: false }, ...(await users()) } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('checks at most ten of 200 wrong passwords sent at once from one address; the rest are 429 unchecked', async () => {
    const form = await signInForm(svc);
    const answers = await Promise.all(Array.from({ length: 200 }, () => post(svc, form, { username: 'kim', password: 'wrong guess' }, '10.1.0.1')));
    expect(tally(answers)).toEqual({ 401: 10, 429: 190 });
    // The right password from another address is refused too: the account's budget is spent.
    const right = await post(svc, form, { username: 'kim', password: PASSWORD }, '10.1.0.2');
    expect(right.statusCode).toBe(429);
  });

  it('lets a valid API key sign in from an address that has not failed, after ten wrong keys from another', async () => {
    const form = await signInForm(svc);
    const wrong = await Promise.all(Array.from({ length: 12 }, (_, i) => post(svc, form, { apiKey: `not-a-real-key-${i}-0123456789` }, '10.2.0.1')));
    expect(tally(wrong)).toEqual({ 401: 10, 429: 2 });
    const valid = await post(svc, form, { apiKey: API_KEY }, '10.2.0.2');
    expect([valid.statusCode, valid.headers.location]).toEqual([303, '/svc/console/']);
    expect(cookieValue(valid, 'svc_console')).not.toBe('');
    // The failing address itself stays refused, whatever key it sends.
    expect((await post(svc, form, { apiKey: API_KEY }, '10.2.0.1')).statusCode).toBe(429);
  });

  it('refuses one wrong key presented from many addresses after ten, and no other key', async () => {
    const form = await signInForm(svc);
    const stolen = 'a-guessed-key-tried-everywhere-0123';
    const answers = await Promise.all(Array.from({ length: 11 }, (_, i) => post(svc, form, { apiKey: stolen }, `10.3.0.${i + 1}`)));
    expect(tally(answers)).toEqual({ 401: 10, 429: 1 });
    expect((await post(svc, form, { apiKey: API_KEY }, '10.3.0.99')).statusCode).toBe(303);
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
      await left.reserve({ ip: '10.0.0.1', account: 'user:ann' });
      await right.reserve({ ip: '10.0.0.2', account: 'user:ann' });
      expect(await right.reserve({ ip: '10.0.0.3', account: 'user:ann' })).toBe(400);
      await left.succeeded({ ip: '10.0.0.3', account: 'user:ann' });
      expect(await right.reserve({ ip: '10.0.0.4', account: 'user:ann' })).toBe(0);
      // 10.0.0.3's success gave its slot back: one attempt from it before this one.
      expect(await right.reserve({ ip: '10.0.0.3', account: 'user:bob' })).toBe(0);
      expect(await right.reserve({ ip: '10.0.0.2', account: 'user:bob' })).toBe(200);
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
  });

  it('checks at most ten of 200 wrong passwords sent at once to two instances from one address', async () => {
    const forms = [await signInForm(first), await signInForm(second)];
    const apps = [first, second];
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => post(apps[i % 2] as TestApp, forms[i % 2] as { csrf: string; pre: string }, { username: 'parallel', password: 'wrong guess' }, '10.9.0.1')));
    // The address's ten slots are taken once across both instances: exactly ten checked.
    expect(tally(answers)).toEqual({ 401: 10, 429: 190 });
  });

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
