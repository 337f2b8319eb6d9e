/**
 * Notifications and deliveries (issue #5), end to end: a submit writes its delivery jobs with the
 * submission row, and the worker delivers them to a real SMTP server and a real HTTP receiver on
 * loopback: admin, user-confirmation and dynamic-recipient emails rendered from Liquid templates,
 * Standard Webhooks-signed webhooks (verified with the independent `standardwebhooks` package),
 * the extra POST URL with its trigger phrase, and mailing-list opt-ins. Retries with backoff,
 * dead-lettering, resend, SSRF refusal, storeData:false and the .eml fallback are covered too.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Webhook } from 'standardwebhooks';
import type { DeliveryRecord } from '../src/notifications/delivery-model.js';
import { retryDelayMs } from '../src/notifications/delivery-worker.js';
import { findSubmission, countSubmissions } from '../src/submissions/submission-repository.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';
import { startSmtpSink, readMail, type SmtpSink } from './support/smtp-sink.js';
import { startHttpReceiver, type HttpReceiver, type ReceivedRequest } from './support/http-receiver.js';

const TEMPLATES = resolve(import.meta.dirname, 'fixtures/notify-templates');
const FROM = 'Forms <forms@svc.test>';

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** The form definitions, with the receiver's port in their URLs. */
function writeForms(port: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-notify-forms-'));
  const base = `http://127.0.0.1:${port}`;
  const notify = {
    name: 'Notify',
    settings: {
      spam: { honeypot: true, javascriptTest: false },
      notifications: {
        admin: [{ to: 'admin@example.test', template: 'admin' }],
        webhooks: [{ url: `${base}/hook` }],
      },
      extraPostUrl: `${base}/extra`,
      extraPostTriggerPhrase: 'ERROR',
    },
    fields: [
      { type: 'text', handle: 'name', label: 'Name', required: true },
      { type: 'email', handle: 'email', label: 'Email', notificationId: 'confirmation' },
      {
        type: 'dynamicRecipients',
        handle: 'department',
        label: 'Department',
        options: [
          { value: 'sales', label: 'Sales', recipients: ['sales@example.test'] },
          { value: 'support', label: 'Support', recipients: ['support@example.test', 'oncall@example.test'] },
        ],
      },
      { type: 'mailingList', handle: 'newsletter', label: 'Send me the newsletter' },
      { type: 'textarea', handle: 'message', label: 'Message' },
    ],
  };
  const unstored = {
    name: 'Unstored',
    settings: {
      storeData: false,
      spam: { honeypot: true, javascriptTest: false },
      notifications: { admin: [{ to: 'admin@example.test', template: 'admin' }], webhooks: [{ url: `${base}/unstored-hook` }] },
    },
    fields: [
      { type: 'text', handle: 'name', label: 'Name', required: true },
      { type: 'textarea', handle: 'message', label: 'Message' },
    ],
  };
  writeFileSync(join(dir, 'notify.json'), JSON.stringify(notify, null, 2));
  writeFileSync(join(dir, 'unstored.json'), JSON.stringify(unstored, null, 2));
  return dir;
}

/** Polls `probe` until it returns something other than undefined, or fails after `timeoutMs`. */
async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The submission's deliveries once `expected` of them exist and none is pending. */
function settled(app: TestApp, submissionId: number, expected: number): Promise<DeliveryRecord[]> {
  let seen: DeliveryRecord[] = [];
  return until(async () => {
    seen = await app.context.deliveries.list(submissionId);
    return seen.length === expected && seen.every((d) => d.status !== 'pending') ? seen : undefined;
  }, `${expected} settled deliveries of submission ${submissionId}`).catch((error: Error) => {
    throw new Error(`${error.message}; last seen: ${JSON.stringify(seen.map((d) => [d.kind, d.status, d.attempts, d.lastError]))}`);
  });
}

/** One delivery of a submission once it has left `pending`. */
function settledOne(app: TestApp, submissionId: number, kind: DeliveryRecord['kind'], status: DeliveryRecord['status'] | null = null) {
  let seen: DeliveryRecord | undefined;
  return until(async () => {
    seen = (await app.context.deliveries.list(submissionId)).find((d) => d.kind === kind);
    return seen && seen.status !== 'pending' && (status === null || seen.status === status) ? seen : undefined;
  }, `the ${kind} delivery of submission ${submissionId}`).catch((error: Error) => {
    throw new Error(`${error.message}; last seen: ${JSON.stringify(seen)}`);
  });
}

async function countDeliveries(app: TestApp): Promise<number> {
  const row = await app.context.database.db
    .selectFrom('svc_deliveries')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const headersOf = (request: ReceivedRequest) => request.headers as Record<string, string>;

describeEachDialect('notifications and deliveries', (target) => {
  let app: TestApp;
  let sink: SmtpSink;
  let receiver: HttpReceiver;
  let formsDir: string;
  const secret = newSecret();

  beforeAll(async () => {
    sink = await startSmtpSink();
    receiver = await startHttpReceiver();
    formsDir = writeForms(receiver.port);
    app = await createTestApp({
      config: {
        database: { url: target.url() },
        forms: { dir: formsDir },
        headless: {
          forms: {
            notify: { exposeManifest: true, allowSubmit: true },
            unstored: { exposeManifest: true, allowSubmit: true },
          },
        },
        notifications: { templatesDir: TEMPLATES, from: FROM, smtpUrl: sink.url, webhookSecret: secret },
        outbound: { allowedHosts: ['127.0.0.1'] },
        deliveries: { pollMs: 100, backoffSeconds: 0.05, maxAttempts: 3, timeoutMs: 2000 },
        mailingLists: { url: receiver.url('/list') },
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await sink?.close();
    await receiver?.close();
    if (formsDir) rmSync(formsDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    receiver.reset();
    sink.clear();
  });

  const submitNotify = async (values: Record<string, unknown>) => {
    const res = await app.submit('notify', { intent: 'submit', values });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { status: string; submission: { id: number; uid: string } | null };
    expect(body.status).toBe('submitted');
    expect(body.submission).not.toBeNull();
    return body.submission as { id: number; uid: string };
  };

  it('delivers every notification of a clean submission: emails, signed webhook, extra POST and list opt-in', async () => {
    const values = {
      name: 'Ann',
      email: 'ann@visitor.test',
      department: 'support',
      newsletter: true,
      message: '<b>Ann</b> says hi & <script>alert(1)</script>',
    };
    // dynamicRecipients values are stored as a list (a checkbox variant picks several).
    const stored = { ...values, department: ['support'] };
    const submission = await submitNotify(values);
    const deliveries = await settled(app, submission.id, 6);

    expect(deliveries.map((d) => d.kind)).toEqual(['email', 'email', 'email', 'mailingList', 'webhook', 'extraPost']);
    for (const d of deliveries) {
      expect(d, d.destination).toMatchObject({ status: 'delivered', attempts: 1, lastError: null, nextAttemptAt: null });
      expect(d.deliveredAt).toBeTruthy();
      expect(d.log).toHaveLength(1);
      expect(d.log[0]).toMatchObject({ attempt: 1, ok: true });
    }
    const [adminJob, userJob, dynamicJob] = deliveries;

    // The admin email: the admin template, values escaped in the html part, raw in the text part.
    const [admin, ...moreAdmin] = sink.to('admin@example.test');
    expect(moreAdmin).toHaveLength(0);
    expect(admin?.envelope.to).toEqual(['admin@example.test']);
    expect(admin?.envelope.from).toBe('forms@svc.test');
    expect(admin?.subject).toBe('New Notify submission from Ann');
    expect(admin?.header('to')).toContain('admin@example.test');
    expect(admin?.header('from')).toContain('forms@svc.test');
    expect(admin?.header('message-id')).toBe(`<${adminJob?.uid}@svc>`);
    expect(admin?.html).toContain('<h1>Notify</h1>');
    expect(admin?.html).toContain('&lt;b&gt;Ann&lt;/b&gt;');
    expect(admin?.html).toContain('&lt;script&gt;');
    expect(admin?.html).not.toContain('<b>Ann</b>');
    expect(admin?.html).not.toContain('<script>');
    expect(admin?.text).toContain('Message: <b>Ann</b> says hi & <script>alert(1)</script>');
    expect(admin?.text).toContain('Name: Ann');

    // The confirmation to the address the user typed (text-only template).
    const [confirmation, ...moreConfirmations] = sink.to('ann@visitor.test');
    expect(moreConfirmations).toHaveLength(0);
    expect(confirmation?.envelope.to).toEqual(['ann@visitor.test']);
    expect(confirmation?.subject).toBe('Thanks, Ann');
    expect(confirmation?.text).toContain('Hello Ann, we received your message.');
    expect(confirmation?.html).toBeNull();
    expect(confirmation?.header('message-id')).toBe(`<${userJob?.uid}@svc>`);

    // The chosen department's recipients, and only them (built-in default template).
    const [routed, ...moreRouted] = sink.to('support@example.test');
    expect(moreRouted).toHaveLength(0);
    expect([...(routed?.envelope.to ?? [])].sort()).toEqual(['oncall@example.test', 'support@example.test']);
    expect(routed?.subject).toMatch(/^New submission: Notify/);
    expect(routed?.header('message-id')).toBe(`<${dynamicJob?.uid}@svc>`);
    expect(sink.to('sales@example.test')).toHaveLength(0);
    expect(sink.messages).toHaveLength(3);

    // The webhook: Standard Webhooks headers that verify with an independent implementation.
    const [hook, ...moreHooks] = receiver.on('/hook');
    expect(moreHooks).toHaveLength(0);
    expect(hook?.method).toBe('POST');
    expect(hook?.headers['content-type']).toBe('application/json');
    expect(hook?.headers['webhook-id']).toMatch(/^msg_/);
    expect(hook?.headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(Math.abs(Number(hook?.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(hook?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const verified = new Webhook(secret).verify(hook!.body, headersOf(hook!)) as {
      type: string;
      data: { form: { handle: string }; submission: { id: number; uid: string }; values: Record<string, unknown> };
    };
    expect(verified.type).toBe('submission.created');
    expect(verified.data.form.handle).toBe('notify');
    expect(verified.data.submission).toMatchObject({ id: submission.id, uid: submission.uid });
    expect(verified.data.values).toMatchObject(stored);
    // One byte changed, a wrong secret, or a wrong id: verification fails.
    expect(hook!.body).toContain('"Ann"');
    expect(() => new Webhook(secret).verify(hook!.body.replace('"Ann"', '"Anm"'), headersOf(hook!))).toThrow();
    expect(() => new Webhook(newSecret()).verify(hook!.body, headersOf(hook!))).toThrow();
    expect(() => new Webhook(secret).verify(hook!.body, { ...headersOf(hook!), 'webhook-id': 'msg_other' })).toThrow();
    // Nothing of the server's internals in the body.
    expect(hook!.body).not.toContain(secret);

    // The extra POST: the values as JSON.
    const [extra, ...moreExtra] = receiver.on('/extra');
    expect(moreExtra).toHaveLength(0);
    expect(extra?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(extra!.body)).toMatchObject(stored);

    // The mailing-list provider: {list, email}, signed like a webhook.
    const [list, ...moreList] = receiver.on('/list');
    expect(moreList).toHaveLength(0);
    expect(JSON.parse(list!.body)).toMatchObject({ list: 'newsletter', email: 'ann@visitor.test', form: 'notify', submission: submission.uid });
    expect(new Webhook(secret).verify(list!.body, headersOf(list!))).toMatchObject({ list: 'newsletter', email: 'ann@visitor.test' });
  });

  it('never sends recipients or delivery targets to clients in the manifest', async () => {
    const res = await app.app.inject({ method: 'GET', url: '/svc/api/forms/notify/manifest' });
    expect(res.statusCode).toBe(200);
    const text = res.body;
    expect(text).toContain('department');
    expect(text).toContain('support');
    expect(text).not.toMatch(/@example\.test/);
    expect(text).not.toContain('example.test');
    expect(text).not.toContain('"recipients"');
    expect(text).not.toContain(`127.0.0.1:${receiver.port}`);
  });

  it('emails only the chosen department and skips the list opt-in when not ticked', async () => {
    const submission = await submitNotify({ name: 'Sam', email: 'sam@visitor.test', department: 'sales', newsletter: false, message: 'Quote please' });
    const deliveries = await settled(app, submission.id, 5);
    expect(deliveries.map((d) => d.kind)).toEqual(['email', 'email', 'email', 'webhook', 'extraPost']);
    expect(deliveries.every((d) => d.status === 'delivered')).toBe(true);
    expect(sink.to('sales@example.test')).toHaveLength(1);
    expect(sink.to('support@example.test')).toHaveLength(0);
    expect(sink.to('oncall@example.test')).toHaveLength(0);
    expect(receiver.on('/list')).toHaveLength(0);
  });

  it('creates no deliveries for spam: a submit without the honeypot meta, or with it filled in', async () => {
    const before = await countDeliveries(app);
    const { token, cookie } = await app.csrf();
    const raw = await app.app.inject({
      method: 'POST',
      url: '/svc/api/forms/notify/submit',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      payload: JSON.stringify({ intent: 'submit', values: { name: 'Bot', email: 'bot@visitor.test', department: 'support', newsletter: true, message: 'buy' } }),
    });
    expect(raw.statusCode, raw.body).toBe(200);
    const rawBody = raw.json() as { status: string; submission: { id: number } };
    expect(rawBody.status).toBe('submitted');
    const stored = await findSubmission(app.context.database.db, rawBody.submission.id, app.context.sealer);
    expect(stored).toMatchObject({ isSpam: true, spamReasons: ['honeypot'] });

    const { security } = await app.manifest('notify');
    const filled = await app.submit('notify', {
      intent: 'submit',
      values: { name: 'Bot2', email: 'bot2@visitor.test' },
      meta: { honeypot: { name: security.honeypot?.name, value: 'I am a bot' } },
    });
    expect(filled.statusCode).toBe(200);
    const filledId = (filled.json() as { submission: { id: number } }).submission.id;
    expect((await findSubmission(app.context.database.db, filledId, app.context.sealer))?.isSpam).toBe(true);

    expect(await app.context.deliveries.list(rawBody.submission.id)).toEqual([]);
    expect(await app.context.deliveries.list(filledId)).toEqual([]);
    expect(await countDeliveries(app)).toBe(before);
    // Give a (wrongly) queued job the time to go out before asserting none did.
    await app.context.deliveries.worker.drain();
    expect(receiver.requests).toHaveLength(0);
    expect(sink.messages).toHaveLength(0);
  });

  it('creates no deliveries for a validation failure, a `next` step or a saved draft', async () => {
    const before = await countDeliveries(app);
    const invalid = await app.submit('notify', { intent: 'submit', values: { email: 'not-an-email', department: 'support' } });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json()).toMatchObject({ status: 'validation_failed' });

    const next = await app.submit('notify', { intent: 'next', values: { name: 'Nia', email: 'nia@visitor.test', department: 'support', newsletter: true } });
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json()).toMatchObject({ status: 'page_valid' });

    const draft = await app.submit('notify', { intent: 'saveDraft', values: { name: 'Dee', email: 'dee@visitor.test', department: 'support' } });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toMatchObject({ status: 'draft_saved' });

    expect(await countDeliveries(app)).toBe(before);
    await app.context.deliveries.worker.drain();
    expect(receiver.requests).toHaveLength(0);
    expect(sink.messages).toHaveLength(0);
  });

  it('retries a failing webhook with backoff and delivers it on attempt 3 under the same message id', async () => {
    receiver.script('/hook', 500, 500, 200);
    const submission = await submitNotify({ name: 'Rita', email: 'rita@visitor.test', department: 'sales', newsletter: false });
    const hook = await settledOne(app, submission.id, 'webhook');
    expect(hook).toMatchObject({ status: 'delivered', attempts: 3, lastError: null });
    expect(hook.log.map((l) => [l.attempt, l.ok])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(hook.log[0]?.detail).toContain('HTTP 500');
    expect(hook.log[1]?.detail).toContain('HTTP 500');
    expect(hook.log[2]?.detail).toContain('HTTP 200');
    const requests = receiver.on('/hook');
    expect(requests).toHaveLength(3);
    // Standard Webhooks: a retry is the same message (receivers deduplicate by webhook-id).
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const r of requests) expect(() => new Webhook(secret).verify(r.body, headersOf(r))).not.toThrow();
    // The other deliveries of the submission were not held up.
    const all = await settled(app, submission.id, 5);
    expect(all.filter((d) => d.kind !== 'webhook').every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
  });

  it('dead-letters a webhook after maxAttempts failures, and resend delivers it once the receiver recovers', async () => {
    receiver.script('/hook', 500);
    const submission = await submitNotify({ name: 'Dan', email: 'dan@visitor.test', department: 'sales', newsletter: false });
    const dead = await settledOne(app, submission.id, 'webhook');
    expect(dead).toMatchObject({ status: 'dead', attempts: 3, nextAttemptAt: null, deliveredAt: null });
    expect(dead.lastError).toMatch(/HTTP 500/);
    expect(dead.log).toHaveLength(3);
    expect(dead.log.every((l) => !l.ok && (l.detail ?? '').includes('HTTP 500'))).toBe(true);
    expect(receiver.on('/hook')).toHaveLength(3);

    receiver.script('/hook', 200);
    expect(await app.context.deliveries.resend(dead.id)).toBe(true);
    const resent = await settledOne(app, submission.id, 'webhook', 'delivered');
    expect(resent).toMatchObject({ status: 'delivered', attempts: 1, lastError: null });
    expect(resent.deliveredAt).toBeTruthy();
    expect(resent.log).toHaveLength(4);
    expect(resent.log.at(-1)).toMatchObject({ ok: true });
    expect(receiver.on('/hook')).toHaveLength(4);

    expect(await app.context.deliveries.resend(987_654_321)).toBe(false);
  });

  it('dead-letters an extra POST at once when its answer contains the trigger phrase', async () => {
    receiver.script('/extra', { status: 200, body: 'Result: ERROR could not save the lead' });
    const submission = await submitNotify({ name: 'Eve', email: 'eve@visitor.test', department: 'sales', newsletter: false });
    const extra = await settledOne(app, submission.id, 'extraPost');
    expect(extra).toMatchObject({ status: 'dead', attempts: 1 });
    expect(extra.lastError).toContain('"ERROR"');
    expect(extra.lastError).toMatch(/trigger phrase/);
    expect(receiver.on('/extra')).toHaveLength(1);
  });

  it('delivers the notifications of a storeData:false form from the outbox alone', async () => {
    const db = app.context.database.db;
    const formId = app.context.forms.get('unstored')?.id ?? -1;
    expect(formId).toBeGreaterThan(0);
    const res = await app.submit('unstored', { intent: 'submit', values: { name: 'Bo', message: '<i>hi</i>' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'submitted', submission: null });
    expect(await countSubmissions(db, formId)).toBe(0);

    const rows = await until(async () => {
      const found = await db.selectFrom('svc_deliveries').selectAll().where('form_id', '=', formId).orderBy('id').execute();
      return found.length === 2 && found.every((r) => r.status !== 'pending') ? found : undefined;
    }, 'the unstored form deliveries');
    expect(rows.map((r) => [r.kind, r.submission_id, r.status])).toEqual([
      ['email', null, 'delivered'],
      ['webhook', null, 'delivered'],
    ]);

    const mail = await sink.waitFor((m) => m.envelope.to.includes('admin@example.test'));
    expect(mail.subject).toBe('New Unstored submission from Bo');
    expect(mail.html).toContain('&lt;i&gt;hi&lt;/i&gt;');

    const [hook] = await receiver.waitFor('/unstored-hook');
    const verified = new Webhook(secret).verify(hook!.body, headersOf(hook!)) as { data: { submission: { id: number | null }; values: object } };
    expect(verified.data.submission.id).toBeNull();
    expect(verified.data.values).toMatchObject({ name: 'Bo', message: '<i>hi</i>' });
  });
});

describe('deliveries without outbound trust or SMTP (SQLite)', () => {
  let app: TestApp;
  let receiver: HttpReceiver;
  let formsDir: string;

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    formsDir = writeForms(receiver.port);
    app = await createTestApp({
      config: {
        forms: { dir: formsDir },
        headless: { forms: { notify: { exposeManifest: true, allowSubmit: true } } },
        notifications: { templatesDir: TEMPLATES, webhookSecret: newSecret() },
        deliveries: { pollMs: 100, backoffSeconds: 0.05, maxAttempts: 3, timeoutMs: 2000 },
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    if (formsDir) rmSync(formsDir, { recursive: true, force: true });
  });

  it('refuses a webhook and an extra POST to loopback (SSRF) without retrying, and the receiver sees nothing', async () => {
    const res = await app.submit('notify', { intent: 'submit', values: { name: 'Ann', email: 'ann@visitor.test', department: 'sales' } });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { submission: { id: number } }).submission.id;
    const hook = await settledOne(app, id, 'webhook');
    expect(hook).toMatchObject({ status: 'dead', attempts: 1 });
    expect(hook.lastError).toMatch(/^refused/);
    expect(hook.lastError).toContain('127.0.0.1');
    const extra = await settledOne(app, id, 'extraPost');
    expect(extra).toMatchObject({ status: 'dead', attempts: 1 });
    expect(extra.lastError).toMatch(/^refused/);
    expect(receiver.requests).toHaveLength(0);
  });

  it('writes emails as .eml files under <dataDir>/mail when no smtpUrl is configured', async () => {
    const res = await app.submit('notify', { intent: 'submit', values: { name: 'Zed', email: 'zed@visitor.test', department: 'support', message: '<b>Zed</b>' } });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { submission: { id: number } }).submission.id;
    const deliveries = await settled(app, id, 5);
    const emails = deliveries.filter((d) => d.kind === 'email');
    expect(emails).toHaveLength(3);
    for (const e of emails) {
      expect(e.status, e.destination).toBe('delivered');
      expect(e.log[0]?.detail).toMatch(/^no SMTP configured; saved as mail file [\w-]+\.eml$/);
      expect(JSON.stringify(e)).not.toContain(app.dataDir);
    }
    const dir = join(app.dataDir, 'mail');
    const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
    const mails = files.map((f) => readMail(readFileSync(join(dir, f), 'utf8')));
    const admin = mails.find((m) => m.subject === 'New Notify submission from Zed');
    expect(admin, `subjects: ${mails.map((m) => m.subject).join(' | ')}`).toBeDefined();
    expect(readFileSync(join(dir, files[mails.indexOf(admin!)]!), 'utf8')).toContain('New Notify submission from Zed');
    expect(admin?.header('to')).toContain('admin@example.test');
    expect(admin?.html).toContain('&lt;b&gt;Zed&lt;/b&gt;');
    expect(mails.some((m) => m.subject === 'Thanks, Zed' && (m.header('to') ?? '').includes('zed@visitor.test'))).toBe(true);
  });
});

describe('retryDelayMs', () => {
  const SIX_HOURS = 6 * 3_600_000;
  const ceiling = (attempt: number, backoffSeconds: number) => Math.min(SIX_HOURS, backoffSeconds * 1000 * 2 ** (attempt - 1));

  it('stays within [ceiling/2, ceiling], ceiling = backoff * 2^(attempt-1) capped at 6 h', () => {
    for (const backoff of [0.05, 1, 30, 3600]) {
      for (let attempt = 1; attempt <= 40; attempt++) {
        const top = ceiling(attempt, backoff);
        expect(retryDelayMs(attempt, backoff, () => 0)).toBe(Math.round(top / 2));
        expect(retryDelayMs(attempt, backoff, () => 0.999999)).toBeLessThanOrEqual(Math.round(top));
        expect(retryDelayMs(attempt, backoff, () => 0.999999)).toBeGreaterThan(top * 0.99);
        for (let i = 0; i < 20; i++) {
          const delay = retryDelayMs(attempt, backoff);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(top / 2));
          expect(delay).toBeLessThanOrEqual(Math.ceil(top));
        }
      }
    }
  });

  it('doubles per attempt and is capped at 6 hours', () => {
    expect(retryDelayMs(1, 30, () => 0.999999)).toBeLessThanOrEqual(30_000);
    expect(retryDelayMs(1, 30, () => 0)).toBe(15_000);
    expect(retryDelayMs(2, 30, () => 0)).toBe(30_000);
    expect(retryDelayMs(3, 30, () => 0)).toBe(60_000);
    expect(retryDelayMs(50, 30, () => 0)).toBe(SIX_HOURS / 2);
    expect(retryDelayMs(50, 30, () => 0.999999)).toBeLessThanOrEqual(SIX_HOURS);
    expect(retryDelayMs(1000, 3600, () => 0.5)).toBeLessThanOrEqual(SIX_HOURS);
  });
});
