/** Captcha verification against real HTTP verify servers on loopback, one per provider (issue #4). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { countSubmissions } from '../src/submissions/submission-repository.js';
import { createTestApp, type TestApp } from './support/test-app.js';

interface VerifyCall {
  readonly path: string;
  readonly params: Record<string, string>;
}

/** A verify endpoint: answers per response token, records what it was sent. */
async function startVerifyServer(): Promise<{ url: (path: string) => string; calls: VerifyCall[]; close: () => Promise<void> }> {
  const calls: VerifyCall[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(body));
      calls.push({ path: req.url ?? '', params });
      if (req.url === '/hang') return; // never answers: the verifier must time out
      if (req.url === '/broken') {
        res.writeHead(500).end('oops');
        return;
      }
      const token = params.response ?? '';
      const answer =
        token === 'good' ? { success: true, score: 0.9, action: 'submit' }
        : token === 'low-score' ? { success: true, score: 0.1, action: 'submit' }
        : token === 'wrong-action' ? { success: true, score: 0.9, action: 'login' }
        : { success: false, 'error-codes': ['invalid-input-response'] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    calls,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const PROVIDERS = [
  ['turnstile', 'cf-turnstile-response'],
  ['hcaptcha', 'h-captcha-response'],
  ['recaptchaV2', 'g-recaptcha-response'],
  ['recaptchaV3', 'g-recaptcha-response'],
] as const;

const VALUES = { firstName: 'Ann', email: 'ann@example.test' };
/** `signup` enables a captcha without naming a provider; `contact` names Turnstile. */
const FORMS = resolve(import.meta.dirname, 'fixtures/captcha-forms');
const HEADLESS = { forms: { signup: { exposeManifest: true, allowSubmit: true }, contact: { exposeManifest: true, allowSubmit: true } } };

const SCRIPT_URLS = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
  hcaptcha: 'https://js.hcaptcha.com/1/api.js?render=explicit',
  recaptchaV2: 'https://www.google.com/recaptcha/api.js?render=explicit',
  recaptchaV3: 'https://www.google.com/recaptcha/api.js?render=site-recaptchaV3',
} as const;

describe('captchas', () => {
  let verify: Awaited<ReturnType<typeof startVerifyServer>>;
  const apps = new Map<string, TestApp>();

  async function appFor(provider: string, path = '/verify', extra: Record<string, unknown> = {}): Promise<TestApp> {
    const id = `${provider}${path}`;
    let svc = apps.get(id);
    if (!svc) {
      svc = await createTestApp({
        config: {
          forms: { dir: FORMS, watch: false },
          headless: HEADLESS,
          captcha: { provider, timeoutMs: 300, [provider]: { siteKey: `site-${provider}`, secretKey: `secret-${provider}`, verifyUrl: verify.url(path), ...extra } },
        },
      });
      apps.set(id, svc);
    }
    return svc;
  }

  beforeAll(async () => {
    verify = await startVerifyServer();
  });
  afterAll(async () => {
    for (const svc of apps.values()) await svc.close();
    await verify.close();
  });

  it('lists no captcha in the manifest and requires none while the provider has no keys', async () => {
    const svc = await createTestApp({ config: { forms: { watch: false } } });
    try {
      expect((await svc.manifest('contact')).security.captchas).toEqual([]);
      expect((await svc.submit('contact', { intent: 'submit', values: VALUES })).json().status).toBe('submitted');
    } finally {
      await svc.close();
    }
  });

  it.each(PROVIDERS)('%s: lists the captcha in the manifest with its response field name, site key and script', async (provider, name) => {
    const svc = await appFor(provider);
    const res = await svc.app.inject({ method: 'GET', url: '/svc/api/forms/signup/manifest' });
    const v3 = provider === 'recaptchaV3' ? { action: 'submit' } : {};
    // Freeform's shape (contract §12): reCAPTCHA is one provider with a version.
    const shape =
      provider === 'recaptchaV2' ? { provider: 'recaptcha', version: 'v2-checkbox' }
      : provider === 'recaptchaV3' ? { provider: 'recaptcha', version: 'v3' }
      : { provider, version: null };
    expect(res.json().data.security.captchas).toEqual([
      { ...shape, name, siteKey: `site-${provider}`, scriptUrl: SCRIPT_URLS[provider], ...v3, enabled: true, handle: 'captcha' },
    ]);
  });

  it('lists a configured scriptUrl, filling in {siteKey}', async () => {
    const svc = await appFor('recaptchaV3', '/verify-script', { scriptUrl: 'http://127.0.0.1:1/api.js?key={siteKey}', action: null });
    const res = await svc.app.inject({ method: 'GET', url: '/svc/api/forms/signup/manifest' });
    expect(res.json().data.security.captchas[0]).toMatchObject({ scriptUrl: 'http://127.0.0.1:1/api.js?key=site-recaptchaV3', action: null });
  });

  it.each(PROVIDERS)('%s: accepts a response the provider verifies, sending the secret, response and client IP', async (provider, name) => {
    const svc = await appFor(provider);
    const before = verify.calls.length;
    const res = await svc.submit('signup', { intent: 'submit', values: VALUES, meta: { captchas: [{ name, value: 'good' }] } });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('submitted');
    expect(verify.calls.slice(before)).toEqual([{ path: '/verify', params: { secret: `secret-${provider}`, response: 'good', remoteip: '127.0.0.1' } }]);
  });

  it.each(PROVIDERS)('%s: answers 422 captcha_failed for a rejected or missing response and stores nothing', async (provider, name) => {
    const svc = await appFor(provider);
    const formId = svc.context.forms.get('signup')?.id ?? -1;
    const before = await countSubmissions(svc.context.database.db, formId);
    const rejected = await svc.submit('signup', { intent: 'submit', values: VALUES, meta: { captchas: [{ name, value: 'bad' }] } });
    expect(rejected.statusCode).toBe(422);
    expect(rejected.json()).toMatchObject({ success: false, status: 'captcha_failed', errors: { form: [expect.stringMatching(/captcha/)] } });
    const missing = await svc.submit('signup', { intent: 'submit', values: VALUES });
    expect(missing.json().status).toBe('captcha_failed');
    const wrongName = await svc.submit('signup', { intent: 'submit', values: VALUES, meta: { captchas: [{ name: 'other', value: 'good' }] } });
    expect(wrongName.json().status).toBe('captcha_failed');
    expect(await countSubmissions(svc.context.database.db, formId)).toBe(before);
  });

  it.each([
    ['a score below the threshold', 'low-score'],
    ['another action', 'wrong-action'],
  ])('recaptchaV3: refuses %s', async (_label, token) => {
    const svc = await appFor('recaptchaV3');
    const res = await svc.submit('signup', { intent: 'submit', values: VALUES, meta: { captchas: [{ name: 'g-recaptcha-response', value: token }] } });
    expect(res.json().status).toBe('captcha_failed');
  });

  it('accepts meta.captcha (one response) as well as meta.captchas', async () => {
    const svc = await appFor('turnstile');
    const res = await svc.submit('contact', { intent: 'submit', values: VALUES, meta: { captcha: { name: 'cf-turnstile-response', value: 'good' } } });
    expect(res.json().status).toBe('submitted');
  });

  it.each([
    ['answers 500', '/broken'],
    ['never answers (timeout)', '/hang'],
  ])('fails closed with a clear form error when the provider %s', async (_label, path) => {
    const svc = await appFor('turnstile', path);
    const res = await svc.submit('contact', { intent: 'submit', values: VALUES, meta: { captchas: [{ name: 'cf-turnstile-response', value: 'good' }] } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ status: 'captcha_failed', errors: { form: ['The captcha could not be verified right now; please try again.'] } });
  });

  it('fails closed when the provider cannot be reached at all', async () => {
    const svc = await createTestApp({
      config: {
        forms: { dir: FORMS, watch: false },
        headless: HEADLESS,
        captcha: { turnstile: { siteKey: 's', secretKey: 'k', verifyUrl: 'http://127.0.0.1:1/siteverify' } },
      },
    });
    try {
      const res = await svc.submit('contact', { intent: 'submit', values: VALUES, meta: { captchas: [{ name: 'cf-turnstile-response', value: 'good' }] } });
      expect(res.json().status).toBe('captcha_failed');
    } finally {
      await svc.close();
    }
  });

  it('verifies the GraphQL captcha argument, and reports the active captcha on the form', async () => {
    const svc = await appFor('turnstile');
    const { token, cookie } = await svc.csrf();
    const { security } = await svc.manifest('contact');
    const honeypot = security.honeypot?.name;
    // The same spam signals as REST (issue #11), so only the captcha decides.
    const js = security.javascriptTest ? `javascriptTest: {name: "${security.javascriptTest.name}", value: "${security.javascriptTest.value}"},` : '';
    const mutate = (value: string) =>
      svc.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', cookie },
        payload: JSON.stringify({
          query: `mutation($t: String!, $c: String!) { save_contact_Submission(firstName: "Ann", email: "ann@example.test",
            honeypot: {name: "${honeypot}", value: ""}, ${js} captcha: {name: "cf-turnstile-response", value: $c},
            csrfToken: {name: "SVC_CSRF_TOKEN", value: $t}) { success } }`,
          variables: { t: token, c: value },
        }),
      });
    expect((await mutate('good')).json()).toEqual({ data: { save_contact_Submission: { success: true } } });
    expect((await mutate('bad')).json().errors[0].extensions.code).toBe('CAPTCHA_FAILED');
    const form = await svc.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ query: '{ svc { form(handle: "contact") { captcha { name handle enabled } } } }' }),
    });
    expect(form.json().data.svc.form.captcha).toEqual({ name: 'save_contact_Submission', handle: 'turnstile', enabled: true });
  });
});
