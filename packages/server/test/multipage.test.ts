/** Multi-page navigation with state tokens on `application` (contract §4, interface.md §3). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { findSubmission } from '../src/submissions/submission-repository.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const PAGE0_INDIVIDUAL = { fullName: 'Ann Lee', email: 'ann@example.test', applicantType: 'individual', heardFrom: 'search' };
const PAGE0_COMPANY = { ...PAGE0_INDIVIDUAL, applicantType: 'company' };
const PAGE2 = { age: '34', phone: '+1 555 123 4567', startDate: '2026-03-01', agree: true };

describe('multi-page application', () => {
  let svc: TestApp;
  let clock = Date.parse('2026-11-22T10:00:00Z');

  beforeAll(async () => {
    svc = await createTestApp({ now: () => new Date(clock) });
  });
  afterAll(async () => {
    await svc?.close();
  });

  function step(intent: string, values: Record<string, unknown>, stateToken?: string | null): Promise<LightMyRequestResponse> {
    return svc.submit('application', { intent, values, ...(stateToken ? { context: { stateToken } } : {}) });
  }

  it('moves from page 1 straight to "Details" for an individual: the company page rule skips it', async () => {
    const res = await step('next', PAGE0_INDIVIDUAL);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, status: 'page_valid', complete: false, page: { currentIndex: 2, total: 3 } });
    expect(body.state.token).toEqual(expect.any(String));
    expect(body.state.values).toMatchObject(PAGE0_INDIVIDUAL);
  });

  it('moves to the company page for a company applicant', async () => {
    const res = await step('next', PAGE0_COMPANY);
    expect(res.json().page.currentIndex).toBe(1);
  });

  it('requires heardFromOther only while it is shown', async () => {
    const shown = await step('next', { ...PAGE0_INDIVIDUAL, heardFrom: 'other' });
    expect(shown.statusCode).toBe(422);
    expect(shown.json().errors.fields).toEqual({ heardFromOther: ['This field is required'] });
    expect(shown.json().page.currentIndex).toBe(0);
    const hidden = await step('next', { ...PAGE0_INDIVIDUAL, heardFrom: 'friend' });
    expect(hidden.statusCode).toBe(200);
  });

  it('validates only the current page on next', async () => {
    const res = await step('next', { fullName: 'Ann' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors.fields).sort()).toEqual(['applicantType', 'email']);
  });

  it('goes back along the visited pages and keeps what was entered', async () => {
    const toDetails = (await step('next', PAGE0_INDIVIDUAL)).json();
    const back = await step('back', { age: '40' }, toDetails.state.token);
    expect(back.statusCode).toBe(200);
    const body = back.json();
    expect(body).toMatchObject({ status: 'page_valid', page: { currentIndex: 0 } });
    expect(body.state.values).toMatchObject({ ...PAGE0_INDIVIDUAL, age: '40' });
  });

  it('stores one submission with every visible page and nothing from the skipped company page', async () => {
    // Company first, fill the company page, go back, switch to individual: the company page is now hidden.
    const p1 = (await step('next', PAGE0_COMPANY)).json();
    const p2 = (await step('next', { companyName: 'Acme', vatNumber: 'DE123456789' }, p1.state.token)).json();
    expect(p2.page.currentIndex).toBe(2);
    const back1 = (await step('back', {}, p2.state.token)).json();
    const back0 = (await step('back', {}, back1.state.token)).json();
    expect(back0.page.currentIndex).toBe(0);
    const again = (await step('next', PAGE0_INDIVIDUAL, back0.state.token)).json();
    expect(again.page.currentIndex).toBe(2);
    const done = await step('submit', PAGE2, again.state.token);
    expect(done.statusCode).toBe(200);
    const body = done.json();
    expect(body).toMatchObject({ success: true, status: 'submitted', complete: true, state: { token: null } });
    const stored = await findSubmission(svc.context.database.db, body.submission.id, svc.context.sealer);
    expect(stored?.values).toMatchObject({ ...PAGE0_INDIVIDUAL, age: '34', phone: '+1 555 123 4567', startDate: '2026-03-01', agree: 'yes' });
    expect(stored?.values).not.toHaveProperty('companyName');
    expect(stored?.values).not.toHaveProperty('heardFromOther');
  });

  it('ignores values posted for earlier pages: they come only from the state token', async () => {
    const p = (await step('next', PAGE0_INDIVIDUAL)).json();
    const done = await step('submit', { ...PAGE2, fullName: 'Mallory' }, p.state.token);
    const stored = await findSubmission(svc.context.database.db, done.json().submission.id, svc.context.sealer);
    expect(stored?.values.fullName).toBe('Ann Lee');
  });

  it('answers validation_failed on the last page and keeps the state token usable', async () => {
    const p = (await step('next', PAGE0_INDIVIDUAL)).json();
    const bad = await step('submit', { ...PAGE2, age: '17', agree: false }, p.state.token);
    expect(bad.statusCode).toBe(422);
    const body = bad.json();
    expect(Object.keys(body.errors.fields).sort()).toEqual(['age', 'agree']);
    expect(body.page.currentIndex).toBe(2);
    const fixed = await step('submit', PAGE2, body.state.token);
    expect(fixed.json().status).toBe('submitted');
  });

  it.each(['submit', 'back'])('answers 422 context_required for %s without a state token', async (intent) => {
    const res = await step(intent, PAGE2);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ success: false, status: 'context_required', complete: false });
  });

  it('answers 422 context_invalid for a tampered state token', async () => {
    const token: string = (await step('next', PAGE0_INDIVIDUAL)).json().state.token;
    const tampered = token.slice(0, 30) + (token[30] === 'A' ? 'B' : 'A') + token.slice(31);
    const res = await step('submit', PAGE2, tampered);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ status: 'context_invalid', success: false });
  });

  it('answers context_invalid once a state token is older than 30 minutes', async () => {
    const token: string = (await step('next', PAGE0_INDIVIDUAL)).json().state.token;
    clock += 31 * 60_000;
    const res = await step('submit', PAGE2, token);
    expect(res.json().status).toBe('context_invalid');
  });

  it('refuses a state token sealed by an installation with another secret', async () => {
    const other = await createTestApp({ env: { SVC_SECRET: 'another-secret-0123456789-abcdefghijklmnop' } });
    try {
      const res = await other.submit('application', { intent: 'next', values: PAGE0_INDIVIDUAL });
      const foreign: string = res.json().state.token;
      expect((await step('submit', PAGE2, foreign)).json().status).toBe('context_invalid');
    } finally {
      await other.close();
    }
  });
});
