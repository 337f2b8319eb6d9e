/**
 * Captchas as the official Freeform captcha extensions handle them (contract §12): the widget is
 * chosen by `security.captchas[].provider` (turnstile, hcaptcha, recaptcha with version v2-checkbox
 * or v3), and its token travels in `meta.captchas[]` and `meta.captcha` under the manifest's
 * `name`. One flow per provider against a local verify endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createCookieJarFetch } from '../../client/test/support/cookie-jar-fetch.js';
import { startLiveServer, submissionCount, type LiveServer } from '../../client/test/support/live-server.js';
import { createOfficialClient, inferCaptchaProvider, REACT_CLIENT, REACT_CLIENT_VERSION, type OfficialForm } from './support/official-client.js';

const FORMS = resolve(import.meta.dirname, 'fixtures/captcha-forms');
const PAGE_URL = 'http://localhost:5173/signup';
const VALUES = { firstName: 'Ann', email: 'ann@example.test' };

/** svc's provider setting, what the manifest must say, and the widget the official client mounts. */
const PROVIDERS = [
  { setting: 'turnstile', provider: 'turnstile', version: null, name: 'cf-turnstile-response', skipsValidate: true },
  { setting: 'hcaptcha', provider: 'hcaptcha', version: null, name: 'h-captcha-response', skipsValidate: false },
  { setting: 'recaptchaV2', provider: 'recaptcha', version: 'v2-checkbox', name: 'g-recaptcha-response', skipsValidate: true },
  { setting: 'recaptchaV3', provider: 'recaptcha', version: 'v3', name: 'g-recaptcha-response', skipsValidate: true },
] as const;

/** A provider's siteverify: `good` passes (score 0.9, action submit), anything else fails. */
async function startVerifyServer() {
  const responses: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const response = new URLSearchParams(body).get('response') ?? '';
      responses.push(response);
      const answer = response === 'good' ? { success: true, score: 0.9, action: 'submit' } : { success: false, 'error-codes': ['invalid-input-response'] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/siteverify`,
    responses,
    close: () => new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  };
}

let verify: Awaited<ReturnType<typeof startVerifyServer>>;
const servers = new Map<string, LiveServer>();

beforeAll(async () => {
  verify = await startVerifyServer();
  await Promise.all(
    PROVIDERS.map(async ({ setting }) => {
      const live = await startLiveServer({
        config: {
          forms: { dir: FORMS, watch: false },
          headless: { forms: { signup: { exposeManifest: true, allowSubmit: true } } },
          captcha: { provider: setting, timeoutMs: 2000, [setting]: { siteKey: `site-${setting}`, secretKey: `secret-${setting}`, verifyUrl: verify.url } },
        },
      });
      servers.set(setting, live);
    }),
  );
});
afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.close()));
  await verify?.close();
});

async function openSignup(setting: string): Promise<OfficialForm> {
  const live = servers.get(setting)!;
  const client = createOfficialClient({ baseUrl: live.baseUrl, fetch: createCookieJarFetch().fetch, pageUrl: PAGE_URL });
  return (await client.open('signup')).set(VALUES);
}

const lastBody = (form: OfficialForm) => form.client.recorder.matching('POST', '/submit').at(-1)!.json as { intent: string; meta: Record<string, unknown> };

describe.each(PROVIDERS)('official client captcha: $setting', ({ setting, provider, version, name, skipsValidate }) => {
  it(`lists the captcha so the ${provider} extension mounts its widget with the site key`, async () => {
    const form = await openSignup(setting);
    const captchas = form.manifest.security.captchas ?? [];
    expect(captchas).toHaveLength(1);
    expect(captchas[0]).toMatchObject({ provider, version, name, siteKey: `site-${setting}`, enabled: true });
    expect(inferCaptchaProvider(captchas[0]!)).toBe(provider);
  });

  it('sends the solved token in meta.captchas and meta.captcha, and svc verifies that token and stores the submission', async () => {
    const form = await openSignup(setting);
    form.captchaTokens.set(name, 'good');
    const live = servers.get(setting)!;
    const before = await submissionCount(live.svc, 'signup');
    const seen = verify.responses.length;
    const { response, httpStatus } = await form.click('submit');
    expect(lastBody(form).meta).toEqual({
      client: REACT_CLIENT,
      clientVersion: REACT_CLIENT_VERSION,
      captchas: [{ name, value: 'good' }],
      captcha: { name, value: 'good' },
    });
    expect(httpStatus).toBe(200);
    expect(response).toMatchObject({ success: true, status: 'submitted', complete: true });
    expect(verify.responses.slice(seen)).toEqual(['good']);
    expect(await submissionCount(live.svc, 'signup')).toBe(before + 1);
    // After a success every widget is reset: the next submit has no token and never leaves the browser.
    const calls = form.client.recorder.calls.length;
    expect((await form.click('submit')).response.errors.form).toEqual(['Timed out waiting for captcha token.']);
    expect(form.client.recorder.calls.length).toBe(calls);
  });

  it('parses the 422 captcha_failed of a token the provider rejects and shows it as a form error', async () => {
    const form = await openSignup(setting);
    form.captchaTokens.set(name, 'expired');
    const { response, httpStatus } = await form.click('submit');
    expect(httpStatus).toBe(422);
    expect(response).toMatchObject({ success: false, status: 'captcha_failed', complete: false });
    expect(form.state.formErrors).toEqual([expect.stringMatching(/captcha/i)]);
    expect(form.isComplete).toBe(false);
  });

  it(`validates ${skipsValidate ? 'without a token, as the extension sends none on validate' : 'with the token the extension sends on validate too'}`, async () => {
    const form = await openSignup(setting);
    form.captchaTokens.set(name, 'good');
    const { response } = await form.submit('validate');
    expect(lastBody(form).meta).toEqual(
      skipsValidate ? { client: REACT_CLIENT, clientVersion: REACT_CLIENT_VERSION } : expect.objectContaining({ captcha: { name, value: 'good' } }),
    );
    expect(response).toMatchObject({ success: true, status: 'validated', complete: false });
  });
});
