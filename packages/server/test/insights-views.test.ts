/**
 * Views deduplicated per state (issue #38): a view is a form handed to a client that does not hold
 * it yet, for a journey not under way. A reload that sends the manifest's ETag (304) is the same
 * view; so is a classic page a journey comes back to through its flash, and the hosted page's own
 * read of its no-JavaScript fallback. Nothing about the person is kept to tell them apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createTestApp, type TestApp } from './support/test-app.js';

const API_KEY = 'insights-views-api-key-0123456789';
const PAGE0 = { fullName: 'Ann Lee', email: 'ann@example.test', applicantType: 'company', heardFrom: 'search' };
const PAGE1 = { companyName: 'Acme', vatNumber: 'DE123456789' };
const PAGE2 = { age: '34', phone: '+1 555 123 4567', startDate: '2026-03-01', agree: true };

describe('insights views, one per state', () => {
  let svc: TestApp;
  let clock = Date.parse('2026-11-22T10:00:00Z');
  const DAY = '2026-11-22';

  beforeAll(async () => {
    svc = await createTestApp({
      now: () => new Date(clock),
      config: { admin: { keys: [{ name: 'ops', sha256: createHash('sha256').update(API_KEY).digest('hex'), scopes: ['read'], forms: ['*'] }] } },
    });
    // The helper's submits read the manifest once for their honeypot: before any test counts.
    await svc.meta('application');
  });
  afterAll(async () => {
    await svc?.close();
  });

  /** The views of `handle` since the last call (each test reads its own). */
  let seen = new Map<string, number>();
  async function newViews(handle: string): Promise<number> {
    const res = await svc.app.inject({ method: 'GET', url: `/svc/api/admin/forms/${handle}/insights?from=${DAY}&to=${DAY}`, headers: { authorization: `Bearer ${API_KEY}` } });
    expect(res.statusCode, res.body).toBe(200);
    const total = res.json().data.views as number;
    const fresh = total - (seen.get(handle) ?? 0);
    seen = new Map(seen).set(handle, total);
    return fresh;
  }

  const manifest = (handle: string, etag?: string) =>
    svc.app.inject({ method: 'GET', url: `/svc/api/forms/${handle}/manifest`, headers: etag ? { 'if-none-match': etag } : {} });

  it('counts one person who reloads the manifest three times within one journey as one view', async () => {
    await newViews('application');
    const first = await manifest('application');
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    let token: string | null = null;
    for (const [intent, values] of [['next', PAGE0], ['next', PAGE1], ['submit', PAGE2]] as const) {
      // The page reloaded: the browser asks again with the ETag of the manifest it holds.
      const reload = await manifest('application', etag);
      expect(reload.statusCode).toBe(304);
      clock += 10_000;
      const res = await svc.submit('application', { intent, values, ...(token ? { context: { stateToken: token } } : {}) });
      token = res.json().state.token;
    }
    expect(token).toBeNull(); // submitted: the journey is over
    expect(await newViews('application')).toBe(1);
    // A client that does not hold it (another person, or a cache that dropped it) is a new view.
    expect((await manifest('application')).statusCode).toBe(200);
    expect((await manifest('application', '"some-older-version"')).statusCode).toBe(200);
    expect(await newViews('application')).toBe(2);
  });

  it('counts a classic journey once: its pages come back through the flash, not as new views', async () => {
    await newViews('application');
    let props = (await svc.app.inject({ method: 'GET', url: '/svc/api/forms/application/properties' })).json();
    for (const fields of [{ ...PAGE0, applicantType: 'individual' }, { agree: '1' }]) {
      const entries: [string, string][] = [['action', props.action], ['formHash', props.hash], ['svc_payload', props.svc_payload], ['svc-action', 'submit']];
      if (props.csrf) entries.push([props.csrf.name, props.csrf.token]);
      if (props.honeypot) entries.push([props.honeypot.name, props.honeypot.value]);
      for (const [name, value] of Object.entries(fields)) entries.push([name, value]);
      const posted = await svc.app.inject({
        method: 'POST',
        url: '/svc/submit',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:5173', referer: 'http://localhost:5173/application' },
        payload: new URLSearchParams(entries).toString(),
      });
      expect(posted.statusCode, posted.body).toBe(303);
      const flash = new URL(posted.headers.location as string).searchParams.get('svc_flash');
      props = (await svc.app.inject({ method: 'GET', url: `/svc/api/forms/application/properties?flash=${flash}` })).json();
    }
    expect(props.finished).toBe(true);
    // The success page's address reloaded: its flash is spent, and it is still the same view.
    const flashed = await svc.app.inject({ method: 'GET', url: '/svc/api/forms/application/properties?flash=spent-or-expired' });
    expect(flashed.json().warnings).toEqual(['flash_not_found']);
    expect(await newViews('application')).toBe(1);
    // A page cached with the form asks for a visitor's own parts: that visitor's view.
    expect((await svc.app.inject({ method: 'GET', url: '/svc/api/forms/application/properties/session' })).statusCode).toBe(200);
    expect(await newViews('application')).toBe(1);
  });

  it('counts a hosted page once, when its element reads the manifest, not for the fallback it draws', async () => {
    await newViews('contact');
    const page = await svc.app.inject({ method: 'GET', url: '/f/contact' });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('<svc-form');
    expect(await newViews('contact')).toBe(0);
    expect((await manifest('contact')).statusCode).toBe(200);
    expect(await newViews('contact')).toBe(1);
  });

  it('counts every GraphQL manifest query: GraphQL has no conditional request', async () => {
    await newViews('contact');
    for (let i = 0; i < 2; i++) {
      const res = await svc.app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ query: '{ svcHeadlessManifest(handle: "contact") }' }) });
      expect(res.json().errors, res.body).toBeUndefined();
    }
    expect(await newViews('contact')).toBe(2);
  });
});
