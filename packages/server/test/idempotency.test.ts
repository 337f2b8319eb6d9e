/** Idempotent submits: `Idempotency-Key` header or `meta.idempotencyKey` (contract §4), on every dialect. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { countSubmissions } from '../src/submissions/submission-repository.js';
import type { SubmitBody } from '../src/submissions/submit-response.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';

const HOUR_MS = 3_600_000;
const CONTACT = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hello' };
const OTHER_CONTACT = { ...CONTACT, message: 'Something else' };
const PAGE0 = { fullName: 'Ann Lee', email: 'ann@example.test', applicantType: 'individual', heardFrom: 'search' };
const PAGE2 = { age: '34', phone: '+1 555 123 4567', startDate: '2026-03-01', agree: true };

interface ErrorBody {
  readonly success: boolean;
  readonly code: string;
  readonly message: string;
}

type Via = 'header' | 'meta';

function answer(res: LightMyRequestResponse): { statusCode: number; body: unknown } {
  return { statusCode: res.statusCode, body: res.json<unknown>() };
}

describeEachDialect('idempotent submits', (target) => {
  let svc: TestApp;
  let clock = Date.parse('2026-11-22T10:00:00Z');

  beforeAll(async () => {
    svc = await createTestApp({ config: { database: { url: target.url() } }, now: () => new Date(clock) });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const formId = (app: TestApp, handle: string) => app.context.forms.get(handle)?.id ?? -1;
  const count = (app: TestApp, handle: string) => countSubmissions(app.context.database.db, formId(app, handle));

  function submitWithKey(app: TestApp, handle: string, body: Record<string, unknown>, key: string, via: Via = 'header') {
    if (via === 'header') return app.submit(handle, body, { 'idempotency-key': key });
    return app.submit(handle, { ...body, meta: { ...((body.meta as object | undefined) ?? {}), idempotencyKey: key } });
  }
  const contact = (values: Record<string, unknown>) => ({ intent: 'submit', values });

  it.each<[string, Via]>([
    ['the Idempotency-Key header', 'header'],
    ['meta.idempotencyKey', 'meta'],
  ])('replays the first response for the same key and body and stores one submission (key in %s)', async (_label, via) => {
    const key = randomUUID();
    const before = await count(svc, 'contact');
    const first = await submitWithKey(svc, 'contact', contact(CONTACT), key, via);
    expect(first.statusCode).toBe(200);
    expect(first.json<SubmitBody>().status).toBe('submitted');
    const second = await submitWithKey(svc, 'contact', contact(CONTACT), key, via);
    expect(answer(second)).toEqual(answer(first));
    expect(second.json<SubmitBody>().submission).toEqual(first.json<SubmitBody>().submission);
    expect(await count(svc, 'contact')).toBe(before + 1);
  });

  it('stores every identical submit that carries no key: only a key makes a replay', async () => {
    const before = await count(svc, 'contact');
    const first = await svc.submit('contact', contact(CONTACT));
    const second = await svc.submit('contact', contact(CONTACT));
    expect(second.json<SubmitBody>().submission?.id).not.toBe(first.json<SubmitBody>().submission?.id);
    expect(await count(svc, 'contact')).toBe(before + 2);
  });

  it.each<[string, Via]>([
    ['the Idempotency-Key header', 'header'],
    ['meta.idempotencyKey', 'meta'],
  ])('answers 409 IDEMPOTENCY_CONFLICT for the same key with a different body and stores nothing (key in %s)', async (_label, via) => {
    const key = randomUUID();
    expect((await submitWithKey(svc, 'contact', contact(CONTACT), key, via)).statusCode).toBe(200);
    const before = await count(svc, 'contact');
    const conflict = await submitWithKey(svc, 'contact', contact(OTHER_CONTACT), key, via);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json<ErrorBody>()).toEqual({ success: false, code: 'IDEMPOTENCY_CONFLICT', message: expect.any(String) });
    expect(conflict.json<ErrorBody>().message).not.toBe('');
    expect(await count(svc, 'contact')).toBe(before);
  });

  it('keeps keys per form: a key used on contact is new on application', async () => {
    const key = randomUUID();
    expect((await submitWithKey(svc, 'contact', contact(CONTACT), key)).statusCode).toBe(200);
    const before = await count(svc, 'application');
    const toDetails = (await svc.submit('application', { intent: 'next', values: PAGE0 })).json<SubmitBody>();
    const res = await submitWithKey(svc, 'application', { intent: 'submit', values: PAGE2, context: { stateToken: toDetails.state.token } }, key);
    expect(res.statusCode).toBe(200);
    expect(res.json<SubmitBody>()).toMatchObject({ status: 'submitted', page: { total: 3 } });
    expect(await count(svc, 'application')).toBe(before + 1);
  });

  it('replays a 422 validation failure for the same key and body, and refuses another body under that key', async () => {
    const key = randomUUID();
    const before = await count(svc, 'contact');
    const first = await submitWithKey(svc, 'contact', contact({ email: 'not-an-email' }), key);
    expect(first.statusCode).toBe(422);
    expect(first.json<SubmitBody>().status).toBe('validation_failed');
    const second = await submitWithKey(svc, 'contact', contact({ email: 'not-an-email' }), key);
    expect(answer(second)).toEqual(answer(first));
    // The 422 is recorded under the key like any answer: a corrected body needs a new key.
    const corrected = await submitWithKey(svc, 'contact', contact(CONTACT), key);
    expect(corrected.statusCode).toBe(409);
    expect(corrected.json<ErrorBody>().code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await count(svc, 'contact')).toBe(before);
  });

  it('stores one submission for two concurrent identical requests with the same key', async () => {
    const key = randomUUID();
    const before = await count(svc, 'contact');
    const { token, cookie } = await svc.csrf();
    const payload = JSON.stringify({ intent: 'submit', values: CONTACT, meta: await svc.meta('contact') });
    const inject = () =>
      svc.app.inject({
        method: 'POST',
        url: '/svc/api/forms/contact/submit',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie, 'idempotency-key': key },
        payload,
      });
    const [a, b] = await Promise.all([inject(), inject()]);
    const codes = [a.statusCode, b.statusCode].sort();
    if (codes[0] === 200 && codes[1] === 200) {
      expect(answer(b)).toEqual(answer(a));
      expect(a.json<SubmitBody>().status).toBe('submitted');
    } else {
      expect(codes).toEqual([200, 409]);
      const conflict = a.statusCode === 409 ? a : b;
      const winner = a.statusCode === 409 ? b : a;
      expect(conflict.json<ErrorBody>()).toMatchObject({ success: false, code: 'IDEMPOTENCY_CONFLICT' });
      expect(winner.json<SubmitBody>().status).toBe('submitted');
    }
    expect(await count(svc, 'contact')).toBe(before + 1);
  });

  it('holds a key for 24 hours: a different body is a conflict after 23 h and accepted after 25 h', async () => {
    const key = randomUUID();
    const first = await submitWithKey(svc, 'contact', contact(CONTACT), key);
    expect(first.statusCode).toBe(200);
    const before = await count(svc, 'contact');
    clock += 23 * HOUR_MS;
    const within = await submitWithKey(svc, 'contact', contact(OTHER_CONTACT), key);
    expect(within.statusCode).toBe(409);
    expect(await count(svc, 'contact')).toBe(before);
    clock += 2 * HOUR_MS;
    const later = await submitWithKey(svc, 'contact', contact(OTHER_CONTACT), key);
    expect(later.statusCode).toBe(200);
    const body = later.json<SubmitBody>();
    expect(body.status).toBe('submitted');
    expect(body.submission?.id).not.toBe(first.json<SubmitBody>().submission?.id);
    expect(await count(svc, 'contact')).toBe(before + 1);
  });

  describe('across instances', () => sharedDatabaseSuite(target.url));
});

/** Two apps on one database: a key recorded by one instance is honoured by the other. */
function sharedDatabaseSuite(url: () => string | null): void {
  let tmp: string | undefined;
  let first: TestApp | undefined;
  let second: TestApp | undefined;

  beforeAll(async () => {
    let shared = url();
    if (shared === null) {
      tmp = mkdtempSync(join(tmpdir(), 'svc-idem-'));
      shared = `sqlite:${join(tmp, 'shared.db')}`;
    }
    first = await createTestApp({ config: { database: { url: shared } } });
    second = await createTestApp({ config: { database: { url: shared } } });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('replays on a second instance sharing the database the response the first instance gave', async () => {
    const a = first as TestApp;
    const b = second as TestApp;
    const key = randomUUID();
    const formId = a.context.forms.get('contact')?.id ?? -1;
    const before = await countSubmissions(a.context.database.db, formId);
    const original = await a.submit('contact', { intent: 'submit', values: CONTACT }, { 'idempotency-key': key });
    expect(original.statusCode).toBe(200);
    const replay = await b.submit('contact', { intent: 'submit', values: CONTACT }, { 'idempotency-key': key });
    expect(answer(replay)).toEqual(answer(original));
    const conflict = await b.submit('contact', { intent: 'submit', values: OTHER_CONTACT }, { 'idempotency-key': key });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json<ErrorBody>().code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await countSubmissions(a.context.database.db, formId)).toBe(before + 1);
  });
}
