/**
 * Insights (issue #38): the application form walked 100 times through the REST API with scripted
 * drop-offs (30 leave on page 2, 10 on page 3, 5 fail the email twice first), and exactly those
 * figures read back from the admin API and the console page, on SQLite and on PostgreSQL. Plus
 * the privacy rules (nothing typed or identifying is stored, the console's "<5"), drafts, the
 * Prometheus counters, the figures surviving a close, retention, and bad queries answered 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';
import { purgeExpired } from '../src/storage/purge-job.js';

const API_KEY = 'insights-test-api-key-0123456789';
const METRICS_TOKEN = 'metrics-token-0123456789abcdefghij';
const OWNER_TOKEN = 'graphql-owner-token-0123456789abcdef';
const READER_TOKEN = 'graphql-reader-token-0123456789abcde';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

const PAGE0 = { fullName: 'Ann Lee', email: 'ann@example.test', applicantType: 'company', heardFrom: 'search' };
const PAGE1 = { companyName: 'Acme', vatNumber: 'DE123456789' };
const PAGE2 = { age: '34', phone: '+1 555 123 4567', startDate: '2026-03-01', agree: true };
/** Every page takes this long, so each page's median is known. */
const STEP_MS = 12_000;
const WALK_DAY = '2026-11-22';

function cookiesOf(res: LightMyRequestResponse): Record<string, string> {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return Object.fromEntries(list.map((c) => [c.split('=')[0] as string, (c.split(';')[0] as string).split('=').slice(1).join('=')]));
}

const cell = (html: string, caption: string) => {
  const table = new RegExp(`<caption>${caption}</caption>.*?</table>`, 's').exec(html)?.[0] ?? '';
  return [...table.matchAll(/<td>(.*?)<\/td>/g)].map((m) => m[1]);
};

function walkSuite(url: () => string | null): void {
  let svc: TestApp;
  let clock = Date.parse('2026-11-20T09:00:00Z');
  const tick = (ms = STEP_MS) => (clock += ms);
  const admin = (path: string) => svc.app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${API_KEY}` } });

  async function step(intent: string, values: Record<string, unknown>, token: string | null): Promise<{ status: string; token: string | null; page: number }> {
    tick();
    const res = await svc.submit('application', { intent, values, ...(token ? { context: { stateToken: token } } : {}) });
    const body = res.json();
    return { status: body.status, token: body.state.token, page: body.page.currentIndex };
  }

  beforeAll(async () => {
    svc = await createTestApp({
      now: () => new Date(clock),
      config: {
        database: { url: url() },
        admin: { keys: [{ name: 'ops', sha256: sha(API_KEY), scopes: ['read'], forms: ['*'] }] },
        metrics: { enabled: true, tokenSha256: sha(METRICS_TOKEN) },
        graphql: {
          tokens: [
            { name: 'owner', sha256: sha(OWNER_TOKEN), scopes: ['insights:application:read'] },
            { name: 'reader', sha256: sha(READER_TOKEN), scopes: ['forms:read'] },
          ],
        },
      },
    });
    // The helper reads the manifest once for its honeypot: two days before the period asked for.
    await svc.meta('application');
    clock = Date.parse(`${WALK_DAY}T10:00:00Z`);
    for (let i = 0; i < 100; i++) {
      tick(60_000);
      expect((await svc.app.inject({ method: 'GET', url: '/svc/api/forms/application/manifest' })).statusCode).toBe(200);
      let token: string | null = null;
      if (i < 5) {
        // Five fail the email twice before getting it right.
        for (let fail = 0; fail < 2; fail++) {
          const failed = await step('next', { ...PAGE0, email: 'not-an-email' }, token);
          expect(failed.status).toBe('validation_failed');
          token = failed.token;
        }
      }
      const onCompany = await step('next', PAGE0, token);
      expect([onCompany.status, onCompany.page]).toEqual(['page_valid', 1]);
      if (i >= 5 && i < 35) continue; // 30 leave on page 2
      const onDetails = await step('next', PAGE1, onCompany.token);
      expect([onDetails.status, onDetails.page]).toEqual(['page_valid', 2]);
      if (i >= 35 && i < 45) continue; // 10 leave on page 3
      const done = await step('submit', PAGE2, onDetails.token);
      expect(done.status).toBe('submitted');
    }
    // A contact form seen three times: a count the console shows as "<5".
    for (let i = 0; i < 3; i++) await svc.app.inject({ method: 'GET', url: '/svc/api/forms/contact/manifest' });
  }, 300_000);
  afterAll(async () => {
    await svc?.close();
  });

  it('answers exactly the walked figures from the admin API', async () => {
    const res = await admin(`/svc/api/admin/forms/application/insights?from=${WALK_DAY}&to=${WALK_DAY}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      form: 'application',
      from: `${WALK_DAY}T00:00:00.000Z`,
      to: '2026-11-23T00:00:00.000Z',
      site: null,
      views: 100,
      starts: 100,
      completions: 60,
      completionRate: 0.6,
      pages: [
        // Page 1's clock starts at a journey's first answer: only the five who failed first have one.
        { index: 0, reached: 100, left: 0, medianSeconds: 24 },
        { index: 1, reached: 100, left: 30, medianSeconds: 12 },
        { index: 2, reached: 70, left: 10, medianSeconds: 12 },
      ],
      fields: [{ handle: 'email', errors: 10, messages: [{ key: 'invalidEmail', count: 10 }] }],
      drafts: { saves: 0, resumes: 0 },
    });
  });

  it('counts per site and per period: another site, or a period without the walk, has nothing', async () => {
    const day = (await admin(`/svc/api/admin/forms/application/insights?from=${WALK_DAY}&to=${WALK_DAY}&site=default`)).json().data;
    expect([day.views, day.completions, day.site]).toEqual([100, 60, 'default']);
    const before = (await admin('/svc/api/admin/forms/application/insights?from=2026-11-21T00:00:00Z&to=2026-11-22T10:00:00Z')).json().data;
    expect([before.views, before.starts, before.completions, before.pages[1].reached]).toEqual([0, 0, 0, 0]);
  });

  it('draws the same figures on the console page, with charts and tables, under its CSP', async () => {
    const page = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const signIn = await svc.app.inject({
      method: 'POST',
      url: '/svc/console/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_console_pre=${cookiesOf(page)['svc_console_pre']}` },
      payload: new URLSearchParams({ csrf, apiKey: API_KEY }).toString(),
    });
    const cookie = `svc_console=${cookiesOf(signIn)['svc_console']}`;
    const formPage = await svc.app.inject({ method: 'GET', url: '/svc/console/forms/application', headers: { cookie } });
    expect(formPage.body).toContain('href="/svc/console/forms/application/insights"');
    const res = await svc.app.inject({ method: 'GET', url: `/svc/console/forms/application/insights?from=${WALK_DAY}&to=${WALK_DAY}`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    // Scripts only as files, no inline style: the charts are shapes and classes.
    expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)|style=/);
    expect(res.body.match(/<svg /g)).toHaveLength(3);
    expect(cell(res.body, 'Funnel')).toEqual(['100', '100', '60', '60%', '0', '0']);
    expect(cell(res.body, 'Drop-off by page')).toEqual(['1', '100', '0', '24', '2', '100', '30', '12', '3', '70', '10', '12']);
    expect(cell(res.body, 'Fields with errors')).toEqual(['email', '10', 'invalidEmail: 10']);
    // Three views are exact in the API and "<5" in the console.
    expect((await admin(`/svc/api/admin/forms/contact/insights?from=${WALK_DAY}&to=${WALK_DAY}`)).json().data.views).toBe(3);
    const contact = await svc.app.inject({ method: 'GET', url: `/svc/console/forms/contact/insights?from=${WALK_DAY}&to=${WALK_DAY}`, headers: { cookie } });
    expect(cell(contact.body, 'Funnel')).toEqual(['&lt;5', '0', '0', '—', '0', '0']);
    const signedOut = await svc.app.inject({ method: 'GET', url: '/svc/console/forms/application/insights' });
    expect([signedOut.statusCode, signedOut.headers.location]).toEqual([303, '/svc/console/sign-in']);
  });

  it('stores counts only: nothing anyone typed, no address, no token', async () => {
    const db = svc.context.database.db;
    const rows = [
      ...(await db.selectFrom('svc_insight_steps').selectAll().execute()),
      ...(await db.selectFrom('svc_insight_field_errors').selectAll().execute()),
      ...(await db.selectFrom('svc_insight_counts').selectAll().execute()),
      ...(await db.selectFrom('svc_insight_durations').selectAll().execute()),
    ];
    expect(rows.length).toBeGreaterThan(10);
    const text = JSON.stringify(rows);
    for (const typed of ['Ann', 'ann@example', 'not-an-email', 'Acme', 'DE123456789', '555', '127.0.0.1']) expect(text).not.toContain(typed);
    // The columns are the aggregate's key and its count, nothing else.
    expect(Object.keys(rows[0] as object).sort()).toEqual(['form_id', 'hour', 'intent', 'n', 'outcome', 'page', 'site']);
  });

  it('answers the same figures over GraphQL to a token with the insights scope, and to no one else', async () => {
    const query = `{ svcInsights(handle: "application", from: "${WALK_DAY}", to: "${WALK_DAY}") {
      views starts completions completionRate pages { index reached left medianSeconds } fields { handle errors messages { key count } } drafts { saves resumes } } }`;
    const ask = (token: string | null) =>
      svc.app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, payload: JSON.stringify({ query }) });
    const owner = (await ask(OWNER_TOKEN)).json();
    expect(owner.errors).toBeUndefined();
    expect(owner.data.svcInsights).toEqual({
      views: 100,
      starts: 100,
      completions: 60,
      completionRate: 0.6,
      pages: [
        { index: 0, reached: 100, left: 0, medianSeconds: 24 },
        { index: 1, reached: 100, left: 30, medianSeconds: 12 },
        { index: 2, reached: 70, left: 10, medianSeconds: 12 },
      ],
      fields: [{ handle: 'email', errors: 10, messages: [{ key: 'invalidEmail', count: 10 }] }],
      drafts: { saves: 0, resumes: 0 },
    });
    for (const token of [READER_TOKEN, null]) {
      const refused = (await ask(token)).json();
      expect([refused.data?.svcInsights ?? null, refused.errors?.[0]?.extensions?.code]).toEqual([null, 'FORM_NOT_FOUND']);
    }
  });

  it('moves the Prometheus counters', async () => {
    const text = (await svc.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    expect(text).toMatch(/svc_form_views_total\{form="application"\} 101/);
    expect(text).toMatch(/svc_form_starts_total\{form="application"\} 100/);
    expect(text).toMatch(/svc_form_completions_total\{form="application"\} 60/);
    expect(text).toMatch(/svc_form_field_errors_total\{form="application",field="email"\} 10/);
  });

  it('refuses a bad period or an unknown site with a catalogue error, and needs a key', async () => {
    const bad = await admin('/svc/api/admin/forms/application/insights?from=yesterday');
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'PAYLOAD_INVALID']);
    const backwards = await admin('/svc/api/admin/forms/application/insights?from=2026-11-23&to=2026-11-22');
    expect([backwards.statusCode, backwards.json().code]).toEqual([400, 'PAYLOAD_INVALID']);
    const unknown = await admin('/svc/api/admin/forms/application/insights?limit=5');
    expect([unknown.statusCode, unknown.json().code]).toEqual([400, 'PAYLOAD_INVALID']);
    const site = await admin('/svc/api/admin/forms/application/insights?site=nowhere');
    expect([site.statusCode, site.json().code]).toEqual([404, 'SITE_NOT_FOUND']);
    const form = await admin('/svc/api/admin/forms/nothing/insights');
    expect([form.statusCode, form.json().code]).toEqual([404, 'FORM_NOT_FOUND']);
    const anonymous = await svc.app.inject({ method: 'GET', url: '/svc/api/admin/forms/application/insights' });
    expect([anonymous.statusCode, anonymous.json().code]).toEqual([401, 'AUTH_REQUIRED']);
  });
}

describeEachDialect('insights of 100 walks through the application form', (target) => walkSuite(() => target.url()));

describe('insights of drafts, of a close, and past their retention', () => {
  let svc: TestApp;
  let clock = Date.parse('2026-11-22T10:00:00Z');
  const report = async (handle: string) =>
    (await svc.app.inject({ method: 'GET', url: `/svc/api/admin/forms/${handle}/insights?from=2026-11-01&to=2026-11-30`, headers: { authorization: `Bearer ${API_KEY}` } })).json().data;

  beforeAll(async () => {
    svc = await createTestApp({ now: () => new Date(clock), config: { admin: { keys: [{ name: 'ops', sha256: sha(API_KEY), scopes: ['read'], forms: ['*'] }] } } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('counts a draft saved and resumed, and the resumed journey goes on from its page', async () => {
    const first = (await svc.submit('application', { intent: 'next', values: PAGE0 })).json();
    const saved = (await svc.submit('application', { intent: 'saveDraft', values: { ...PAGE0, companyName: 'Acme' }, context: { stateToken: first.state.token } })).json();
    expect(saved.status).toBe('draft_saved');
    clock += 3_600_000;
    const resumed = await svc.submit('application', { intent: 'next', values: PAGE1, context: { draftToken: saved.draft.token, draftKey: saved.draft.key } });
    expect(resumed.json()).toMatchObject({ status: 'page_valid', page: { currentIndex: 2 } });
    const data = await report('application');
    expect(data.drafts).toEqual({ saves: 1, resumes: 1 });
    expect([data.starts, data.completions]).toEqual([1, 0]);
    // One journey: it reached each page once and now waits on the last.
    expect(data.pages.map((p: { reached: number; left: number }) => [p.reached, p.left])).toEqual([[1, 0], [1, 0], [1, 1]]);
  });

  it('counts a single-page form stored in one step as started and completed, and an idempotent replay of it not again', async () => {
    const body = { intent: 'submit', values: { firstName: 'Kim', lastName: 'Lee', email: 'kim@example.test', message: 'Hello there' } };
    const res = await svc.submit('contact', body, { 'idempotency-key': 'insights-replay-0001' });
    expect(res.json().status).toBe('submitted');
    const replay = await svc.submit('contact', body, { 'idempotency-key': 'insights-replay-0001' });
    expect(replay.json().submission.id).toBe(res.json().submission.id);
    const data = await report('contact');
    expect([data.starts, data.completions, data.completionRate]).toEqual([1, 1, 1]);
  });

  it('writes the counts of the last window when the app closes, and the hourly purge drops them after insights.retentionDays', async () => {
    const dataDir = svc.dataDir;
    const views = async (db: TestApp['context']['database']['db']) =>
      (await db.selectFrom('svc_insight_counts').select('n').where('kind', '=', 'view').execute()).reduce((sum, r) => sum + Number(r.n), 0);
    await report('contact'); // writes what is pending
    const before = await views(svc.context.database.db);
    await svc.app.inject({ method: 'GET', url: '/svc/api/forms/contact/manifest' });
    // Closed without a report flushing first: the close path writes what is pending.
    await svc.app.close();
    const { buildApp } = await import('../src/app.js');
    const again = await buildApp(svc.config, { logger: false, now: () => new Date(clock) });
    try {
      expect(await views(again.context.database.db)).toBe(before + 1);
      clock += 400 * 86_400_000;
      const purged = await purgeExpired(again.context);
      expect(purged.insights).toBeGreaterThan(0);
      expect(await again.context.database.db.selectFrom('svc_insight_counts').selectAll().execute()).toEqual([]);
    } finally {
      await again.close();
    }
    expect(dataDir).toBe(svc.dataDir);
  });
});

describe('insights switched off', () => {
  it('counts nothing: no step listener, no view counting, no rows', async () => {
    const svc = await createTestApp({ config: { insights: { enabled: false }, admin: { keys: [{ name: 'ops', sha256: sha(API_KEY), scopes: ['read'], forms: ['*'] }] } } });
    try {
      expect([svc.context.insights.enabled, svc.context.submit.steps]).toEqual([false, undefined]);
      await svc.app.inject({ method: 'GET', url: '/svc/api/forms/contact/manifest' });
      await svc.submit('contact', { intent: 'submit', values: { firstName: 'Kim', lastName: 'Lee', email: 'kim@example.test', message: 'Hello there' } });
      expect(await svc.context.database.db.selectFrom('svc_insight_counts').selectAll().execute()).toEqual([]);
      expect(await svc.context.database.db.selectFrom('svc_insight_steps').selectAll().execute()).toEqual([]);
    } finally {
      await svc.close();
    }
  });
});
