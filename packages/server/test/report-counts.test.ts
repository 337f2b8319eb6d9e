/**
 * The report's counts kept at write time (issue #35 item 6) on both dialects: after a scripted
 * sequence of submits (batched, spam, with a file), status and spam changes one at a time and in
 * bulk, value edits, deletes one at a time and in bulk, and the retention purge, the report equals
 * a recount of the stored rows after every step: totals, statuses, days and every answer, and the
 * kept counts equal what a recount from scratch writes; the recount at boot (the backfill) and
 * after a change of a form's reported fields.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';
import { fieldPart, filePart, multipartBody } from './support/multipart-body.js';
import { PNG } from './support/admin-fixture.js';
import { recountChangedForms, recountForm } from '../src/submissions/report-count-rebuild.js';
import { purgeExpired } from '../src/storage/purge-job.js';
import { openSubmissionValues } from '../src/privacy/privacy-sealer.js';

const KEY = `svc_${randomBytes(24).toString('base64url')}`;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

const SURVEY = `name: Survey
settings:
  spam: { honeypot: false, javascriptTest: false }
fields:
  - { type: select, handle: topic, label: Topic, options: [sales, support, other] }
  - { type: checkboxGroup, handle: interests, label: Interests, options: [tea, coffee, cake] }
  - { type: rating, handle: stars, label: Stars, maxValue: 5 }
  - { type: opinionScale, handle: nps, label: Recommend, scales: ["1", "2", "3"] }
  - { type: text, handle: comment, label: Comment }
  - { type: file, handle: photo, label: Photo, fileKinds: [image], fileCount: 1 }
`;

const TOPICS = ['sales', 'support', 'other'];
const INTERESTS = [[], ['tea'], ['tea', 'coffee'], ['cake', 'coffee', 'tea']];
const REPORTED = { topic: false, interests: true, stars: false, nps: false } as const;

describeEachDialect('report counts kept at write time', (target) => {
  let svc: TestApp;
  let dir: string;
  // The clock moves through two weeks and across hours, so rows land in many hours and days.
  let clock = new Date('2026-11-10T08:15:00Z');
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-report-counts-'));
    writeFileSync(join(dir, 'survey.yaml'), SURVEY);
    svc = await createTestApp({
      now: () => clock,
      config: {
        database: { url: target.url() },
        forms: { dir, watch: false },
        headless: { forms: { survey: { exposeManifest: true, allowSubmit: true } } },
        sites: [{ handle: 'default', language: 'en-US', default: true, timezone: 'Europe/Berlin' }],
        spam: { blockedKeywords: ['viagra'] },
        rateLimit: { enabled: false },
        retention: { spamPurgeAfterDays: 7 },
        deliveries: { enabled: false },
        admin: { keys: [{ name: 'ops', sha256: sha(KEY), scopes: ['read', 'write'], forms: ['*'] }] },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const form = () => {
    const found = svc.context.forms.get('survey');
    if (!found) throw new Error('no survey form');
    return found;
  };
  const values = (i: number) => ({
    topic: TOPICS[i % 3],
    interests: INTERESTS[i % 4],
    stars: (i % 5) + 1,
    nps: i % 4 === 3 ? '' : String((i % 3) + 1),
    comment: i % 7 === 0 ? 'cheap viagra' : `note ${i}`,
  });
  const ok = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res;
  };
  const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    svc.app.inject({ method, url, headers: { authorization: `Bearer ${KEY}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { payload: JSON.stringify(body) } : {}) }).then(ok);
  const ids = async () => (await svc.context.database.db.selectFrom('svc_submissions').select('id').where('form_id', '=', form().id).orderBy('id').execute()).map((r) => Number(r.id));
  const submitWithPhoto = async (i: number) => {
    const { token, cookie } = await svc.csrf();
    const body = multipartBody([fieldPart('_svc', JSON.stringify({ intent: 'submit', values: values(i) })), fieldPart('SVC_CSRF_TOKEN', token), filePart('files[photo][]', 'p.png', PNG, 'image/png')]);
    ok(await svc.app.inject({ method: 'POST', url: '/svc/api/forms/survey/submit', headers: { ...body.headers, cookie }, payload: body.payload }));
  };

  /** Two periods: the whole month, and one whose ends fall inside days (summed from hourly counts there). */
  const PERIODS = [
    { query: 'from=2026-10-20&to=2026-11-30', from: '2026-10-19T22:00:00Z', to: '2026-11-29T23:00:00Z' },
    { query: 'from=2026-10-29T05:00:00Z&to=2026-11-03T17:00:00Z', from: '2026-10-29T05:00:00Z', to: '2026-11-03T17:00:00Z' },
  ];
  const report = async (query: string) => (await admin('GET', `/svc/api/admin/forms/survey/reports?${query}`)).json().data;

  /** What the report must say, counted here from the stored rows (in the same period). */
  const recount = async (from: string, to: string) => {
    const rows = (await svc.context.database.db.selectFrom('svc_submissions').select(['uid', 'status', 'is_spam', 'title', 'values', 'data_key', 'created_at']).where('form_id', '=', form().id).execute()).filter(
      (row) => Date.parse(row.created_at) >= Date.parse(from) && Date.parse(row.created_at) < Date.parse(to),
    );
    const statuses: Record<string, { clean: number; spam: number }> = {};
    const answers: Record<string, Record<string, number>> = {};
    const days: Record<string, number> = {};
    const berlin = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' });
    for (const row of rows) {
      const spam = Number(row.is_spam) === 1;
      const entry = (statuses[row.status] ??= { clean: 0, spam: 0 });
      if (spam) entry.spam++;
      else entry.clean++;
      const day = berlin.format(new Date(row.created_at));
      days[day] = (days[day] ?? 0) + 1;
      if (spam) continue;
      const stored = openSubmissionValues<Record<string, unknown>>(svc.context.sealer, row) ?? {};
      for (const [handle, list] of Object.entries(REPORTED)) {
        const value = stored[handle];
        const given = list ? (Array.isArray(value) ? value : []) : value === undefined || value === null || value === '' ? [] : [value];
        for (const one of given) (answers[handle] ??= {})[String(one)] = (answers[handle]?.[String(one)] ?? 0) + 1;
      }
    }
    return { statuses, answers, days };
  };

  /** The report against the rows, and the kept counts against a recount from scratch. */
  const expectExact = async (step: string) => {
    for (const period of PERIODS) await expectPeriod(`${step}, ${period.query}`, period);
    const kept = await countsTables();
    await recountForm(svc.context.database.db, svc.context.database.dialect, svc.context.reportCounts, form(), clock, true);
    expect(kept, step).toEqual(await countsTables());
  };
  const expectPeriod = async (step: string, period: (typeof PERIODS)[number]) => {
    const data = await report(period.query);
    const expected = await recount(period.from, period.to);
    expect(Object.keys(expected.days).length, step).toBeGreaterThan(0);
    const statuses = Object.fromEntries((data.statuses as { status: string; clean: number; spam: number }[]).filter((s) => s.clean + s.spam > 0).map((s) => [s.status, { clean: s.clean, spam: s.spam }]));
    expect(statuses, step).toEqual(expected.statuses);
    const answers = Object.fromEntries(
      (data.fields as { handle: string; answers: { value: string; count: number }[] }[]).map((f) => [f.handle, Object.fromEntries(f.answers.filter((a) => a.count > 0).map((a) => [a.value, a.count]))]),
    );
    expect(answers, step).toEqual({ topic: {}, interests: {}, stars: {}, nps: {}, ...expected.answers });
    const days = Object.fromEntries((data.series as { bucket: string; clean: number; spam: number }[]).filter((b) => b.clean + b.spam > 0).map((b) => [b.bucket, b.clean + b.spam]));
    expect(days, step).toEqual(expected.days);
  };
  const countsTables = async () => {
    const db = svc.context.database.db;
    // Summed over the copies (slots) PostgreSQL's batches spread the rows over; zero sums left out.
    const sum = sql<string | number>`sum(n)`.as('n');
    const id = form().id;
    const keep = <T extends { n: string | number }>(rows: T[]) => rows.filter((r) => Number(r.n) !== 0);
    const counts = keep(await db.selectFrom('svc_report_counts').select(['hour', 'status', 'is_spam', sum]).where('form_id', '=', id).groupBy(['hour', 'status', 'is_spam']).orderBy('hour').orderBy('status').orderBy('is_spam').execute());
    const countDays = keep(await db.selectFrom('svc_report_count_days').select(['day', 'status', 'is_spam', sum]).where('form_id', '=', id).groupBy(['day', 'status', 'is_spam']).orderBy('day').orderBy('status').orderBy('is_spam').execute());
    const answers = keep(await db.selectFrom('svc_report_answers').select(['hour', 'handle', 'answer', sum]).where('form_id', '=', id).groupBy(['hour', 'handle', 'answer']).orderBy('hour').orderBy('handle').orderBy('answer').execute());
    const answerDays = keep(await db.selectFrom('svc_report_answer_days').select(['day', 'handle', 'answer', sum]).where('form_id', '=', id).groupBy(['day', 'handle', 'answer']).orderBy('day').orderBy('handle').orderBy('answer').execute());
    return {
      counts: counts.map((r) => [Number(r.hour), r.status, Number(r.is_spam), Number(r.n)]),
      countDays: countDays.map((r) => [Number(r.day), r.status, Number(r.is_spam), Number(r.n)]),
      answers: answers.map((r) => [Number(r.hour), r.handle, r.answer, Number(r.n)]),
      answerDays: answerDays.map((r) => [Number(r.day), r.handle, r.answer, Number(r.n)]),
    };
  };

  it('keeps the report equal to a recount of the rows through every kind of write', { timeout: 60_000 }, async () => {
    // Submits: in groups at once (the write batcher puts each group in one transaction), spread
    // over hours and days; every seventh is spam (a blocked word); two carry a file.
    for (let group = 0; group < 6; group++) {
      clock = new Date(Date.parse('2026-10-28T21:40:00Z') + group * 37 * 3_600_000);
      await Promise.all(Array.from({ length: 6 }, (_v, k) => svc.submit('survey', { intent: 'submit', values: values(group * 6 + k) }).then(ok)));
    }
    await submitWithPhoto(40);
    await submitWithPhoto(41);
    clock = new Date('2026-11-10T12:00:00Z');
    await expectExact('submits');
    const all = await ids();
    expect(all).toHaveLength(38);

    ok(await admin('PATCH', `/svc/api/admin/submissions/${all[1]}`, { status: 'closed' }));
    ok(await admin('PATCH', `/svc/api/admin/submissions/${all[2]}`, { isSpam: true }));
    ok(await admin('PATCH', `/svc/api/admin/submissions/${all[7]}`, { isSpam: false, status: 'pending' }));
    await expectExact('single status and spam changes');

    ok(await admin('PATCH', `/svc/api/admin/submissions/${all[3]}`, { values: { topic: 'other', interests: ['cake'], stars: 1 } }));
    ok(await admin('PATCH', `/svc/api/admin/submissions/${all[2]}`, { values: { topic: 'sales' } }));
    await expectExact('value edits, clean and spam');

    ok(await admin('POST', '/svc/api/admin/forms/survey/submissions/bulk', { filter: { status: 'open', spam: false }, action: 'setStatus', status: 'pending' }));
    ok(await admin('POST', '/svc/api/admin/forms/survey/submissions/bulk', { ids: all.slice(8, 20), action: 'markSpam' }));
    ok(await admin('POST', '/svc/api/admin/forms/survey/submissions/bulk', { ids: all.slice(15, 18), action: 'markNotSpam' }));
    await expectExact('bulk status and spam');

    ok(await admin('DELETE', `/svc/api/admin/submissions/${all[0]}`));
    ok(await admin('POST', '/svc/api/admin/forms/survey/submissions/bulk', { ids: [all[4], all[5], all[36]], action: 'delete' }));
    await expectExact('deletes');

    // Spam older than 7 days goes with the purge.
    const purged = await purgeExpired(svc.context);
    expect(purged.spam).toBeGreaterThan(0);
    await expectExact('retention purge');
  });

  const recountChanged = () => recountChangedForms(svc.context.database.db, svc.context.database.dialect, svc.context.reportCounts, svc.context.forms.list(), () => clock, { info: () => undefined });

  it('recounts at boot a form counted by no earlier start (the backfill), and only such a form', { timeout: 30_000 }, async () => {
    const db = svc.context.database.db;
    const before = await countsTables();
    expect(before.counts.length).toBeGreaterThan(0);
    // An installation from before the counts: no record of the form, no counts.
    await db.deleteFrom('svc_report_forms').execute();
    for (const table of ['svc_report_counts', 'svc_report_answers', 'svc_report_count_days', 'svc_report_answer_days'] as const) await db.deleteFrom(table).execute();
    await recountChanged();
    expect(await countsTables()).toEqual(before);
    await expectExact('backfill');
    // Counted for these fields already: nothing is read again.
    expect(await recountForm(db, svc.context.database.dialect, svc.context.reportCounts, form(), clock)).toBeNull();
  });

  it('recounts a form whose reported fields changed, so a field turned into a choice counts its stored answers', { timeout: 30_000 }, async () => {
    writeFileSync(join(dir, 'survey.yaml'), SURVEY.replace('{ type: text, handle: comment, label: Comment }', '{ type: select, handle: comment, label: Comment, options: [note 1] }'));
    await svc.context.forms.reload();
    // The reload's own recount (forms.onChange) and this one are one transaction after the other.
    await recountChanged();
    const counted = (await report(PERIODS[0]?.query ?? '')).fields.find((f: { handle: string }) => f.handle === 'comment');
    const expected: Record<string, number> = {};
    const rows = await svc.context.database.db.selectFrom('svc_submissions').select(['uid', 'is_spam', 'title', 'values', 'data_key']).where('form_id', '=', form().id).execute();
    for (const row of rows) {
      const comment = Number(row.is_spam) === 1 ? undefined : openSubmissionValues<Record<string, unknown>>(svc.context.sealer, row)?.['comment'];
      if (typeof comment === 'string') expected[comment] = (expected[comment] ?? 0) + 1;
    }
    expect(Object.keys(expected).length).toBeGreaterThan(1);
    expect(Object.fromEntries(counted.answers.filter((a: { count: number }) => a.count > 0).map((a: { value: string; count: number }) => [a.value, a.count]))).toEqual(expected);
  });
});
