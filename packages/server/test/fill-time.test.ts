/** Minimum fill time (issue #4): a signed timestamp from the manifest's honeypot, echoed by the client. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { findSubmission } from '../src/submissions/submission-repository.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const FORMS = resolve(import.meta.dirname, 'fixtures/fill-forms');

describe('minimum fill time', () => {
  let svc: TestApp;
  let clock = Date.parse('2026-11-22T10:00:00Z');

  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        forms: { dir: FORMS, watch: false },
        headless: {
          forms: {
            slow: { exposeManifest: true, allowSubmit: true },
            other: { exposeManifest: true, allowSubmit: true },
            scripted: { exposeManifest: true, allowSubmit: true },
          },
        },
      },
      now: () => new Date(clock),
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const manifest = (handle: string) => svc.app.inject({ method: 'GET', url: `/svc/api/forms/${handle}/manifest` });
  const honeypotOf = async (handle: string) => (await manifest(handle)).json().data.security.honeypot as { name: string; timestamp: string };
  const submitWith = async (honeypot: Record<string, unknown>) => {
    const { token, cookie } = await svc.csrf();
    const res = await svc.app.inject({
      method: 'POST',
      url: '/svc/api/forms/slow/submit',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      payload: JSON.stringify({ intent: 'submit', values: { name: 'Ann' }, meta: { honeypot } }),
    });
    expect(res.statusCode).toBe(200);
    return (await findSubmission(svc.context.database.db, res.json().submission.id, svc.context.sealer))?.spamReasons;
  };

  it('issues a fresh signed timestamp with each manifest while the ETag stays the same', async () => {
    const first = await manifest('slow');
    clock += 1000;
    const second = await manifest('slow');
    expect(first.json().data.security.honeypot.timestamp).toMatch(/^[0-9a-z]+\.[A-Za-z0-9_-]+$/);
    expect(second.json().data.security.honeypot.timestamp).not.toBe(first.json().data.security.honeypot.timestamp);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(first.body).not.toContain('__svc_fill_timestamp__');
  });

  it('flags a submission sent sooner than the minimum as spam (fill_time), and accepts one sent later', async () => {
    const { name, timestamp } = await honeypotOf('slow');
    clock += 2000;
    expect(await submitWith({ name, value: '', timestamp })).toEqual(['fill_time']);
    clock += 4000;
    expect(await submitWith({ name, value: '', timestamp })).toEqual([]);
  });

  it.each([
    ['no timestamp', (t: string) => undefined],
    ['a forged timestamp', (t: string) => `${t.split('.')[0]}.forged`],
    ['a timestamp with its time moved back', (t: string) => `${(Number.parseInt(t.split('.')[0] as string, 36) - 60_000).toString(36)}.${t.split('.')[1]}`],
  ])('flags %s as spam', async (_label, mutate) => {
    const { name, timestamp } = await honeypotOf('slow');
    clock += 10_000;
    const sent = mutate(timestamp);
    expect(await submitWith(sent === undefined ? { name, value: '' } : { name, value: '', timestamp: sent })).toEqual(['fill_time']);
  });

  it('reads the timestamp from the echoed javascript test, as the official client sends it (no honeypot timestamp)', async () => {
    const { security } = (await manifest('scripted')).json().data as { security: { honeypot: { name: string }; javascriptTest: { name: string; value: string } } };
    expect(security.javascriptTest.value).toMatch(/^[A-Za-z0-9_-]+~[0-9a-z]+\.[A-Za-z0-9_-]+$/);
    const stock = async () => {
      const { token, cookie } = await svc.csrf();
      const meta = { client: '@solspace/freeform-react', honeypot: { name: security.honeypot.name, value: '' }, javascriptTest: security.javascriptTest };
      const res = await svc.app.inject({
        method: 'POST',
        url: '/svc/api/forms/scripted/submit',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
        payload: JSON.stringify({ intent: 'submit', values: { name: 'Ann' }, meta }),
      });
      return (await findSubmission(svc.context.database.db, res.json().submission.id, svc.context.sealer))?.spamReasons;
    };
    clock += 2000;
    expect(await stock()).toEqual(['fill_time']);
    clock += 4000;
    expect(await stock()).toEqual([]);
  });

  it("refuses another form's timestamp", async () => {
    const { timestamp } = await honeypotOf('other');
    const { name } = await honeypotOf('slow');
    clock += 10_000;
    expect(await submitWith({ name, value: '', timestamp })).toEqual(['fill_time']);
  });

  it('gives the GraphQL headless manifest a real timestamp too', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ query: '{ svcHeadlessManifest(handle: "slow") }' }),
    });
    expect(res.json().data.svcHeadlessManifest.security.honeypot.timestamp).toMatch(/^[0-9a-z]+\./);
  });
});
