/** Drafts: `intent: "saveDraft"` and resuming with `context.draftToken` + `draftKey` (contract §5, interface.md §3). */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { countSubmissions, findSubmission } from '../src/submissions/submission-repository.js';
import type { SubmitBody } from '../src/submissions/submit-response.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';

const FIXTURES = resolve(import.meta.dirname, 'fixtures/forms');
const DAY_MS = 86_400_000;

/** Page 0 of `application` for an individual: `next` goes straight to "Details" (page 2). */
const PAGE0 = { fullName: 'Zebra-unique-42', email: 'zebra@example.test', applicantType: 'individual', heardFrom: 'search' };
const PAGE2 = { age: '34', phone: '+1 555 123 4567', startDate: '2026-03-01', agree: true };
const CONTACT = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hello' };

interface DraftPair {
  readonly token: string;
  readonly key: string;
}

type Row = Record<string, unknown>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function alphanumeric(length: number): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(length), (byte) => chars[byte % chars.length]).join('');
}

function body(res: LightMyRequestResponse): SubmitBody {
  return res.json<SubmitBody>();
}

function draftOf(res: LightMyRequestResponse): DraftPair & { resumeUrl: string | null } {
  const draft = body(res).draft;
  if (!draft) throw new Error(`expected a draft in ${res.statusCode} ${res.body}`);
  return draft;
}

async function draftRows(svc: TestApp): Promise<Row[]> {
  const result = await sql<Row>`select * from svc_drafts`.execute(svc.context.database.db);
  return result.rows;
}

async function draftRowsFor(svc: TestApp, token: string): Promise<Row[]> {
  const result = await sql<Row>`select * from svc_drafts where token_hash = ${sha256(token)}`.execute(svc.context.database.db);
  return result.rows;
}

function columnText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Buffer.isBuffer(value)) return `${value.toString('utf8')} ${value.toString('hex')} ${value.toString('base64')}`;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

describeEachDialect('drafts', (target) => {
  let svc: TestApp;
  let fixtures: TestApp;

  beforeAll(async () => {
    svc = await createTestApp({ config: { database: { url: target.url() } } });
    fixtures = await createTestApp({
      config: {
        database: { url: target.url() },
        forms: { dir: FIXTURES },
        headless: { forms: { strict: { allowSubmit: true, exposeManifest: true } } },
      },
    });
  });
  afterAll(async () => {
    await fixtures?.close();
    await svc?.close();
  });

  function send(app: TestApp, handle: string, intent: string, values: Record<string, unknown>, context: Record<string, string> = {}) {
    return app.submit(handle, { intent, values, ...(Object.keys(context).length > 0 ? { context } : {}) });
  }
  function resume(app: TestApp, handle: string, intent: string, values: Record<string, unknown>, draft: DraftPair, extra: Record<string, string> = {}) {
    return send(app, handle, intent, values, { draftToken: draft.token, draftKey: draft.key, ...extra });
  }
  const formId = (app: TestApp, handle: string) => app.context.forms.get(handle)?.id ?? -1;

  it('saves a draft on application page 0 and answers draft_saved with a token, a key and the filled-in resume URL', async () => {
    const before = (await draftRows(svc)).length;
    const res = await send(svc, 'application', 'saveDraft', PAGE0);
    expect(res.statusCode).toBe(200);
    const saved = body(res);
    expect(saved).toMatchObject({
      success: true,
      status: 'draft_saved',
      complete: false,
      submission: null,
      state: { pageIndex: 0 },
      errors: { fields: {}, form: [] },
    });
    expect(saved.state.values).toMatchObject(PAGE0);
    const draft = draftOf(res);
    expect(draft.token).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(draft.key).toMatch(/^[A-Za-z0-9]{25}$/);
    expect(draft.resumeUrl).toBe(
      `http://localhost:3000/demo/resume?form=application&token=${encodeURIComponent(draft.token)}&key=${encodeURIComponent(draft.key)}`,
    );
    expect((await draftRows(svc)).length).toBe(before + 1);
  });

  it('answers resumeUrl null for a form without saveRedirectUrl (contact)', async () => {
    const res = await send(svc, 'contact', 'saveDraft', CONTACT);
    expect(res.statusCode).toBe(200);
    expect(body(res).status).toBe('draft_saved');
    const draft = draftOf(res);
    expect(draft.resumeUrl).toBeNull();
    expect(draft.token).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(draft.key).toMatch(/^[A-Za-z0-9]{25}$/);
  });

  it('issues a different token and key for every new draft', async () => {
    const a = draftOf(await send(svc, 'contact', 'saveDraft', CONTACT));
    const b = draftOf(await send(svc, 'contact', 'saveDraft', CONTACT));
    expect(b.token).not.toBe(a.token);
    expect(b.key).not.toBe(a.key);
  });

  it.each([
    ['application', 'a missing required field and an invalid email', { fullName: 'Ann', email: 'not-an-email' }],
    ['application', 'no values at all', {}],
    ['contact', 'a message over maxLength and no first name', { email: 'x', message: 'x'.repeat(501) }],
  ])('saves a %s draft with %s: field validation is skipped', async (handle, _label, values) => {
    const before = (await draftRows(svc)).length;
    const res = await send(svc, handle, 'saveDraft', values);
    expect(res.statusCode).toBe(200);
    expect(body(res)).toMatchObject({ success: true, status: 'draft_saved', errors: { fields: {}, form: [] } });
    expect((await draftRows(svc)).length).toBe(before + 1);
  });

  it('stores only the SHA-256 hex hash of the token: no column holds the raw token, the key or a value', async () => {
    const draft = draftOf(await send(svc, 'application', 'saveDraft', PAGE0));
    const rows = await draftRowsFor(svc, draft.token);
    expect(rows).toHaveLength(1);
    const row = rows[0] as Row;
    expect(row.token_hash).toBe(sha256(draft.token));
    for (const [column, value] of Object.entries(row)) {
      const text = columnText(value);
      expect(text, `column ${column}`).not.toContain(draft.token);
      expect(text, `column ${column}`).not.toContain(draft.key);
      expect(text, `column ${column}`).not.toContain('Zebra-unique-42');
      expect(text, `column ${column}`).not.toContain('zebra@example.test');
    }
  });

  it('never pretends to save a spam draft, even with simulate_success: 422 spam_rejected saying why, nothing stored', async () => {
    const before = (await draftRows(svc)).length;
    const honeypot = (await svc.manifest('contact')).security.honeypot?.name;
    const res = await svc.submit('contact', { intent: 'saveDraft', values: CONTACT, meta: { honeypot: { name: honeypot, value: 'I am a bot' } } });
    expect(res.statusCode).toBe(422);
    expect(body(res)).toMatchObject({ success: false, status: 'spam_rejected', complete: false, submission: null, draft: null });
    expect(body(res).errors.form[0]).toMatch(/^The draft was not saved/);
    expect((await draftRows(svc)).length).toBe(before);
  });

  it('refuses a spam draft with 422 spam_rejected and stores nothing when the form says display_errors', async () => {
    const before = (await draftRows(fixtures)).length;
    const res = await fixtures.submit('strict', { intent: 'saveDraft', values: { name: 'Bot' }, meta: { honeypot: { name: 'wrong', value: 'x' } } });
    expect(res.statusCode).toBe(422);
    expect(body(res)).toMatchObject({ success: false, status: 'spam_rejected', submission: null, draft: null });
    expect((await draftRows(fixtures)).length).toBe(before);
  });

  it('resumes a draft on next with empty values and moves past page 0 with the saved values', async () => {
    const draft = draftOf(await send(svc, 'application', 'saveDraft', PAGE0));
    const res = await resume(svc, 'application', 'next', {}, draft);
    expect(res.statusCode).toBe(200);
    const next = body(res);
    expect(next).toMatchObject({ success: true, status: 'page_valid', page: { currentIndex: 2, total: 3 } });
    expect(next.state.values).toMatchObject(PAGE0);
  });

  it.each([
    ['keeps the loaded value when the posted one is empty', '', PAGE0.fullName],
    ['replaces the loaded value with a non-empty posted one', 'Bea Ray', 'Bea Ray'],
  ])('on resume %s', async (_label, posted, expected) => {
    const draft = draftOf(await send(svc, 'application', 'saveDraft', PAGE0));
    const res = await resume(svc, 'application', 'next', { fullName: posted }, draft);
    expect(res.statusCode).toBe(200);
    expect(body(res).state.values.fullName).toBe(expected);
  });

  async function draftOnDetailsPage(): Promise<DraftPair> {
    const toDetails = body(await send(svc, 'application', 'next', PAGE0));
    expect(toDetails.page.currentIndex).toBe(2);
    const res = await send(svc, 'application', 'saveDraft', { age: '34' }, { stateToken: toDetails.state.token ?? '' });
    expect(res.statusCode).toBe(200);
    const saved = body(res);
    expect(saved.status).toBe('draft_saved');
    expect(saved.state.pageIndex).toBe(2);
    expect(saved.state.values).toMatchObject({ ...PAGE0, age: '34' });
    return draftOf(res);
  }

  it('keeps the page index: a draft saved on page 2 resumes on page 2 without a state token', async () => {
    const draft = await draftOnDetailsPage();
    const res = await resume(svc, 'application', 'validate', PAGE2, draft);
    expect(res.statusCode).toBe(200);
    const validated = body(res);
    expect(validated).toMatchObject({ status: 'validated', page: { currentIndex: 2, total: 3 }, state: { pageIndex: 2 } });
    expect(validated.state.values).toMatchObject({ ...PAGE0, age: '34' });
  });

  it('completes a draft saved on page 2 with a final submit of the page-3 values, then deletes the draft', async () => {
    const draft = await draftOnDetailsPage();
    const before = await countSubmissions(svc.context.database.db, formId(svc, 'application'));
    const res = await resume(svc, 'application', 'submit', PAGE2, draft);
    expect(res.statusCode).toBe(200);
    const done = body(res);
    expect(done).toMatchObject({ success: true, status: 'submitted', complete: true });
    const stored = await findSubmission(svc.context.database.db, done.submission?.id ?? -1, svc.context.sealer);
    expect(stored?.values).toMatchObject({ ...PAGE0, age: '34', agree: 'yes' });
    expect(await countSubmissions(svc.context.database.db, formId(svc, 'application'))).toBe(before + 1);
    expect(await draftRowsFor(svc, draft.token)).toHaveLength(0);
    // contract §5: the deleted draft loads nothing; the request runs on what it posted, with a warning.
    const again = await resume(svc, 'application', 'validate', PAGE2, draft);
    expect(again.statusCode).toBe(422);
    expect(body(again)).toMatchObject({ status: 'validation_failed', draft: null, warnings: ['draft_not_loaded'] });
    expect(body(again).state.values).not.toHaveProperty('fullName');
  });

  it('deletes a single-page draft on a successful final submit that takes its values from the draft', async () => {
    const draft = draftOf(await send(svc, 'contact', 'saveDraft', CONTACT));
    expect(await draftRowsFor(svc, draft.token)).toHaveLength(1);
    const res = await resume(svc, 'contact', 'submit', {}, draft);
    expect(res.statusCode).toBe(200);
    const done = body(res);
    expect(done.status).toBe('submitted');
    const stored = await findSubmission(svc.context.database.db, done.submission?.id ?? -1, svc.context.sealer);
    expect(stored?.values).toMatchObject(CONTACT);
    expect(await draftRowsFor(svc, draft.token)).toHaveLength(0);
    const again = await resume(svc, 'contact', 'validate', {}, draft);
    expect(again.statusCode).toBe(422);
    expect(body(again)).toMatchObject({ success: false, status: 'validation_failed', warnings: ['draft_not_loaded'] });
  });

  it('keeps the draft when the final submit fails validation', async () => {
    const draft = draftOf(await send(svc, 'contact', 'saveDraft', { firstName: 'Ann' }));
    const res = await resume(svc, 'contact', 'submit', {}, draft);
    expect(res.statusCode).toBe(422);
    expect(body(res).status).toBe('validation_failed');
    expect(await draftRowsFor(svc, draft.token)).toHaveLength(1);
  });

  it('passes over a wrong key exactly like an unknown token: same status, same body, one warning (no oracle)', async () => {
    const draft = draftOf(await send(svc, 'application', 'saveDraft', PAGE0));
    const other = draftOf(await send(svc, 'application', 'saveDraft', PAGE0));
    const cases: ReadonlyArray<readonly [string, DraftPair]> = [
      ['a random key', { token: draft.token, key: alphanumeric(25) }],
      ["another draft's key", { token: draft.token, key: other.key }],
      ['an unknown token', { token: alphanumeric(40), key: draft.key }],
    ];
    const answers: Array<{ label: string; statusCode: number; body: SubmitBody }> = [];
    for (const [label, pair] of cases) {
      const res = await resume(svc, 'application', 'next', {}, pair);
      answers.push({ label, statusCode: res.statusCode, body: body(res) });
    }
    // The state token is sealed afresh per answer (a new nonce), so it is compared by presence only.
    const comparable = (b: SubmitBody) => ({ ...b, state: { ...b.state, token: typeof b.state.token } });
    for (const answer of answers) {
      expect(answer.statusCode, answer.label).toBe(422);
      expect(answer.body, answer.label).toMatchObject({ success: false, status: 'validation_failed', complete: false, draft: null, warnings: ['draft_not_loaded'] });
      expect({ statusCode: answer.statusCode, body: comparable(answer.body) }, answer.label).toEqual({
        statusCode: answers[2]?.statusCode,
        body: answers[2] && comparable(answers[2].body),
      });
    }
    // The draft itself is unharmed by the wrong guesses.
    expect(body(await resume(svc, 'application', 'next', {}, draft)).status).toBe('page_valid');
  });

  it('updates a loaded draft on saveDraft: same token and key, no new row, new values on the next resume', async () => {
    const draft = draftOf(await send(svc, 'application', 'saveDraft', PAGE0));
    const before = (await draftRows(svc)).length;
    const res = await resume(svc, 'application', 'saveDraft', { fullName: 'Bea Ray' }, draft);
    expect(res.statusCode).toBe(200);
    expect(body(res).status).toBe('draft_saved');
    const again = draftOf(res);
    expect({ token: again.token, key: again.key }).toEqual({ token: draft.token, key: draft.key });
    expect((await draftRows(svc)).length).toBe(before);
    expect(await draftRowsFor(svc, draft.token)).toHaveLength(1);
    const resumed = body(await resume(svc, 'application', 'next', {}, draft));
    expect(resumed.status).toBe('page_valid');
    expect(resumed.state.values).toMatchObject({ ...PAGE0, fullName: 'Bea Ray' });
  });

  it('issues a new token and key pair on saveDraft without draft context', async () => {
    const first = draftOf(await send(svc, 'application', 'saveDraft', PAGE0));
    const before = (await draftRows(svc)).length;
    const second = draftOf(await send(svc, 'application', 'saveDraft', { ...PAGE0, fullName: 'Bea Ray' }));
    expect(second.token).not.toBe(first.token);
    expect(second.key).not.toBe(first.key);
    expect((await draftRows(svc)).length).toBe(before + 1);
    const resumedFirst = body(await resume(svc, 'application', 'next', {}, first));
    expect(resumedFirst.state.values.fullName).toBe(PAGE0.fullName);
  });

  it('answers saveDraft with a wrong key by issuing a new pair and leaving the original draft untouched', async () => {
    const original = draftOf(await send(svc, 'application', 'saveDraft', PAGE0));
    const res = await resume(svc, 'application', 'saveDraft', { ...PAGE0, fullName: 'Intruder' }, { token: original.token, key: alphanumeric(25) });
    expect(res.statusCode).toBe(200);
    expect(body(res)).toMatchObject({ status: 'draft_saved', warnings: ['draft_not_loaded'] });
    const fresh = draftOf(res);
    expect(fresh.token).not.toBe(original.token);
    expect(fresh.key).not.toBe(original.key);
    const resumed = body(await resume(svc, 'application', 'next', {}, original));
    expect(resumed.warnings).toEqual([]);
    expect(resumed.state.values.fullName).toBe(PAGE0.fullName);
  });

  it('keeps what was typed on every page when saveDraft posts them all, as the official client does', async () => {
    const res = await send(svc, 'application', 'saveDraft', { ...PAGE0, ...PAGE2, undeclared: 'dropped' });
    expect(res.statusCode).toBe(200);
    expect(body(res).state.pageIndex).toBe(0);
    const resumed = body(await resume(svc, 'application', 'validate', {}, draftOf(res)));
    expect(resumed.state.values).toMatchObject({ ...PAGE0, ...PAGE2 });
    expect(resumed.state.values).not.toHaveProperty('undeclared');
  });
});

describeEachDialect('draft expiry', (target) => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  async function clockedApp(drafts: Record<string, unknown> | undefined) {
    let clock = Date.parse('2026-11-22T10:00:00Z');
    const app = await createTestApp({
      config: { database: { url: target.url() }, ...(drafts ? { drafts } : {}) },
      now: () => new Date(clock),
    });
    apps.push(app);
    return { app, advance: (ms: number) => (clock += ms) };
  }

  function resumeContact(app: TestApp, draft: DraftPair) {
    return app.submit('contact', { intent: 'validate', values: {}, context: { draftToken: draft.token, draftKey: draft.key } });
  }

  it.each([
    ['drafts.ttlDays 2', { ttlDays: 2 }, 2],
    ['the default of 30 days', undefined, 30],
  ])('resumes a draft within its lifetime and loads nothing after it, with a warning (%s)', async (_label, drafts, ttlDays) => {
    const { app, advance } = await clockedApp(drafts);
    const draft = draftOf(await app.submit('contact', { intent: 'saveDraft', values: CONTACT }));
    advance((ttlDays - 1) * DAY_MS);
    const alive = await resumeContact(app, draft);
    expect(alive.statusCode).toBe(200);
    expect(body(alive).status).toBe('validated');
    expect(body(alive).state.values).toMatchObject(CONTACT);
    advance(2 * DAY_MS);
    const expired = await resumeContact(app, draft);
    expect(expired.statusCode).toBe(422);
    expect(body(expired)).toMatchObject({ success: false, status: 'validation_failed', warnings: ['draft_not_loaded'] });
    expect(body(expired).state.values).toEqual({});
  });

  it('purges expired drafts and keeps live ones; purgeExpired returns the number deleted', async () => {
    const { app, advance } = await clockedApp({ ttlDays: 2 });
    const old = draftOf(await app.submit('contact', { intent: 'saveDraft', values: CONTACT }));
    advance(3 * DAY_MS);
    const fresh = draftOf(await app.submit('contact', { intent: 'saveDraft', values: CONTACT }));
    const before = (await draftRows(app)).length;
    const deleted = await app.context.drafts.purgeExpired();
    const after = (await draftRows(app)).length;
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(deleted).toBe(before - after);
    expect(await draftRowsFor(app, old.token)).toHaveLength(0);
    expect(await draftRowsFor(app, fresh.token)).toHaveLength(1);
    expect(body(await resumeContact(app, fresh)).status).toBe('validated');
  });
});
