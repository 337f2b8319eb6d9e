/**
 * GraphQL mutations (interface.md §4.8, contract §4 and §11): `save_<handle>_Submission` runs the
 * same submit pipeline as REST with the whole form in one call; `svcHeadlessSubmit` is the REST
 * submit in GraphQL clothing; the schema follows form edits without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Form } from '@svc/core';
import { countSubmissions, findSubmission } from '../src/submissions/submission-repository.js';
import { createTestApp, EXAMPLE_FORMS_DIR, type TestApp } from './support/test-app.js';
import { postGraphql } from './support/graphql-client.js';

const post = postGraphql;

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

function formOf(svc: TestApp, handle: string): Form {
  const form = svc.context.forms.get(handle);
  if (!form) throw new Error(`no form ${handle}`);
  return form;
}

/** What a well-behaved GraphQL client sends: a CSRF token with its cookie and the empty honeypot. */
async function security(svc: TestApp, handle: string) {
  const { token, cookie } = await svc.csrf();
  const form = formOf(svc, handle);
  const { spamFields } = svc.context.submit;
  const honeypot = { name: spamFields.honeypotName(form), value: '' };
  // The same signal REST sends in meta.javascriptTest (issue #11: one verdict whatever the transport).
  const javascriptTest = form.settings.spam.javascriptTest ? { name: spamFields.javascriptTestName(form), value: spamFields.javascriptTestValue(form) } : null;
  return { csrfToken: { name: 'SVC_CSRF_TOKEN', value: token }, honeypot, javascriptTest, headers: { cookie } };
}

const SECURITY_VARS = '$csrf: SvcCsrfTokenInputType, $hp: SvcHoneypotInputType, $js: SvcJavascriptTestInputType';
const SECURITY_ARGS = 'csrfToken: $csrf, honeypot: $hp, javascriptTest: $js';

const SUBMISSION_FIELDS = `__typename id submissionId success finished submissionToken svcPayload freeformPayload hash dateCreated dateUpdated
  multiPage onSuccess returnUrl submissionLimitReached isSpam spamReasons html user { id } assets { id }
  captcha { name value } csrfToken { name value } honeypot { name value }`;

interface SubmissionResult {
  readonly [key: string]: unknown;
  readonly id: number;
  readonly submissionId: number;
  readonly success: boolean;
  readonly finished: boolean;
  readonly submissionToken: string;
  readonly svcPayload: string;
  readonly dateCreated: string;
  readonly isSpam: boolean;
}

describe('GraphQL mutations', () => {
  let svc: TestApp;

  beforeAll(async () => {
    svc = await createTestApp({ config: { forms: { watch: false }, graphql: { introspection: true } } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const db = () => svc.context.database.db;
  const count = (handle: string, app: TestApp = svc) => countSubmissions(app.context.database.db, formOf(app, handle).id);

  describe('save_contact_Submission', () => {
    const CONTACT = `mutation (${SECURITY_VARS}, $first: String, $last: String, $email: String, $message: String) {
      save_contact_Submission(${SECURITY_ARGS}, firstName: $first, lastName: $last, email: $email, message: $message) { ${SUBMISSION_FIELDS} }
    }`;

    it('stores a valid submission and answers with the submission fields', async () => {
      const { csrfToken, honeypot, javascriptTest, headers } = await security(svc, 'contact');
      const before = await count('contact');
      const started = new Date().toISOString();
      const { res, body } = await post<{ save_contact_Submission: SubmissionResult }>(
        svc,
        CONTACT,
        { csrf: csrfToken, hp: honeypot, js: javascriptTest, first: 'Ann', last: 'Lee', email: 'ann@example.test', message: 'Hello there' },
        headers,
      );
      const finishedAt = new Date().toISOString();
      expect(res.statusCode).toBe(200);
      expect(body.errors).toBeUndefined();
      const answer = body.data?.save_contact_Submission as SubmissionResult;
      expect(answer).toMatchObject({
        __typename: 'contact_Submission',
        id: expect.any(Number),
        success: true,
        finished: true,
        submissionToken: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
        hash: formOf(svc, 'contact').hash,
        multiPage: false,
        onSuccess: 'message',
        returnUrl: null,
        submissionLimitReached: false,
        isSpam: false,
        spamReasons: null,
        html: null,
        user: null,
        assets: [],
        captcha: null,
        csrfToken: { name: 'SVC_CSRF_TOKEN', value: expect.any(String) },
        honeypot,
      });
      expect(answer.submissionId).toBe(answer.id);
      expect(answer.freeformPayload).toBe(answer.svcPayload);
      expect(answer.dateCreated >= started && answer.dateCreated <= finishedAt).toBe(true);
      expect(answer.dateUpdated).toBe(answer.dateCreated);

      const stored = await findSubmission(db(), answer.id, svc.context.sealer);
      expect(stored).toMatchObject({
        formId: formOf(svc, 'contact').id,
        title: 'Ann Lee',
        status: 'open',
        isSpam: false,
        spamReasons: [],
        finished: true,
        values: { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hello there' },
      });
      expect(stored?.tokenHash).toBe(sha256Hex(answer.submissionToken));
      expect(JSON.parse(answer.svcPayload)).toEqual(stored?.values);
      expect(await count('contact')).toBe(before + 1);
    });

    it('answers a validation failure with exactly one VALIDATION_FAILED error, null data and nothing stored', async () => {
      const { csrfToken, honeypot, javascriptTest, headers } = await security(svc, 'contact');
      const before = await count('contact');
      const { res, body } = await post<{ save_contact_Submission: SubmissionResult | null }>(
        svc,
        CONTACT,
        { csrf: csrfToken, hp: honeypot, js: javascriptTest, last: 'Lee', email: 'not-an-email', message: 'Hi' },
        headers,
      );
      expect(res.statusCode).toBe(200);
      expect(body.data).toEqual({ save_contact_Submission: null });
      expect(body.errors).toHaveLength(1);
      const error = body.errors?.[0];
      expect(error?.path).toEqual(['save_contact_Submission']);
      expect(error?.extensions).toEqual({
        code: 'VALIDATION_FAILED',
        fields: { firstName: ['This field is required'], email: [expect.any(String)] },
        form: [],
      });
      expect(await count('contact')).toBe(before);
    });

    it('reports a too-long message by field', async () => {
      const { csrfToken, honeypot, javascriptTest, headers } = await security(svc, 'contact');
      const { body } = await post<{ save_contact_Submission: null }>(
        svc,
        CONTACT,
        { csrf: csrfToken, hp: honeypot, js: javascriptTest, first: 'Ann', email: 'ann@example.test', message: 'x'.repeat(501) },
        headers,
      );
      expect(body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(body.errors?.[0]?.extensions?.fields as object)).toEqual(['message']);
    });

    const csrfFailures: { title: string; send: (s: Awaited<ReturnType<typeof security>>) => { csrf?: unknown; headers: Record<string, string> } }[] = [
      { title: 'no token and no cookie', send: () => ({ headers: {} }) },
      { title: 'a cookie but no token', send: (s) => ({ headers: s.headers }) },
      { title: 'a token but no cookie', send: (s) => ({ csrf: s.csrfToken, headers: {} }) },
      { title: 'a tampered token', send: (s) => ({ csrf: { ...s.csrfToken, value: `${s.csrfToken.value}x` }, headers: s.headers }) },
      { title: 'a token bound to another cookie', send: (s) => ({ csrf: s.csrfToken, headers: { cookie: 'svc_csrf=AAAAAAAAAAAAAAAAAAAAAA' } }) },
    ];
    it.each(csrfFailures)('refuses a submission with $title as CSRF_INVALID and stores nothing', async ({ send }) => {
      const sec = await security(svc, 'contact');
      const { csrf, headers } = send(sec);
      const before = await count('contact');
      const { body } = await post<{ save_contact_Submission: null }>(
        svc,
        CONTACT,
        { ...(csrf ? { csrf } : {}), hp: sec.honeypot, js: sec.javascriptTest, first: 'Ann', email: 'ann@example.test' },
        headers,
      );
      expect(body.data).toEqual({ save_contact_Submission: null });
      expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['CSRF_INVALID']);
      expect(await count('contact')).toBe(before);
    });

    it.each([
      { title: 'a filled-in honeypot', honeypot: (name: string) => ({ name, value: 'http://spam.example' }) },
      { title: 'no honeypot at all', honeypot: () => undefined },
    ])('answers $title like a success but stores the submission flagged as spam', async ({ honeypot }) => {
      const sec = await security(svc, 'contact');
      const { body } = await post<{ save_contact_Submission: SubmissionResult }>(
        svc,
        CONTACT,
        { csrf: sec.csrfToken, hp: honeypot(sec.honeypot.name), js: sec.javascriptTest, first: 'Bot', email: 'bot@example.test' },
        sec.headers,
      );
      expect(body.errors).toBeUndefined();
      const answer = body.data?.save_contact_Submission as SubmissionResult;
      expect(answer).toMatchObject({ success: true, finished: true, isSpam: false, spamReasons: null, submissionToken: expect.any(String) });
      const stored = await findSubmission(db(), answer.id, svc.context.sealer);
      expect(stored?.isSpam).toBe(true);
      expect(stored?.spamReasons).toEqual(['honeypot']);
      expect(stored?.values).toMatchObject({ firstName: 'Bot' });
    });
    it('judges spam as REST does, except that an absent javascript test (no interface argument for it) is no signal on the mutation', async () => {
      const verdicts: Record<string, unknown> = {};
      for (const test of ['absent', 'wrong', 'right'] as const) {
        const sec = await security(svc, 'contact');
        const sent = test === 'absent' ? null : test === 'wrong' ? { name: sec.javascriptTest!.name, value: 'not-the-value' } : sec.javascriptTest;
        const { body } = await post<{ save_contact_Submission: SubmissionResult }>(
          svc,
          CONTACT,
          { csrf: sec.csrfToken, hp: sec.honeypot, js: sent, first: 'Gql', email: 'gql@example.test' },
          sec.headers,
        );
        const viaGraphql = await findSubmission(db(), (body.data?.save_contact_Submission as SubmissionResult).id, svc.context.sealer);
        // svc.submit fills in the right test; `undefined` leaves it out of the request entirely.
        const meta = { javascriptTest: test === 'absent' ? undefined : sent };
        const rest = await svc.submit('contact', { intent: 'submit', values: { firstName: 'Rest', email: 'rest@example.test' }, meta });
        const viaRest = await findSubmission(db(), rest.json().submission.id, svc.context.sealer);
        verdicts[test] = { graphql: viaGraphql?.spamReasons, rest: viaRest?.spamReasons };
      }
      expect(verdicts).toEqual({
        absent: { graphql: [], rest: ['javascript_test'] },
        wrong: { graphql: ['javascript_test'], rest: ['javascript_test'] },
        right: { graphql: [], rest: [] },
      });
    });
  });

  describe('save_application_Submission', () => {
    const APPLICATION = `mutation (${SECURITY_VARS}, $type: String, $company: String, $vat: String, $other: String, $heard: String) {
      save_application_Submission(${SECURITY_ARGS}, fullName: "Ann Lee", email: "ann@example.test", applicantType: $type, heardFrom: $heard,
        heardFromOther: $other, companyName: $company, vatNumber: $vat, age: 30, phone: "+1 555 123 4567", startDate: "2026-02-01", agree: true) {
        id success finished multiPage
      }
    }`;

    it('submits all pages in one call, without a state token, and stores no company fields for an individual', async () => {
      const { csrfToken, honeypot, javascriptTest, headers } = await security(svc, 'application');
      const { body } = await post<{ save_application_Submission: { id: number; success: boolean; finished: boolean; multiPage: boolean } }>(
        svc,
        APPLICATION,
        { csrf: csrfToken, hp: honeypot, js: javascriptTest, type: 'individual', heard: 'search', company: 'Acme', vat: 'not a VAT number', other: 'TV' },
        headers,
      );
      expect(body.errors).toBeUndefined();
      expect(body.data?.save_application_Submission).toMatchObject({ success: true, finished: true, multiPage: true });
      const stored = await findSubmission(db(), body.data?.save_application_Submission.id ?? -1, svc.context.sealer);
      expect(stored?.values).toEqual({
        fullName: 'Ann Lee',
        email: 'ann@example.test',
        applicantType: 'individual',
        heardFrom: 'search',
        age: '30',
        phone: '+1 555 123 4567',
        startDate: '2026-02-01',
        agree: 'yes',
      });
      expect(stored?.values).not.toHaveProperty('companyName');
      expect(stored?.values).not.toHaveProperty('vatNumber');
    });

    it('validates the company page in the same call when the applicant is a company', async () => {
      const { csrfToken, honeypot, javascriptTest, headers } = await security(svc, 'application');
      const before = await count('application');
      const { body } = await post<{ save_application_Submission: null }>(
        svc,
        APPLICATION,
        { csrf: csrfToken, hp: honeypot, js: javascriptTest, type: 'company', heard: 'other', vat: 'nope' },
        headers,
      );
      expect(body.data).toEqual({ save_application_Submission: null });
      expect(body.errors).toHaveLength(1);
      expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', form: [] });
      expect(Object.keys(body.errors?.[0]?.extensions?.fields as object).sort()).toEqual(['companyName', 'heardFromOther', 'vatNumber']);
      expect(await count('application')).toBe(before);
    });

    it('stores the company fields when the applicant is a company', async () => {
      const { csrfToken, honeypot, javascriptTest, headers } = await security(svc, 'application');
      const { body } = await post<{ save_application_Submission: { id: number } }>(
        svc,
        APPLICATION,
        { csrf: csrfToken, hp: honeypot, js: javascriptTest, type: 'company', heard: 'friend', company: 'Acme', vat: 'DE123456789' },
        headers,
      );
      expect(body.errors).toBeUndefined();
      const stored = await findSubmission(db(), body.data?.save_application_Submission.id ?? -1, svc.context.sealer);
      expect(stored?.values).toMatchObject({ applicantType: 'company', companyName: 'Acme', vatNumber: 'DE123456789' });
      expect(stored?.values).not.toHaveProperty('heardFromOther');
    });
  });

  describe('save_kitchen_sink_Submission', () => {
    const mailingList = () => `mailingList_${formOf(svc, 'kitchen-sink').fieldsByHandle.get('newsletter')?.hash}`;

    it.each([
      { arg: 'checkbox', type: 'Boolean' },
      { arg: 'rating', type: 'Int' },
      { arg: 'number', type: 'Float' },
      { arg: 'multipleSelect', type: '[String]' },
      { arg: 'checkboxGroup', type: '[String]' },
      { arg: 'department', type: '[String]' },
      { arg: 'table', type: '[[String]]' },
      { arg: 'text', type: 'String' },
      { arg: 'dateOnly', type: 'String' },
      { arg: 'MAILING_LIST', type: 'Int' },
      { arg: 'honeypot', type: 'SvcHoneypotInputType' },
      { arg: 'captcha', type: 'SvcSubmissionCaptchaInputType' },
      { arg: 'csrfToken', type: 'SvcCsrfTokenInputType' },
    ])('types the argument $arg as $type', async ({ arg, type }) => {
      type TypeRef = { kind: string; name: string | null; ofType: TypeRef | null };
      const { body } = await post<{ __schema: { mutationType: { fields: { name: string; type: TypeRef; args: { name: string; type: TypeRef }[] }[] } } }>(
        svc,
        '{ __schema { mutationType { fields { name type { kind name ofType { name } } args { name type { kind name ofType { kind name ofType { kind name } } } } } } } }',
      );
      const show = (t: TypeRef | null): string => (t === null ? '?' : t.kind === 'LIST' ? `[${show(t.ofType)}]` : (t.name ?? '?'));
      const mutation = body.data?.__schema.mutationType.fields.find((f) => f.name === 'save_kitchen_sink_Submission');
      expect(mutation?.type.name).toBe('kitchen_sink_Submission');
      const name = arg === 'MAILING_LIST' ? mailingList() : arg;
      expect(show(mutation?.args.find((a) => a.name === name)?.type ?? null)).toBe(type);
    });

    it('has one argument per input field, mailingList_<hash> for the mailing list, and none for submit buttons', async () => {
      const { body } = await post<{ __type: { fields: { name: string; args: { name: string }[] }[] } }>(
        svc,
        '{ __type(name: "Mutation") { fields { name args { name } } } }',
      );
      const args = body.data?.__type.fields.find((f) => f.name === 'save_kitchen_sink_Submission')?.args.map((a) => a.name) ?? [];
      const fieldArgs = formOf(svc, 'kitchen-sink').fields.map((f) => (f.type === 'mailingList' ? mailingList() : f.handle));
      expect(args.sort()).toEqual(['captcha', 'csrfToken', 'honeypot', 'javascriptTest', 'svcProfile', 'svcSite', 'uploadToken', ...fieldArgs].sort());
      expect(args).not.toContain('newsletter');
    });

    const KITCHEN_SINK = (ml: string) => `mutation (${SECURITY_VARS}, $ml: Int, $checkbox: Boolean) {
      save_kitchen_sink_Submission(${SECURITY_ARGS}, text: "hello", textarea: "Some longer text", select: "c",
        multipleSelect: ["red", "blue"], checkboxGroup: ["tea"], radioGroup: "yes", checkbox: $checkbox,
        email: "ks@example.test", emailConfirm: "ks@example.test", department: ["support"], ${ml}: $ml,
        textDetails: "Green tea", number: 12.5, dateOnly: "2026-01-15", dateAndTime: "2026-01-15 10:30", opinionScale: "4",
        rating: 4, phone: "+1 (555) 123-4567", postcode: "12345", table: [["Widget", "2", "M"], ["Gadget", "1", "L"]]) {
        id success
      }
    }`;

    it.each([
      { title: 'mailingList_<hash>: 1 stored as true and a ticked checkbox as its value', ml: 1, checkbox: true, newsletter: true, stored: 'on' },
      { title: 'mailingList_<hash>: 0 stored as false and an unticked checkbox as nothing', ml: 0, checkbox: false, newsletter: false, stored: null },
    ])('stores typed arguments as the field values, $title', async ({ ml, checkbox, newsletter, stored }) => {
      const { csrfToken, honeypot, javascriptTest, headers } = await security(svc, 'kitchen-sink');
      const { body } = await post<{ save_kitchen_sink_Submission: { id: number; success: boolean } }>(
        svc,
        KITCHEN_SINK(mailingList()),
        { csrf: csrfToken, hp: honeypot, js: javascriptTest, ml, checkbox },
        headers,
      );
      expect(body.errors).toBeUndefined();
      expect(body.data?.save_kitchen_sink_Submission.success).toBe(true);
      const row = await findSubmission(db(), body.data?.save_kitchen_sink_Submission.id ?? -1, svc.context.sealer);
      expect(row?.isSpam).toBe(false);
      expect(row?.values).toMatchObject({
        text: 'hello',
        textarea: 'Some longer text',
        select: 'c',
        multipleSelect: ['red', 'blue'],
        checkboxGroup: ['tea'],
        radioGroup: 'yes',
        email: 'ks@example.test',
        emailConfirm: 'ks@example.test',
        department: ['support'],
        newsletter,
        textDetails: 'Green tea',
        number: '12.5',
        dateOnly: '2026-01-15',
        dateAndTime: '2026-01-15T10:30',
        opinionScale: '4',
        rating: 4,
        phone: '+15551234567', // stored in E.164
        postcode: '12345',
        table: [
          ['Widget', '2', 'M'],
          ['Gadget', '1', 'L'],
        ],
      });
      expect(row?.values.checkbox ?? null).toBe(stored);
    });

    it('refuses an argument of the wrong type before anything runs', async () => {
      const { csrfToken, honeypot, javascriptTest, headers } = await security(svc, 'kitchen-sink');
      const before = await count('kitchen-sink');
      const { body } = await post<{ save_kitchen_sink_Submission: null }>(
        svc,
        `mutation (${SECURITY_VARS}) { save_kitchen_sink_Submission(${SECURITY_ARGS}, email: "a@example.test", rating: "five") { id } }`,
        { csrf: csrfToken, hp: honeypot, js: javascriptTest },
        headers,
      );
      expect(body.data ?? null).toBeNull();
      expect(body.errors?.[0]?.message).toMatch(/rating|Int/);
      expect(await count('kitchen-sink')).toBe(before);
    });

    it('reports kitchen-sink field errors by handle', async () => {
      const { csrfToken, honeypot, javascriptTest, headers } = await security(svc, 'kitchen-sink');
      const { body } = await post<{ save_kitchen_sink_Submission: null }>(
        svc,
        `mutation (${SECURITY_VARS}) { save_kitchen_sink_Submission(${SECURITY_ARGS}, email: "a@example.test", emailConfirm: "b@example.test",
          postcode: "abc", rating: 9, select: "z") { id } }`,
        { csrf: csrfToken, hp: honeypot, js: javascriptTest },
        headers,
      );
      expect(body.errors).toHaveLength(1);
      expect(body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(body.errors?.[0]?.extensions?.fields as object).sort()).toEqual(['emailConfirm', 'postcode', 'rating', 'select']);
      expect((body.errors?.[0]?.extensions?.fields as Record<string, string[]>).postcode).toEqual(['Use five digits.']);
    });
  });

  describe('svcHeadlessSubmit', () => {
    const SUBMIT = 'mutation ($handle: String!, $intent: String!, $values: SvcJson, $meta: SvcJson, $context: SvcJson, $csrf: String) { svcHeadlessSubmit(handle: $handle, intent: $intent, values: $values, meta: $meta, context: $context, csrfToken: $csrf) }';

    interface SubmitObject {
      readonly success: boolean;
      readonly status: string;
      readonly complete: boolean;
      readonly submission: { id: number; uid: string; token: string } | null;
      readonly page: { currentIndex: number; total: number };
      readonly state: { values: Record<string, unknown>; pageIndex: number; token: string | null };
      readonly errors: { fields: Record<string, string[]>; form: string[] };
    }

    it('answers intent next with the REST submit object and a state token, and a second call continues from it', async () => {
      const { token, cookie } = await svc.csrf();
      const meta = await svc.meta('application');
      const first = await post<{ svcHeadlessSubmit: SubmitObject }>(
        svc,
        SUBMIT,
        { handle: 'application', intent: 'next', csrf: token, meta, values: { fullName: 'Ann Lee', email: 'ann@example.test', applicantType: 'individual' } },
        { cookie },
      );
      expect(first.body.errors).toBeUndefined();
      const step = first.body.data?.svcHeadlessSubmit as SubmitObject;
      expect(step).toMatchObject({
        success: true,
        status: 'page_valid',
        complete: false,
        submission: null,
        page: { currentIndex: 2, total: 3 },
        state: { pageIndex: 2, token: expect.any(String), values: { fullName: 'Ann Lee', applicantType: 'individual' } },
        errors: { fields: {}, form: [] },
      });

      const before = await count('application');
      const second = await post<{ svcHeadlessSubmit: SubmitObject }>(
        svc,
        SUBMIT,
        { handle: 'application', intent: 'submit', csrf: token, meta, context: { stateToken: step.state.token }, values: { agree: true, age: 44 } },
        { cookie },
      );
      expect(second.body.errors).toBeUndefined();
      const done = second.body.data?.svcHeadlessSubmit as SubmitObject;
      expect(done).toMatchObject({ success: true, status: 'submitted', complete: true, state: { token: null } });
      const stored = await findSubmission(db(), done.submission?.id ?? -1, svc.context.sealer);
      expect(stored?.values).toMatchObject({ fullName: 'Ann Lee', applicantType: 'individual', agree: 'yes', age: '44' });
      expect(await count('application')).toBe(before + 1);
    });

    it('answers validation failures as a submit object, not as a GraphQL error', async () => {
      const { token, cookie } = await svc.csrf();
      const { body } = await post<{ svcHeadlessSubmit: SubmitObject }>(
        svc,
        SUBMIT,
        { handle: 'application', intent: 'next', csrf: token, values: { email: 'nope' } },
        { cookie },
      );
      expect(body.errors).toBeUndefined();
      expect(body.data?.svcHeadlessSubmit).toMatchObject({ success: false, status: 'validation_failed', page: { currentIndex: 0, total: 3 } });
      expect(Object.keys(body.data?.svcHeadlessSubmit.errors.fields ?? {}).sort()).toEqual(['applicantType', 'email', 'fullName']);
    });

    it('answers intent submit on a multi-page form without a state token with context_required', async () => {
      const { token, cookie } = await svc.csrf();
      const { body } = await post<{ svcHeadlessSubmit: SubmitObject }>(svc, SUBMIT, { handle: 'application', intent: 'submit', csrf: token, values: {} }, { cookie });
      expect(body.data?.svcHeadlessSubmit).toMatchObject({ success: false, status: 'context_required' });
    });

    it('refuses a call without a CSRF token with CSRF_INVALID', async () => {
      const { body } = await post<{ svcHeadlessSubmit: null }>(svc, SUBMIT, { handle: 'contact', intent: 'validate', values: { firstName: 'A' } });
      expect(body.data).toEqual({ svcHeadlessSubmit: null });
      expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['CSRF_INVALID']);
    });
  });
});

describe('the schema follows form changes without a restart', () => {
  let dir: string;
  let svc: TestApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-gql-forms-'));
    cpSync(EXAMPLE_FORMS_DIR, dir, { recursive: true });
    svc = await createTestApp({ config: { forms: { dir, watch: true } } });
  });
  afterAll(async () => {
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('accepts an argument for a field added to the YAML once the forms reload', async () => {
    const query = `mutation (${SECURITY_VARS}) {
      save_contact_Submission(${SECURITY_ARGS}, firstName: "Ann", email: "ann@example.test", company: "Acme") { id success }
    }`;
    const send = async () => {
      const { csrfToken, honeypot, javascriptTest, headers } = await security(svc, 'contact');
      return post<{ save_contact_Submission: { id: number; success: boolean } | null }>(svc, query, { csrf: csrfToken, hp: honeypot, js: javascriptTest }, headers);
    };
    const before = await send();
    expect(before.body.errors?.[0]?.message).toMatch(/Unknown argument "company"/);

    const file = join(dir, 'contact.yaml');
    const yaml = readFileSync(file, 'utf8');
    const marker = '  # A submit field has no handle';
    expect(yaml).toContain(marker);
    writeFileSync(file, yaml.replace(marker, '  - type: text\n    handle: company\n    label: Company\n' + marker));

    const deadline = Date.now() + 5000;
    let after = await send();
    while (after.body.errors !== undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      after = await send();
    }
    expect(after.body.errors).toBeUndefined();
    expect(after.body.data?.save_contact_Submission?.success).toBe(true);
    const stored = await findSubmission(svc.context.database.db, after.body.data?.save_contact_Submission?.id ?? -1, svc.context.sealer);
    expect(stored?.values).toMatchObject({ firstName: 'Ann', company: 'Acme' });

    const { body } = await post<{ svc: { form: { fields: { handle: string | null }[] } } }>(svc, '{ svc { form(handle: "contact") { fields { handle } } } }');
    expect(body.data?.svc.form.fields.map((f) => f.handle)).toEqual(['firstName', 'lastName', 'email', 'message', 'company', null]);
  });
});
