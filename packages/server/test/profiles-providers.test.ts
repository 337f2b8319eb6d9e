/**
 * Context-provider modules and the boot checks of profiles (issue #13): a provider decides who may
 * see and submit, and computes values; one that throws answers 503 with nothing stored; a profile
 * that names a missing form, field or provider function stops the boot with every problem listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from './support/test-app.js';
import { findSubmission } from '../src/submissions/submission-repository.js';

const PERSON = { firstName: 'Ann', email: 'ann@example.test', message: 'Hi' };

describe('profile context providers', () => {
  let dir: string;
  let svc: TestApp;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-providers-'));
    writeFileSync(
      join(dir, 'orders.mjs'),
      `export function canAccessManifest(ctx) { return ctx.properties.orderId !== 13; }
export async function canSubmit(ctx) { return ctx.properties.orderId !== 14; }
export function lockedFields(ctx) { return { message: 'Order #' + ctx.properties.orderId, notAField: 'x' }; }
export function hiddenFields(ctx) { if (ctx.properties.orderId === 99) throw new Error('order service down'); return { lastName: 'Order ' + ctx.properties.orderId }; }
`,
    );
    svc = await createTestApp({
      config: {
        headless: { profiles: { order: { form: 'contact', properties: { orderId: { type: 'integer', required: true } }, contextProvider: join(dir, 'orders.mjs') } } },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function submit(orderId: number, values: Record<string, unknown> = PERSON) {
    const { token, cookie } = await svc.csrf();
    return svc.app.inject({
      method: 'POST',
      url: '/svc/api/manifests/order/submit',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      payload: JSON.stringify({ intent: 'submit', values, properties: { orderId }, meta: await svc.meta('contact') }),
    });
  }

  it('locks and hides what the provider computes, ignoring handles the form does not have', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/svc/api/manifests/order/manifest?properties[orderId]=5' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<{ data: Record<string, any> }>().data;
    expect(data.context.lockedFields).toEqual({ message: 'Order #5' });
    expect(data.context.hiddenFields).toEqual(['lastName']);
    const done = await submit(5, { ...PERSON, message: 'changed', lastName: 'changed' });
    expect(done.statusCode, done.body).toBe(200);
    const row = await findSubmission(svc.context.database.db, done.json<{ submission: { id: number } }>().submission.id, svc.context.sealer);
    expect(row?.values).toMatchObject({ message: 'Order #5', lastName: 'Order 5' });
  });

  it('answers 403 PROFILE_FORBIDDEN where the provider refuses the manifest or the submit', async () => {
    expect((await svc.app.inject({ method: 'GET', url: '/svc/api/manifests/order/manifest?properties[orderId]=13' })).json()).toMatchObject({ code: 'PROFILE_FORBIDDEN' });
    const refused = await submit(14);
    expect(refused.statusCode).toBe(403);
  });

  it('answers 503 and stores nothing when the provider throws', async () => {
    const count = async () => Number((await svc.context.database.db.selectFrom('svc_submissions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const res = await submit(99);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(res.body).not.toContain('order service down');
    expect(await count()).toBe(before);
  });
});

describe('profiles checked at boot', () => {
  it('refuses to start on an unknown form, an unknown context field, a missing issuer and a provider that does not load, all listed', async () => {
    const error = await createTestApp({
      config: {
        headless: {
          profiles: {
            a: { form: 'nope' },
            b: { form: 'contact', context: { lockedFields: { noSuchField: 'x' } } },
            c: { form: 'contact', requiresAuth: true },
            d: { form: 'contact', contextProvider: '/nonexistent/provider.mjs' },
            e: { form: 'contact', singleUse: true },
          },
        },
      },
    }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/headless\.profiles\.a\.form: no form "nope"/);
    expect(error?.message).toMatch(/headless\.profiles\.b\.context\.lockedFields\.noSuchField/);
    expect(error?.message).toMatch(/headless\.profiles\.c\.requiresAuth: no auth\.issuers/);
    expect(error?.message).toMatch(/headless\.profiles\.d\.contextProvider: .* does not load/);
    expect(error?.message).toMatch(/headless\.profiles\.e\.singleUse: needs requiresSignedToken/);
  });
});
