/**
 * Validation before the spam verdict (contract §4, "Order, as Freeform's"; DESIGN.md principle 3)
 * on every transport: invalid values answer their field errors whatever the spam signals say and
 * are never stored; the spam behaviour (simulated success stored flagged, or spam_rejected) applies
 * only to an otherwise valid request. Rows are counted in svc_submissions directly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findSubmission } from '../src/submissions/submission-repository.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { postGraphql } from './support/graphql-client.js';
import { createPaymentFixture, type PaymentFixture } from './support/payment-fixture.js';

const SITE = 'http://localhost:5173';
const SPAM = (behavior: string) => `  spam:
    behavior: ${behavior}
    honeypot: true
    javascriptTest: true
    minimumFillSeconds: 30
    blockedKeywords: [casino]
`;
const FIELDS = `fields:
  - { type: text, handle: name, label: Name, required: true }
  - { type: email, handle: email, label: Email, required: true }
  - { type: textarea, handle: message, label: Message }
`;
const FORMS: Readonly<Record<string, string>> = {
  signals: `name: Signals\nsettings:\n${SPAM('simulate_success')}${FIELDS}`,
  strict: `name: Strict\nsettings:\n${SPAM('display_errors')}${FIELDS}`,
  steps: `name: Steps\nsettings:\n${SPAM('simulate_success')}pages:
  - label: One
    rows:
      - - { type: email, handle: email, label: Email, required: true }
  - label: Two
    rows:
      - - { type: text, handle: name, label: Name, required: true }
`,
};

const VALID = { name: 'Ann', email: 'ann@example.test', message: 'Hello' };
const INVALID = { ...VALID, email: 'not an email' };

type Meta = Record<string, any>;
type Values = Record<string, unknown>;
/** Each spam signal, applied to what a well-behaved client would send; `slow` is false for fill time. */
const SIGNALS: readonly (readonly [string, (meta: Meta, values: Values) => void, boolean])[] = [
  ['honeypot', (meta) => (meta.honeypot.value = 'i am a bot'), true],
  ['javascript_test', (meta) => delete meta.javascriptTest, true],
  ['blocked_keyword', (_meta, values) => (values.message = 'cheap casino chips'), true],
  ['fill_time', () => undefined, false],
];

describe('validation runs before the spam verdict', () => {
  let svc: TestApp;
  let formsDir: string;
  let clock = Date.parse('2026-11-22T10:00:00Z');

  beforeAll(async () => {
    formsDir = mkdtempSync(join(tmpdir(), 'svc-spam-order-'));
    for (const [handle, text] of Object.entries(FORMS)) writeFileSync(join(formsDir, `${handle}.yaml`), text);
    const exposed = Object.fromEntries(Object.keys(FORMS).map((handle) => [handle, { exposeManifest: true, allowSubmit: true }]));
    svc = await createTestApp({ config: { forms: { dir: formsDir, watch: false }, headless: { forms: exposed } }, now: () => new Date(clock) });
  });
  afterAll(async () => {
    await svc?.close();
    rmSync(formsDir, { recursive: true, force: true });
  });

  const count = async (handle: string) => {
    const form = svc.context.forms.get(handle)!;
    const row = await svc.context.database.db.selectFrom('svc_submissions').select((eb) => eb.fn.countAll<number>().as('n')).where('form_id', '=', form.id).executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const spamReasonsOf = async (id: number) => (await findSubmission(svc.context.database.db, id, svc.context.sealer))?.spamReasons;

  /** A fresh manifest's honeypot (with its fill timestamp) and javascript test, then time passes if `slow`. */
  async function freshMeta(handle: string, slow: boolean): Promise<Meta> {
    const { security } = (await svc.app.inject({ method: 'GET', url: `/svc/api/forms/${handle}/manifest` })).json().data;
    if (slow) clock += 60_000;
    return { honeypot: { ...security.honeypot, value: '' }, javascriptTest: { ...security.javascriptTest } };
  }

  async function restSubmit(handle: string, body: Record<string, unknown>) {
    const { token, cookie } = await svc.csrf();
    return svc.app.inject({
      method: 'POST',
      url: `/svc/api/forms/${handle}/submit`,
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      payload: JSON.stringify(body),
    });
  }

  describe('REST submit', () => {
    it.each(SIGNALS)('answers invalid values with %s set 422 validation_failed and stores nothing', async (_reason, apply, slow) => {
      const meta = await freshMeta('signals', slow);
      const values = { ...INVALID };
      apply(meta, values);
      const before = await count('signals');
      const res = await restSubmit('signals', { intent: 'submit', values, meta });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ success: false, status: 'validation_failed', errors: { fields: { email: [expect.any(String)] } } });
      expect(await count('signals')).toBe(before);
    });

    it.each(SIGNALS)('still stores valid values with %s set flagged as spam, answered as success', async (reason, apply, slow) => {
      const meta = await freshMeta('signals', slow);
      const values = { ...VALID };
      apply(meta, values);
      const res = await restSubmit('signals', { intent: 'submit', values, meta });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, status: 'submitted' });
      expect(await spamReasonsOf(res.json().submission.id)).toEqual([reason]);
    });

    it('under display_errors answers invalid values validation_failed and valid ones spam_rejected, storing neither', async () => {
      const before = await count('strict');
      const invalidMeta = await freshMeta('strict', true);
      invalidMeta.honeypot.value = 'bot';
      const invalid = await restSubmit('strict', { intent: 'submit', values: INVALID, meta: invalidMeta });
      expect(invalid.json()).toMatchObject({ status: 'validation_failed', errors: { fields: { email: [expect.any(String)] } } });
      const validMeta = await freshMeta('strict', true);
      validMeta.honeypot.value = 'bot';
      const valid = await restSubmit('strict', { intent: 'submit', values: VALID, meta: validMeta });
      expect(valid.statusCode).toBe(422);
      expect(valid.json()).toMatchObject({ status: 'spam_rejected', errors: { fields: {} } });
      expect(await count('strict')).toBe(before);
    });

    it.each(['validate', 'next'])('answers intent %s with a filled honeypot and invalid values with the field errors', async (intent) => {
      const meta = await freshMeta('steps', true);
      meta.honeypot.value = 'bot';
      const res = await restSubmit('steps', { intent, values: { email: 'nope' }, meta });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ status: 'validation_failed', page: { currentIndex: 0 }, errors: { fields: { email: [expect.any(String)] } } });
    });
  });

  describe('GraphQL', () => {
    const MUTATION = `mutation ($csrf: SvcCsrfTokenInputType, $hp: SvcHoneypotInputType, $js: SvcJavascriptTestInputType, $name: String, $email: String) {
      save_signals_Submission(csrfToken: $csrf, honeypot: $hp, javascriptTest: $js, name: $name, email: $email) { id isSpam } }`;
    const HEADLESS = 'mutation ($values: SvcJson, $meta: SvcJson, $csrf: String) { svcHeadlessSubmit(handle: "signals", values: $values, meta: $meta, csrfToken: $csrf) }';

    async function perForm(values: Values) {
      const { token, cookie } = await svc.csrf();
      const meta = await freshMeta('signals', true);
      const hp = { ...meta.honeypot, value: 'i am a bot' };
      return postGraphql<{ save_signals_Submission: { id: number } | null }>(svc, MUTATION, { csrf: { name: 'SVC_CSRF_TOKEN', value: token }, hp, js: meta.javascriptTest, ...values }, { cookie });
    }

    it('save_<handle>_Submission answers invalid values with a filled honeypot with VALIDATION_FAILED and stores nothing', async () => {
      const before = await count('signals');
      const { body } = await perForm(INVALID);
      expect(body.data?.save_signals_Submission ?? null).toBeNull();
      expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['VALIDATION_FAILED']);
      expect(body.errors?.[0]?.extensions?.fields).toMatchObject({ email: [expect.any(String)] });
      expect(await count('signals')).toBe(before);
    });

    it('save_<handle>_Submission still stores valid values with a filled honeypot flagged as spam', async () => {
      const { body } = await perForm(VALID);
      expect(body.errors).toBeUndefined();
      expect(await spamReasonsOf(body.data!.save_signals_Submission!.id)).toEqual(['honeypot']);
    });

    it('svcHeadlessSubmit answers invalid values with a filled honeypot as validation_failed data and stores nothing, valid ones flagged', async () => {
      const before = await count('signals');
      const send = async (values: Values) => {
        const { token, cookie } = await svc.csrf();
        const meta = await freshMeta('signals', true);
        meta.honeypot.value = 'i am a bot';
        return (await postGraphql<{ svcHeadlessSubmit: Record<string, any> }>(svc, HEADLESS, { values, meta, csrf: token }, { cookie })).body;
      };
      const invalid = await send(INVALID);
      expect(invalid.data?.svcHeadlessSubmit).toMatchObject({ success: false, status: 'validation_failed', errors: { fields: { email: [expect.any(String)] } } });
      expect(await count('signals')).toBe(before);
      const valid = await send(VALID);
      expect(valid.data?.svcHeadlessSubmit).toMatchObject({ success: true, status: 'submitted' });
      expect(await spamReasonsOf(valid.data!.svcHeadlessSubmit.submission.id)).toEqual(['honeypot']);
    });
  });

  it('svcHeadlessSubmit, unlike the per-form mutation, still takes an absent javascript test for a spam signal (contract §11)', async () => {
    const { token, cookie } = await svc.csrf();
    const { javascriptTest: _absent, ...meta } = await freshMeta('signals', true);
    const HEADLESS = 'mutation ($values: SvcJson, $meta: SvcJson, $csrf: String) { svcHeadlessSubmit(handle: "signals", values: $values, meta: $meta, csrfToken: $csrf) }';
    const { body } = await postGraphql<{ svcHeadlessSubmit: Record<string, any> }>(svc, HEADLESS, { values: VALID, meta, csrf: token }, { cookie });
    expect(body.data?.svcHeadlessSubmit).toMatchObject({ success: true, status: 'submitted' });
    expect(await spamReasonsOf(body.data!.svcHeadlessSubmit.submission.id)).toEqual(['javascript_test']);
  });

  describe('classic post', () => {
    async function post(person: Values) {
      const props = (await svc.app.inject({ method: 'GET', url: '/svc/api/forms/signals/properties' })).json();
      clock += 60_000;
      const entries: [string, string][] = [['action', props.action], ['formHash', props.hash], ['svc_payload', props.svc_payload]];
      entries.push([props.csrf.name, props.csrf.token], [props.honeypot.name, 'i am a bot']);
      for (const [name, value] of Object.entries(person)) entries.push([name, String(value)]);
      return svc.app.inject({
        method: 'POST',
        url: '/svc/submit',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE, referer: `${SITE}/signals`, accept: 'application/json' },
        payload: new URLSearchParams(entries).toString(),
      });
    }

    it('answers invalid values with a filled honeypot with the field errors and stores nothing; valid ones are stored flagged', async () => {
      const before = await count('signals');
      const invalid = await post(INVALID);
      expect(invalid.json()).toMatchObject({ success: false, finished: false, errors: { email: [expect.any(String)] } });
      expect(await count('signals')).toBe(before);
      const valid = await post(VALID);
      expect(valid.json()).toMatchObject({ success: true, finished: true });
      expect(await spamReasonsOf(valid.json().submissionId)).toEqual(['honeypot']);
    });
  });
});

describe('the payment checkpoint validates before the spam verdict', () => {
  const DONOR = { name: 'Ann Donor', email: 'ann@example.test', gift: '25' };
  let f: PaymentFixture;
  beforeAll(async () => {
    f = await createPaymentFixture({ databaseUrl: null });
  });
  afterAll(async () => {
    await f?.close();
  });

  const held = (id: string) => f.svc.context.database.db.selectFrom('svc_payment_checkpoints').select('intent_id').where('intent_id', '=', id).execute();

  async function checkpointWithFilledHoneypot(values: Values) {
    const { id } = (await f.createIntent(DONOR)).json<{ id: string }>();
    const integration = (await f.paymentConfig())['integration'];
    const { honeypot } = (await f.svc.meta('donation')) as Meta;
    const res = await f.checkpoint('donation', { values: { ...values, payment: id }, integration, paymentIntentId: id, meta: { honeypot: { ...honeypot, value: 'i am a bot' } } });
    return { id, res };
  }

  it('answers invalid values with a filled honeypot 422 with the submit object, holding and storing nothing', async () => {
    const before = await f.submissionCount('donation');
    const { id, res } = await checkpointWithFilledHoneypot({ ...DONOR, email: 'not an email' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ success: false, status: 'validation_failed', errors: { fields: { email: [expect.any(String)] } } });
    expect(await held(id)).toHaveLength(0);
    expect(await f.submissionCount('donation')).toBe(before);
  });

  it('still holds valid values with a filled honeypot, answered as any held checkpoint', async () => {
    const { id, res } = await checkpointWithFilledHoneypot(DONOR);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { paymentIntentId: id } });
    expect(await held(id)).toHaveLength(1);
  });
});
