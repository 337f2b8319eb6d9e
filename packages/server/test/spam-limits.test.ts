/**
 * Blocked keyword/email/IP lists and submission limits (issue #4, contract §4) over HTTP, on every
 * dialect: list hits are spam (stored flagged under simulate_success, 422 spam_rejected under
 * display_errors); a reached total or per-IP limit answers 429 limit_reached and stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { loadFormDefinitions } from '../src/forms/definition-loader.js';
import { countSubmissions, findSubmission } from '../src/submissions/submission-repository.js';
import type { SubmitBody } from '../src/submissions/submit-response.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';

const MINUTE_MS = 60_000;
const SITE_KEYWORD = 'casino';

const TEXT_FIELDS = `fields:
  - { type: text, handle: name, label: Name }
  - { type: textarea, handle: message, label: Message }
`;

/** A form whose only spam protection is what `spamYaml` adds (no honeypot), plus `extraSettings`. */
function formYaml(name: string, spamYaml: string, extraSettings = '', fields = TEXT_FIELDS): string {
  return `name: ${name}
settings:
  spam:
    honeypot: false
${spamYaml}${extraSettings}${fields}`;
}

const FORMS: Readonly<Record<string, string>> = {
  keywords: formYaml('Keywords', '    blockedKeywords: [viagra, "free * money"]\n'),
  emails: formYaml(
    'Emails',
    '    blockedEmails: ["*@spam.test"]\n',
    '',
    `fields:
  - { type: text, handle: name, label: Name }
  - { type: email, handle: email, label: Email }
`,
  ),
  ips: formYaml('Ips', '    blockedIps: ["127.0.0.0/8"]\n'),
  plain: formYaml('Plain', ''),
  strict: formYaml('Strict', '    behavior: display_errors\n    blockedKeywords: [viagra]\n'),
  capped: formYaml('Capped', '', '  limits: { total: 2 }\n'),
  'capped-spam': formYaml('Capped spam', '    blockedKeywords: [viagra]\n', '  limits: { total: 2 }\n'),
  perip: formYaml('Per IP', '', '  limits: { perIp: { count: 2, periodMinutes: 10 } }\n'),
  'perip-collect': formYaml('Per IP collecting', '', '  ipCollectingEnabled: true\n  limits: { perIp: { count: 2, periodMinutes: 10 } }\n'),
  gqlcapped: formYaml('GraphQL capped', '', '  limits: { total: 1 }\n'),
};

interface GraphqlBody<T> {
  readonly data?: T | null;
  readonly errors?: readonly { readonly message: string; readonly extensions?: Readonly<Record<string, unknown>> }[];
}

describeEachDialect('blocked lists and submission limits', (target) => {
  let svc: TestApp;
  let formsDir: string;
  let clock = Date.parse('2026-11-22T10:00:00Z');

  beforeAll(async () => {
    formsDir = mkdtempSync(join(tmpdir(), 'svc-spam-forms-'));
    for (const [handle, text] of Object.entries(FORMS)) writeFileSync(join(formsDir, `${handle}.yaml`), text);
    const exposed = Object.fromEntries(Object.keys(FORMS).map((handle) => [handle, { exposeManifest: true, allowSubmit: true }]));
    svc = await createTestApp({
      config: {
        database: { url: target.url() },
        forms: { dir: formsDir, watch: false },
        headless: { forms: exposed },
        server: { trustProxy: true },
        spam: { blockedKeywords: [SITE_KEYWORD] },
      },
      now: () => new Date(clock),
    });
  });
  afterAll(async () => {
    await svc?.close();
    if (formsDir) rmSync(formsDir, { recursive: true, force: true });
  });

  const db = () => svc.context.database.db;
  const formId = (handle: string) => {
    const form = svc.context.forms.get(handle);
    if (!form) throw new Error(`no form ${handle}`);
    return form.id;
  };
  const count = (handle: string) => countSubmissions(db(), formId(handle));
  const submit = (handle: string, values: Record<string, unknown>, headers: Record<string, string> = {}) =>
    svc.submit(handle, { intent: 'submit', values }, headers);
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  const bodyOf = (res: LightMyRequestResponse) => res.json<SubmitBody>();

  async function storedOf(res: LightMyRequestResponse) {
    const id = bodyOf(res).submission?.id;
    if (id === undefined) throw new Error(`no submission in ${res.body}`);
    const stored = await findSubmission(db(), id, svc.context.sealer);
    if (!stored) throw new Error(`submission ${id} not stored`);
    return stored;
  }

  async function expectSubmitted(res: LightMyRequestResponse) {
    expect(res.statusCode, res.body).toBe(200);
    expect(bodyOf(res)).toMatchObject({ success: true, status: 'submitted', complete: true });
    return storedOf(res);
  }

  describe('blocked lists under simulate_success', () => {
    it.each([
      ['an upper-case blocked keyword', 'Buy VIAGRA now'],
      ['a wildcard phrase', 'get FREE easy money'],
    ])('answers 200 submitted for %s and stores it flagged blocked_keyword', async (_label, message) => {
      const stored = await expectSubmitted(await submit('keywords', { name: 'Bot', message }));
      expect(stored).toMatchObject({ isSpam: true, spamReasons: ['blocked_keyword'], values: { name: 'Bot', message } });
    });

    it('stores a clean submission of the same form as not spam', async () => {
      const stored = await expectSubmitted(await submit('keywords', { name: 'Ann', message: 'Hello there' }));
      expect(stored).toMatchObject({ isSpam: false, spamReasons: [] });
    });

    it.each([
      ['flags an address at a blocked domain as blocked_email', 'bot@spam.test', true],
      ['flags a blocked address typed with other case and whitespace', '  BOT@Spam.Test ', true],
      ['does not flag an address at another domain', 'ann@example.test', false],
    ])('%s', async (_label, email, spam) => {
      const stored = await expectSubmitted(await submit('emails', { name: 'Someone', email }));
      expect(stored).toMatchObject(spam ? { isSpam: true, spamReasons: ['blocked_email'] } : { isSpam: false, spamReasons: [] });
    });

    it('does not flag a blocked address typed into a text field', async () => {
      const stored = await expectSubmitted(await submit('emails', { name: 'bot@spam.test', email: 'ann@example.test' }));
      expect(stored).toMatchObject({ isSpam: false, spamReasons: [] });
    });

    it("flags a submission from a blocked range as blocked_ip (inject's own 127.0.0.1)", async () => {
      const stored = await expectSubmitted(await submit('ips', { name: 'Ann', message: 'Hello' }));
      expect(stored).toMatchObject({ isSpam: true, spamReasons: ['blocked_ip'] });
    });

    it('does not flag a client outside the blocked range', async () => {
      const stored = await expectSubmitted(await submit('ips', { name: 'Ann', message: 'Hello' }, from('203.0.113.9')));
      expect(stored).toMatchObject({ isSpam: false, spamReasons: [] });
    });

    it('flags a client that reaches the server as an IPv4-mapped IPv6 address of a blocked range', async () => {
      const stored = await expectSubmitted(await submit('ips', { name: 'Ann', message: 'Hello' }, from('::ffff:127.0.0.2')));
      expect(stored).toMatchObject({ isSpam: true, spamReasons: ['blocked_ip'] });
    });

    it.each(['keywords', 'plain', 'ips', 'capped-spam'])('applies the site-wide keyword list to form %s', async (handle) => {
      const stored = await expectSubmitted(await submit(handle, { name: 'Bot', message: `Best ${SITE_KEYWORD.toUpperCase()} in town` }, from('203.0.113.10')));
      expect(stored).toMatchObject({ isSpam: true, spamReasons: ['blocked_keyword'] });
    });

    it('stores a clean submission of a form without lists as not spam', async () => {
      const stored = await expectSubmitted(await submit('plain', { name: 'Ann', message: 'Hello' }));
      expect(stored).toMatchObject({ isSpam: false, spamReasons: [] });
    });
  });

  describe('blocked lists under display_errors', () => {
    it('answers 422 spam_rejected for a blocked keyword and stores nothing', async () => {
      const before = await count('strict');
      const res = await submit('strict', { name: 'Bot', message: 'cheap viagra' });
      expect(res.statusCode).toBe(422);
      expect(bodyOf(res)).toMatchObject({ success: false, status: 'spam_rejected', complete: false, submission: null });
      expect(bodyOf(res).errors.form.length).toBeGreaterThan(0);
      expect(await count('strict')).toBe(before);
    });

    it('answers 422 spam_rejected for a site-wide keyword too', async () => {
      const res = await submit('strict', { name: 'Bot', message: SITE_KEYWORD });
      expect(res.statusCode).toBe(422);
      expect(bodyOf(res).status).toBe('spam_rejected');
    });

    it('rejects saveDraft with a blocked keyword with 422 spam_rejected and issues no draft', async () => {
      const res = await svc.submit('strict', { intent: 'saveDraft', values: { name: 'Bot', message: 'VIAGRA' } });
      expect(res.statusCode).toBe(422);
      expect(bodyOf(res)).toMatchObject({ success: false, status: 'spam_rejected', draft: null });
    });

    it('still stores a clean submission', async () => {
      const before = await count('strict');
      const stored = await expectSubmitted(await submit('strict', { name: 'Ann', message: 'Hello' }));
      expect(stored.isSpam).toBe(false);
      expect(await count('strict')).toBe(before + 1);
    });
  });

  describe('total limit', () => {
    it('answers the third valid submit with 429 limit_reached and a form error, storing nothing', async () => {
      await expectSubmitted(await submit('capped', { name: 'One', message: 'first' }));
      await expectSubmitted(await submit('capped', { name: 'Two', message: 'second' }));
      const res = await submit('capped', { name: 'Three', message: 'third' });
      expect(res.statusCode).toBe(429);
      const body = bodyOf(res);
      expect(body).toMatchObject({ success: false, status: 'limit_reached', complete: false, submission: null });
      expect(body.errors.form).toEqual([expect.stringMatching(/limit/i)]);
      expect(await count('capped')).toBe(2);
    });

    it('keeps refusing once the limit is reached', async () => {
      const res = await submit('capped', { name: 'Four', message: 'fourth' });
      expect(res.statusCode).toBe(429);
      expect(bodyOf(res).status).toBe('limit_reached');
      expect(await count('capped')).toBe(2);
    });

    it('does not count spam-flagged submissions toward the limit', async () => {
      await expectSubmitted(await submit('capped-spam', { name: 'Bot', message: 'viagra one' }));
      await expectSubmitted(await submit('capped-spam', { name: 'Bot', message: 'viagra two' }));
      await expectSubmitted(await submit('capped-spam', { name: 'Ann', message: 'first' }));
      await expectSubmitted(await submit('capped-spam', { name: 'Ben', message: 'second' }));
      const res = await submit('capped-spam', { name: 'Cy', message: 'third' });
      expect(res.statusCode).toBe(429);
      expect(bodyOf(res).status).toBe('limit_reached');
    });
  });

  describe('per-IP limit', () => {
    async function fillFrom(handle: string, ip: string, n: number) {
      for (let i = 0; i < n; i += 1) await expectSubmitted(await submit(handle, { name: `N${i}`, message: 'hi' }, from(ip)));
    }

    it('answers the third submit from the same client within the period with 429 limit_reached', async () => {
      await fillFrom('perip', '198.51.100.1', 2);
      const before = await count('perip');
      const res = await submit('perip', { name: 'Again', message: 'hi' }, from('198.51.100.1'));
      expect(res.statusCode).toBe(429);
      expect(bodyOf(res)).toMatchObject({ success: false, status: 'limit_reached', submission: null });
      expect(bodyOf(res).errors.form.length).toBe(1);
      expect(await count('perip')).toBe(before);
    });

    it('counts a different client IP separately', async () => {
      await fillFrom('perip', '198.51.100.2', 2);
      expect((await submit('perip', { name: 'X', message: 'hi' }, from('198.51.100.2'))).statusCode).toBe(429);
      await expectSubmitted(await submit('perip', { name: 'Other', message: 'hi' }, from('198.51.100.3')));
    });

    it('accepts the client again once the period has passed', async () => {
      await fillFrom('perip', '198.51.100.4', 2);
      clock += 9 * MINUTE_MS;
      expect((await submit('perip', { name: 'Early', message: 'hi' }, from('198.51.100.4'))).statusCode).toBe(429);
      clock += 2 * MINUTE_MS;
      await expectSubmitted(await submit('perip', { name: 'Later', message: 'hi' }, from('198.51.100.4')));
    });

    it('does not count spam-flagged submissions from the client', async () => {
      for (const message of [`${SITE_KEYWORD} one`, `${SITE_KEYWORD} two`]) {
        const stored = await expectSubmitted(await submit('perip', { name: 'Bot', message }, from('198.51.100.5')));
        expect(stored.isSpam).toBe(true);
      }
      await fillFrom('perip', '198.51.100.5', 2);
      expect((await submit('perip', { name: 'X', message: 'hi' }, from('198.51.100.5'))).statusCode).toBe(429);
    });

    it('keeps only a hash of the IP when IP collecting is off', async () => {
      const ip = '198.51.100.6';
      const stored = await expectSubmitted(await submit('perip', { name: 'Ann', message: 'hi' }, from(ip)));
      const row = await db().selectFrom('svc_submissions').select(['ip', 'ip_hash']).where('id', '=', stored.id).executeTakeFirstOrThrow();
      expect(stored.ip).toBeNull();
      expect(row.ip).toBeNull();
      expect(row.ip_hash).toEqual(expect.any(String));
      expect(row.ip_hash).not.toBe(ip);
      expect(row.ip_hash).not.toContain(ip);
    });

    it('gives the same client the same hash and another client a different one', async () => {
      const hashOf = async (ip: string) => {
        const stored = await expectSubmitted(await submit('perip-collect', { name: 'Ann', message: 'hi' }, from(ip)));
        const row = await db().selectFrom('svc_submissions').select('ip_hash').where('id', '=', stored.id).executeTakeFirstOrThrow();
        return row.ip_hash;
      };
      const first = await hashOf('198.51.100.7');
      expect(await hashOf('198.51.100.7')).toBe(first);
      expect(await hashOf('198.51.100.8')).not.toBe(first);
    });

    it('stores the IP itself when IP collecting is on', async () => {
      const stored = await expectSubmitted(await submit('perip-collect', { name: 'Ann', message: 'hi' }, from('198.51.100.9')));
      expect(stored.ip).toBe('198.51.100.9');
    });
  });

  describe('GraphQL', () => {
    const MUTATION = `mutation ($csrf: SvcCsrfTokenInputType, $name: String, $message: String) {
      save_gqlcapped_Submission(csrfToken: $csrf, name: $name, message: $message) { id success submissionLimitReached isSpam }
    }`;

    async function save(name: string) {
      const { token, cookie } = await svc.csrf();
      const res = await svc.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', cookie },
        payload: JSON.stringify({
          query: MUTATION,
          variables: { csrf: { name: 'SVC_CSRF_TOKEN', value: token }, name, message: 'hi' },
        }),
      });
      return res.json<GraphqlBody<{ save_gqlcapped_Submission: Record<string, unknown> | null }>>();
    }

    it('stores through save_<handle>_Submission until the total limit is reached', async () => {
      const first = await save('Ann');
      expect(first.errors).toBeUndefined();
      expect(first.data?.save_gqlcapped_Submission).toMatchObject({ success: true, submissionLimitReached: false });
      expect(await count('gqlcapped')).toBe(1);
    });

    it('reports a reached total limit through submissionLimitReached (interface.md §8) and stores nothing', async () => {
      const second = await save('Ben');
      expect(second.errors).toBeUndefined();
      expect(second.data?.save_gqlcapped_Submission).toEqual({ id: null, success: false, submissionLimitReached: true, isSpam: false });
      expect(await count('gqlcapped')).toBe(1);
    });
  });
});

describe('forms check of blocked IPs', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-spam-check-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['a word', 'nope'],
    ['a prefix too long for IPv4', '10.0.0.0/33'],
  ])('reports settings.spam.blockedIps[0] for %s', async (_label, entry) => {
    writeFileSync(join(dir, 'bad.yaml'), formYaml('Bad', `    blockedIps: [${JSON.stringify(entry)}, "203.0.113.0/24"]\n`));
    const { definitions, problems } = await loadFormDefinitions(dir);
    expect(definitions).toEqual([]);
    expect(problems).toEqual([expect.objectContaining({ path: 'settings.spam.blockedIps[0]', message: expect.stringContaining(entry) })]);
  });

  it('accepts a definition whose blocked IPs are all addresses or ranges', async () => {
    writeFileSync(join(dir, 'bad.yaml'), formYaml('Good', '    blockedIps: ["203.0.113.7", "2001:db8::/32", "127.0.0.0/8"]\n'));
    const { definitions, problems } = await loadFormDefinitions(dir);
    expect(problems).toEqual([]);
    expect(definitions.map((d) => d.definition.settings.spam.blockedIps)).toEqual([['203.0.113.7', '2001:db8::/32', '127.0.0.0/8']]);
  });
});
