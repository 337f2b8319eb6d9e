/**
 * Reports (issue #35 item 6) on both dialects: a seeded survey's figures exact through the admin
 * API and the console page: submissions per day, week and month of the site's zone (Berlin), by
 * status and spam, and every choice, rating and opinion-scale answer (list answers per element,
 * spam left out, an answer no option has any more kept); bad input refused with a stable code.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { insertSubmissions, type NewSubmission } from '../src/submissions/submission-repository.js';
import { recountForm } from '../src/submissions/report-count-rebuild.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';
import { consoleBrowser } from './support/console-browserless.js';

const KEY = `svc_${randomBytes(24).toString('base64url')}`;
const CONTACT_ONLY = `svc_${randomBytes(24).toString('base64url')}`;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

const SURVEY = `name: Survey
settings:
  spam: { honeypot: false, javascriptTest: false }
fields:
  - { type: select, handle: topic, label: Topic, options: [{ value: sales, label: Sales }, { value: support, label: Support }, { value: other, label: Other }] }
  - { type: radioGroup, handle: contactBy, label: Contact by, options: [email, phone] }
  - { type: checkboxGroup, handle: interests, label: Interests, options: [tea, coffee, cake] }
  - { type: multipleSelect, handle: colours, label: Colours, options: [red, green, blue] }
  - { type: rating, handle: stars, label: Stars, maxValue: 5 }
  - { type: opinionScale, handle: nps, label: Recommend, scales: ["1", "2", "3", "4", "5"] }
  - { type: text, handle: comment, label: Comment }
`;

describeEachDialect('form reports', (target) => {
  let svc: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-reports-'));
    writeFileSync(join(dir, 'survey.yaml'), SURVEY);
    writeFileSync(join(dir, 'contact.yaml'), 'name: Contact\nfields:\n  - { type: text, handle: name, label: Name }\n');
    svc = await createTestApp({
      now: () => new Date('2026-11-27T12:00:00Z'),
      config: {
        database: { url: target.url() },
        forms: { dir, watch: false },
        headless: { forms: {} },
        sites: [{ handle: 'default', language: 'en-US', default: true, timezone: 'Europe/Berlin' }],
        deliveries: { enabled: false },
        admin: { keys: [{ name: 'ops', sha256: sha(KEY), scopes: ['read', 'write'], forms: ['*'] }, { name: 'contact-only', sha256: sha(CONTACT_ONLY), scopes: ['read'], forms: ['contact'] }] },
      },
    });
    const form = svc.context.forms.get('survey');
    if (!form) throw new Error('no survey form');
    const row = (createdAt: string, values: Record<string, unknown>, extra: Partial<NewSubmission> = {}): NewSubmission => ({
      uid: randomUUID(), formId: form.id, tokenHash: sha(randomUUID()), title: 'r', status: 'open', isSpam: false, spamReasons: [], ip: null,
      values: values as NewSubmission['values'], createdAt, ...extra,
    });
    await insertSubmissions(svc.context.database.db, [
      // 23:59 on 31 October in Berlin: before the period.
      row('2026-10-31T22:59:00.000Z', { topic: 'sales', stars: 5 }),
      // 00:30 on 1 November in Berlin.
      row('2026-10-31T23:30:00.000Z', { topic: 'sales', contactBy: 'email', interests: ['tea', 'coffee'], colours: ['red'], stars: 5, nps: '4', comment: 'x' }),
      row('2026-11-01T12:00:00.000Z', { topic: 'support', interests: ['tea'], colours: [], stars: 3, nps: '4' }, { status: 'closed' }),
      row('2026-11-02T10:00:00.000Z', { topic: 'sales', interests: ['cake'], stars: 1, nps: '1' }, { isSpam: true, spamReasons: ['honeypot'] }),
      // 23:30 on 3 November in Berlin; "legacy" is an option the form no longer has.
      row('2026-11-03T22:30:00.000Z', { topic: 'legacy', contactBy: 'phone', interests: ['coffee'], stars: 4, nps: '' }),
      // Midnight of 4 November in Berlin: after the period.
      row('2026-11-03T23:00:00.000Z', { topic: 'other', stars: 2 }),
    ]);
    // Stored under the submit path: counted by the recount an upgrade's boot runs.
    await recountForm(svc.context.database.db, svc.context.database.dialect, svc.context.reportCounts, form, new Date(), true);
  });
  afterAll(async () => {
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const report = async (query: string, key = KEY) => svc.app.inject({ method: 'GET', url: `/svc/api/admin/forms/survey/reports?${query}`, headers: { authorization: `Bearer ${key}` } });
  const answers = (data: { fields: { handle: string; answers: { value: string; count: number }[] }[] }, handle: string) =>
    Object.fromEntries((data.fields.find((f) => f.handle === handle)?.answers ?? []).map((a) => [a.value, a.count]));

  it('counts a period of the site\'s days by day, status, spam and answer, exactly', async () => {
    const res = await report('from=2026-11-01&to=2026-11-03');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect([data.from, data.to, data.timezone, data.total, data.spam]).toEqual(['2026-10-31T23:00:00.000Z', '2026-11-03T23:00:00.000Z', 'Europe/Berlin', 3, 1]);
    expect(data.series).toEqual([{ bucket: '2026-11-01', clean: 2, spam: 0 }, { bucket: '2026-11-02', clean: 0, spam: 1 }, { bucket: '2026-11-03', clean: 1, spam: 0 }]);
    expect(data.statuses).toEqual([{ status: 'open', clean: 2, spam: 1 }, { status: 'pending', clean: 0, spam: 0 }, { status: 'closed', clean: 1, spam: 0 }]);
    expect(data.fields.map((f: { handle: string }) => f.handle)).toEqual(['topic', 'contactBy', 'interests', 'colours', 'stars', 'nps']);
    expect(answers(data, 'topic')).toEqual({ sales: 1, support: 1, other: 0, legacy: 1 });
    expect(data.fields[0].answers.map((a: { label: string }) => a.label)).toEqual(['Sales', 'Support', 'Other', 'legacy']);
    expect(answers(data, 'contactBy')).toEqual({ email: 1, phone: 1 });
    expect(answers(data, 'interests')).toEqual({ tea: 2, coffee: 2, cake: 0 });
    expect(answers(data, 'colours')).toEqual({ red: 1, green: 0, blue: 0 });
    expect(answers(data, 'stars')).toEqual({ 1: 0, 2: 0, 3: 1, 4: 1, 5: 1 });
    expect(answers(data, 'nps')).toEqual({ 1: 0, 2: 0, 3: 0, 4: 2, 5: 0 });
  });

  it('folds the same period into weeks from Monday and into months', async () => {
    const weeks = (await report('from=2026-11-01&to=2026-11-03&interval=week')).json().data.series;
    expect(weeks).toEqual([{ bucket: '2026-10-26', clean: 2, spam: 0 }, { bucket: '2026-11-02', clean: 1, spam: 1 }]);
    const months = (await report('from=2026-11-01&to=2026-11-03&interval=month')).json().data.series;
    expect(months).toEqual([{ bucket: '2026-11', clean: 3, spam: 1 }]);
  });

  it('reads the last 30 days by default, every day shown', async () => {
    const data = (await report('')).json().data;
    expect(data.series).toHaveLength(31);
    expect(data.total).toBe(5);
  });

  it('refuses a bad interval, a reversed period, too many buckets, an unknown parameter and a hidden form', async () => {
    for (const query of ['interval=year', 'from=2026-11-05&to=2026-11-01', 'from=2020-01-01&to=2026-01-01', 'colour=red', 'from=yesterday']) {
      const res = await report(query);
      expect([res.statusCode, res.json().code], query).toEqual([400, 'PAYLOAD_INVALID']);
    }
    expect((await report('', CONTACT_ONLY)).statusCode).toBe(404);
    expect((await svc.app.inject({ method: 'GET', url: '/svc/api/admin/forms/survey/reports' })).statusCode).toBe(401);
  });

  it('draws the console page with a chart and a table of the same figures under each', async () => {
    const browser = await consoleBrowser(svc, KEY);
    const page = await browser.get('/svc/console/forms/survey/reports?from=2026-11-01&to=2026-11-03');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('per day of Europe/Berlin. 3 submission(s), 1 spam.');
    expect(page.body).toContain('<tr><th scope="row">2026-11-02</th><td>0</td><td>1</td></tr>');
    expect(page.body).toContain('<tr><th scope="row">Tea</th><td>2</td><td>66.7%</td></tr>'.replace('Tea', 'tea'));
    expect(page.body).toContain('<tr><th scope="row">legacy</th><td>1</td><td>33.3%</td></tr>');
    expect(page.body.match(/<svg class="chart"/g)).toHaveLength(2 + 6);
    expect(page.body).toMatch(/<div class="scroll" tabindex="0" role="region" aria-label="Answers to Stars">/);
    expect(page.body).not.toMatch(/<script(?! src)|style=/);
    const bad = await browser.get('/svc/console/forms/survey/reports?interval=year');
    expect(bad.statusCode).toBe(400);
  });
});
