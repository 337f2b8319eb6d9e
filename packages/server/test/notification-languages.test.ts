/**
 * Notification emails in the site's language (issue #34 item 4), end to end through the real SMTP
 * server the notification tests use: the demo's contact form and templates, submitted on a German,
 * an Arabic, an Austrian (de-AT) and a French site. The owner's email is svc's built-in layout (its
 * words from the catalogue, labels from the form's translation); the submitter's confirmation is
 * examples/templates/contact-confirmation, whose `de/` and `ar/` folders are its language variants.
 * `svc forms check` refuses a language folder that does not parse, as it does the template's own files.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkTemplateFiles } from '../src/notifications/template-check.js';
import { runFormsCheck } from '../src/cli/forms-check-command.js';
import { createTestApp, EXAMPLE_FORMS_DIR, type TestApp } from './support/test-app.js';
import { startSmtpSink, type CapturedMail, type SmtpSink } from './support/smtp-sink.js';

const TEMPLATES = resolve(EXAMPLE_FORMS_DIR, '../templates');
const OWNER = 'owner@example.test';

const SITES = [
  { handle: 'default', language: 'en-US', default: true },
  { handle: 'de', language: 'de-DE', timezone: 'Europe/Berlin' },
  { handle: 'ar', language: 'ar' },
  // No template variant nor form translation is written for these two: they show the fallbacks.
  { handle: 'at', language: 'de-AT' },
  { handle: 'fr', language: 'fr-FR' },
];

describe('notification emails per site language', () => {
  let app: TestApp;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await createTestApp({
      config: {
        sites: SITES,
        notifications: { templatesDir: TEMPLATES, from: 'Forms <forms@svc.test>', smtpUrl: sink.url },
        deliveries: { pollMs: 100, backoffSeconds: 0.05, maxAttempts: 2, timeoutMs: 2000 },
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });
  beforeEach(() => sink.clear());

  /** Submits the contact form on `site` and returns the owner's and the submitter's emails. */
  async function submitOn(site: string | null, first: string, last: string) {
    const email = `${first.toLowerCase()}@visitor.test`;
    const res = await app.submit('contact', {
      intent: 'submit',
      values: { firstName: first, lastName: last, email, message: 'Hallo & <b>hi</b>' },
      ...(site === null ? {} : { context: { site } }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const to = (address: string) => (mail: CapturedMail) => mail.envelope.to.includes(address);
    const [owner, confirmation] = await Promise.all([sink.waitFor(to(OWNER), 10_000), sink.waitFor(to(email), 10_000)]);
    return { owner, confirmation };
  }

  it('writes both emails of a submission on the German site in German', async () => {
    const { owner, confirmation } = await submitOn('de', 'Anna', 'Schmidt');

    // svc's own layout: the catalogue's words, the form's German name and labels.
    expect(owner.subject).toBe('Neue Einsendung: Kontakt (Anna Schmidt)');
    expect(owner.header('content-language')).toBe('de-DE');
    expect(owner.html).toContain('<div lang="de-DE" dir="ltr">');
    expect(owner.html).toContain('<h1>Kontakt</h1>');
    expect(owner.html).toContain('<th align="left">Vorname</th><td>Anna</td>');
    expect(owner.html).toContain('<th align="left">E-Mail-Adresse</th>');
    // Values stay escaped in the html part, as in every template.
    expect(owner.html).toContain('Hallo &amp; &lt;b&gt;hi&lt;/b&gt;');
    expect(owner.text).toContain('Nachname: Schmidt');
    expect(owner.text).not.toContain('First name');

    // The confirmation template's de/ variant, with the translated labels in its table.
    expect(confirmation.subject).toBe('Danke für Ihre Nachricht, Anna');
    expect(confirmation.html).toContain('<div lang="de-DE" dir="ltr">');
    expect(confirmation.html).toContain('wir haben Ihre Nachricht erhalten');
    expect(confirmation.text).toContain('Nachricht: Hallo & <b>hi</b>');
    expect(confirmation.text).toContain('— Kontakt');
  });

  it('writes the Arabic site\'s emails in Arabic, right to left', async () => {
    const { owner, confirmation } = await submitOn('ar', 'Layla', 'Haddad');

    expect(owner.subject).toBe('إرسال جديد: اتصل بنا (Layla Haddad)');
    expect(owner.html).toContain('<div lang="ar" dir="rtl">');
    expect(owner.html).toContain('<th align="right">الاسم الأول</th><td>Layla</td>');
    expect(owner.header('content-language')).toBe('ar');

    expect(confirmation.subject).toBe('شكرًا على رسالتك يا Layla');
    expect(confirmation.html).toContain('<div lang="ar" dir="rtl">');
    expect(confirmation.text).toContain('البريد الإلكتروني: layla@visitor.test');
  });

  it("falls back to the site's base language: a de-AT site gets the de variant and German words", async () => {
    const { owner, confirmation } = await submitOn('at', 'Franz', 'Huber');

    expect(confirmation.subject).toBe('Danke für Ihre Nachricht, Franz');
    // The html part names the site's own language, which the de variant serves.
    expect(confirmation.html).toContain('<div lang="de-AT" dir="ltr">');
    expect(owner.subject).toBe('Neue Einsendung: Kontakt (Franz Huber)');
    expect(owner.text).toContain('Vorname: Franz');
  });

  it("falls back to the template's own files and the form's own labels where no translation exists, never to a blank", async () => {
    const { owner, confirmation } = await submitOn('fr', 'Jo', 'Martin');

    // No fr/ folder: the template's own (English) files; no fr translation: the form's own labels.
    expect(confirmation.subject).toBe('Thanks for your message, Jo');
    expect(confirmation.text).toContain('First name: Jo');
    expect(confirmation.html).toContain('<div lang="fr-FR" dir="ltr">');
    // svc's own words are in the catalogue's French all the same.
    expect(owner.subject).toBe('Nouvelle réponse : Contact (Jo Martin)');
    expect(owner.text).toContain('Last name: Martin');
  });

  it("sends a submission held back as spam, once released, in its own site's language", async () => {
    const { security } = await app.manifest('contact');
    const res = await app.submit('contact', {
      intent: 'submit',
      values: { firstName: 'Otto', lastName: 'Falsch', email: 'otto@visitor.test' },
      meta: { honeypot: { name: security.honeypot?.name, value: 'filled' } },
      context: { site: 'de' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<{ submission: { id: number } }>().submission.id;
    const row = await app.context.database.db.selectFrom('svc_submissions').select(['is_spam', 'site']).where('id', '=', id).executeTakeFirstOrThrow();
    expect({ spam: Boolean(row.is_spam), site: row.site }).toEqual({ spam: true, site: 'de' });
    expect(sink.messages).toHaveLength(0);

    // Released from the registry's untranslated form, it is written as the German site had it.
    expect(await app.context.deliveries.onMarkedNotSpam(id)).toBe(2);
    const owner = await sink.waitFor((mail) => mail.envelope.to.includes(OWNER), 10_000);
    expect(owner.subject).toBe('Neue Einsendung: Kontakt (Otto Falsch)');
    expect(owner.text).toContain('Vorname: Otto');
    const confirmation = await sink.waitFor((mail) => mail.envelope.to.includes('otto@visitor.test'), 10_000);
    expect(confirmation.subject).toBe('Danke für Ihre Nachricht, Otto');
  });

  it('keeps the default site in English, the built-in subject as it was', async () => {
    const { owner, confirmation } = await submitOn(null, 'Ann', 'Lee');

    expect(owner.subject).toBe('New submission: Contact (Ann Lee)');
    expect(owner.html).toContain('<div lang="en-US" dir="ltr">');
    expect(owner.text).toContain('First name: Ann');
    expect(confirmation.subject).toBe('Thanks for your message, Ann');
  });
});

describe('choice fields in notification emails', () => {
  let app: TestApp;
  let sink: SmtpSink;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'svc-option-labels-'));
    const form = {
      name: 'Enquiry',
      settings: { notifications: { admin: [{ to: OWNER, template: 'default' }, { to: 'raw@example.test', template: 'enquiry-raw' }] } },
      fields: [
        { type: 'text', handle: 'name', label: 'Name' },
        { type: 'select', handle: 'department', label: 'Department', options: [{ value: 'dept_sales', label: 'Sales' }, { value: 'dept_support', label: 'Support' }] },
        { type: 'radioGroup', handle: 'reply', label: 'Reply by', options: [{ value: 'by_mail', label: 'Email' }, { value: 'by_phone', label: 'Phone' }] },
        { type: 'checkboxGroup', handle: 'topics', label: 'Topics', options: [{ value: 't_price', label: 'Prices' }, { value: 't_terms', label: 'Terms' }, { value: 't_other', label: 'Other' }] },
      ],
      translations: {
        de: {
          fields: {
            department: { label: 'Abteilung', options: { dept_sales: 'Vertrieb', dept_support: 'Kundendienst' } },
            reply: { label: 'Antwort per', options: { by_mail: 'E-Mail', by_phone: 'Telefon' } },
            // t_other has no German label: the form's own one, never the raw value nor a blank.
            topics: { label: 'Themen', options: { t_price: 'Preise', t_terms: 'Bedingungen' } },
          },
        },
      },
    };
    mkdirSync(join(root, 'forms'));
    writeFileSync(join(root, 'forms', 'enquiry.json'), JSON.stringify(form));
    mkdirSync(join(root, 'templates', 'enquiry-raw'), { recursive: true });
    writeFileSync(join(root, 'templates', 'enquiry-raw', 'subject.liquid'), 'Raw');
    writeFileSync(
      join(root, 'templates', 'enquiry-raw', 'text.liquid'),
      '{{ labels.department }} = {{ values.department }}\n{% for field in fields %}{{ field.handle }}: {{ field.value }} [{{ field.rawValue }}]\n{% endfor %}',
    );
    sink = await startSmtpSink();
    app = await createTestApp({
      config: {
        sites: SITES,
        forms: { dir: join(root, 'forms') },
        headless: { forms: { enquiry: { exposeManifest: true, allowSubmit: true } } },
        notifications: { templatesDir: join(root, 'templates'), from: 'Forms <forms@svc.test>', smtpUrl: sink.url },
        deliveries: { pollMs: 100, backoffSeconds: 0.05, maxAttempts: 2, timeoutMs: 2000 },
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await sink?.close();
    rmSync(root, { recursive: true, force: true });
  });
  beforeEach(() => sink.clear());

  async function enquire(site: string | null) {
    const res = await app.submit('enquiry', {
      intent: 'submit',
      values: { name: 'Kim', department: 'dept_sales', reply: 'by_phone', topics: ['t_price', 't_other'] },
      ...(site === null ? {} : { context: { site } }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const to = (address: string) => (mail: CapturedMail) => mail.envelope.to.includes(address);
    const [owner, raw] = await Promise.all([sink.waitFor(to(OWNER), 10_000), sink.waitFor(to('raw@example.test'), 10_000)]);
    return { owner, raw };
  }

  it('shows the German option labels, not the stored values, in a German site\'s email', async () => {
    const { owner, raw } = await enquire('de');
    expect(owner.html).toContain('<th align="left">Abteilung</th><td>Vertrieb</td>');
    expect(owner.html).toContain('<th align="left">Antwort per</th><td>Telefon</td>');
    expect(owner.text).toContain('Themen: Preise, Other');
    for (const value of ['dept_sales', 'by_phone', 't_price']) expect(`${owner.text ?? ''}${owner.html ?? ''}`).not.toContain(value);

    // A template still reaches what was stored, beside what was shown.
    expect(raw.text).toContain('Vertrieb = dept_sales');
    expect(raw.text).toContain('department: Vertrieb [dept_sales]');
    expect(raw.text).toContain('topics: Preise, Other [t_price, t_other]');
    expect(raw.text).toContain('name: Kim [Kim]');
  });

  it("shows the form's own option labels in the default site's English email", async () => {
    const { owner, raw } = await enquire(null);
    expect(owner.html).toContain('<th align="left">Department</th><td>Sales</td>');
    expect(owner.text).toContain('Reply by: Phone');
    expect(owner.text).toContain('Topics: Prices, Other');
    expect(raw.text).toContain('Sales = dept_sales');
    expect(raw.text).toContain('reply: Phone [by_phone]');
  });
});

describe('svc forms check on language variants of email templates', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'svc-template-languages-'));
    const form = {
      name: 'Ask',
      settings: { notifications: { admin: [{ to: 'owner@example.test', template: 'ask-owner' }] } },
      fields: [{ type: 'email', handle: 'email', label: 'Email', notificationId: 'ask-thanks' }],
    };
    mkdirSync(join(root, 'forms'));
    writeFileSync(join(root, 'forms', 'ask.json'), JSON.stringify(form));
    const write = (path: string, text: string) => {
      mkdirSync(join(root, 'templates', path, '..'), { recursive: true });
      writeFileSync(join(root, 'templates', path), text);
    };
    write('ask-owner/subject.liquid', 'New question');
    write('ask-owner/text.liquid', '{% for field in fields %}{{ field.label }}: {{ field.value }}\n{% endfor %}');
    write('ask-owner/de/subject.liquid', 'Neue Frage');
    write('ask-owner/de/text.liquid', '{% for field in fields %}{{ field.label }}');
    write('ask-owner/ar/subject.liquid', 'سؤال جديد');
    // A folder that names no language is no variant of the template, and nobody's problem.
    write('ask-owner/images/readme.txt', 'logos');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('refuses a language folder that does not parse or lacks a body, and warns of a template not there', async () => {
    const { errors, warnings } = await checkTemplateFiles(
      [{ handle: 'ask', form: { settings: { notifications: { admin: [{ to: ['o@example.test'], template: 'ask-owner' }], webhooks: [] } }, fields: [{ type: 'email', handle: 'email', label: 'Email', notificationId: 'ask-thanks' } as never] } }],
      join(root, 'templates'),
    );
    expect(errors).toHaveLength(2);
    expect(errors.find((e) => e.includes('language de'))).toMatch(/^email template "ask-owner", language de \(used by ask\): does not parse: /);
    expect(errors.find((e) => e.includes('language ar'))).toBe('email template "ask-owner", language ar (used by ask): needs subject.liquid and html.liquid or text.liquid');
    expect(warnings).toEqual([`email template "ask-thanks" (used by ask) is not in ${join(root, 'templates')}; its emails will be dead-lettered`]);
  });

  it('fails `svc forms check` with the broken folders named, and passes once they are fixed', async () => {
    const config = join(root, 'svc.config.yaml');
    writeFileSync(config, 'forms:\n  dir: forms\nnotifications:\n  templatesDir: templates\n');
    const run = async () => {
      const out: string[] = [];
      const err: string[] = [];
      const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
      try {
        const status = await runFormsCheck({ configFile: config, demo: false, dir: undefined });
        return { status, stdout: out.join(''), stderr: err.join('') };
      } finally {
        stdout.mockRestore();
        stderr.mockRestore();
      }
    };
    const broken = await run();
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('email template "ask-owner", language de (used by ask): does not parse');
    expect(broken.stderr).toContain('email template "ask-owner", language ar (used by ask): needs subject.liquid');
    expect(broken.stderr).toMatch(/2 problem\(s\) in /);

    writeFileSync(join(root, 'templates/ask-owner/de/text.liquid'), '{% for field in fields %}{{ field.label }}{% endfor %}');
    writeFileSync(join(root, 'templates/ask-owner/ar/text.liquid'), 'سؤال');
    const fixed = await run();
    expect(fixed.stderr).toBe('');
    expect(fixed.status).toBe(0);
    expect(fixed.stdout).toContain('warning: email template "ask-thanks" (used by ask) is not in');
    expect(fixed.stdout).toMatch(/1 form\(s\) OK in .*: ask/);
  });
});
