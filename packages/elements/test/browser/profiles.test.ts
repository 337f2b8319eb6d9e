/**
 * `<svc-form>` on named profiles in Chromium (issue #13): a signed-in member (an `auth` callback
 * giving a JWT from a JWKS on loopback) whose email is locked, and a single-use feedback link whose
 * message is locked. Locked fields are read-only on the page, forced by the service anyway, and
 * the page stays axe-clean.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startJwksServer, type JwksServer } from '../../../server/test/support/jwks-server.js';
import { describeWithChromium } from './support/chromium.js';
import { startBrowserHarness, type BrowserHarness } from './support/browser-harness.js';
import { openForm, pageProblems } from './support/form-page.js';
import { describeViolations, isSerious, runAxe } from './support/axe-check.js';
import { storedSubmissions } from './support/stored-rows.js';

const ISSUER = 'https://id.example.test';
const AUDIENCE = 'svc-browser-tests';
const TEST_TIMEOUT = 40_000;
const WAIT = { timeout: 10_000, interval: 50 };

/** A page of the site: the element from the service, and the script the site adds around it. */
function sitePage(serviceOrigin: string, element: string, script = ''): { type: string; body: string } {
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Profile form</title><link rel="icon" href="data:,">
<script type="module" src="${serviceOrigin}/demo/svc-elements.js"></script></head>
<body><main><h1>Your form</h1>${element}</main>${script ? `<script>${script}</script>` : ''}</body></html>`;
  return { type: 'text/html; charset=utf-8', body };
}

describeWithChromium('<svc-form> on named profiles', () => {
  let harness: BrowserHarness;
  let jwks: JwksServer;
  const assets: Record<string, { type: string; body: string }> = {};

  beforeAll(async () => {
    jwks = await startJwksServer();
    harness = await startBrowserHarness(
      {
        headless: {
          profiles: {
            member: {
              form: 'contact',
              requiresAuth: true,
              context: { lockedFields: { email: '{{ user.email }}' }, defaultValues: { firstName: '{{ user.given_name }}' } },
            },
            feedback: {
              form: 'contact',
              requiresSignedToken: true,
              singleUse: true,
              properties: { eventId: { type: 'integer', required: true } },
              context: { lockedFields: { message: 'Feedback on event {{ properties.eventId }}' } },
            },
          },
        },
        auth: { issuers: [{ issuer: ISSUER, audience: AUDIENCE, jwksUrl: jwks.url }], jwksCooldownSeconds: 0 },
      },
      assets,
    );
  });
  afterEach(async () => {
    await harness?.closePages();
  });
  afterAll(async () => {
    await harness?.close();
    await jwks?.close();
  });

  it('a signed-in member: the email from the login is read-only, the submit carries the bearer token, and the stored email is the login one', { timeout: TEST_TIMEOUT }, async () => {
    const token = await jwks.sign({ iss: ISSUER, aud: AUDIENCE, sub: 'kim', email: 'kim@example.test', given_name: 'Kim' });
    // The site sets the callback before the element loads, as a page with its own login would.
    assets['/member'] = sitePage(
      harness.serviceOrigin,
      `<svc-form base-url="${harness.serviceOrigin}" profile="member"></svc-form>`,
      `document.querySelector('svc-form').auth = () => ${JSON.stringify(token)};`,
    );
    const tracked = await harness.newPage();
    const form = await openForm(tracked, `${harness.pageOrigin}/member`, 'contact', 'svc-form[profile="member"]');
    const email = form.locator('#svc-email');
    expect(await email.inputValue()).toBe('kim@example.test');
    expect(await email.evaluate((input) => (input as HTMLInputElement).readOnly)).toBe(true);
    expect(await form.locator('[data-field="email"]').getAttribute('data-locked')).toBe('');
    expect(await form.locator('#svc-email-instructions').textContent()).toContain('cannot be changed');
    expect(await form.locator('#svc-firstName').inputValue()).toBe('Kim');

    // Typing into the locked field changes nothing.
    await email.press('End');
    await email.pressSequentially('x');
    expect(await email.inputValue()).toBe('kim@example.test');

    const serious = (await runAxe(tracked.page, 'svc-form[profile="member"]')).filter(isSerious);
    expect(serious, `axe-core on the member form:\n${describeViolations(serious)}`).toEqual([]);

    await form.locator('#svc-lastName').fill('Lee');
    await form.locator('#svc-message').fill('Renewing for another year.');
    const before = (await storedSubmissions(harness.svc, 'contact')).length;
    await form.locator('button[part=submit]').click();
    await expect.poll(async () => (await tracked.events()).some((e) => e.type === 'svc:submitted'), WAIT).toBe(true);
    const submit = tracked.requests.find((r) => r.method === 'POST' && r.url.endsWith('/svc/api/manifests/member/submit'));
    expect(submit?.headers['authorization']).toBe(`Bearer ${token}`);
    const stored = await storedSubmissions(harness.svc, 'contact');
    expect(stored.length).toBe(before + 1);
    expect(stored.at(-1)!.values).toMatchObject({ email: 'kim@example.test', firstName: 'Kim', lastName: 'Lee' });
    expect(tracked.problems, pageProblems(tracked)).toEqual([]);
  });

  it('a single-use feedback link: the message is locked, the token and property travel with the form, and the link is spent by the submit', { timeout: TEST_TIMEOUT }, async () => {
    const token = await harness.svc.context.profiles.links.sign({ profile: 'feedback', properties: { eventId: 42 }, ttlSeconds: 3600, singleUse: true });
    assets['/feedback'] = sitePage(
      harness.serviceOrigin,
      `<svc-form base-url="${harness.serviceOrigin}" profile="feedback" properties='{"eventId": 42}' token="${token}"></svc-form>`,
    );
    const tracked = await harness.newPage();
    const form = await openForm(tracked, `${harness.pageOrigin}/feedback`, 'contact', 'svc-form[profile="feedback"]');
    const message = form.locator('#svc-message');
    expect(await message.inputValue()).toBe('Feedback on event 42');
    expect(await message.evaluate((area) => (area as HTMLTextAreaElement).readOnly)).toBe(true);
    const serious = (await runAxe(tracked.page, 'svc-form[profile="feedback"]')).filter(isSerious);
    expect(serious, `axe-core on the feedback form:\n${describeViolations(serious)}`).toEqual([]);

    await form.locator('#svc-firstName').fill('Ann');
    await form.locator('#svc-lastName').fill('Lee');
    await form.locator('#svc-email').fill('ann@example.test');
    await form.locator('button[part=submit]').click();
    await expect.poll(async () => (await tracked.events()).some((e) => e.type === 'svc:submitted'), WAIT).toBe(true);
    const stored = (await storedSubmissions(harness.svc, 'contact')).at(-1)!;
    expect(stored.values).toMatchObject({ email: 'ann@example.test', message: 'Feedback on event 42' });

    // The link is spent: opening it again shows why, instead of a form.
    const again = await harness.newPage();
    await again.page.goto(`${harness.pageOrigin}/feedback`);
    await expect.poll(async () => (await again.page.locator('svc-form [part=form-errors]').textContent().catch(() => '')) ?? '', WAIT).toContain('already been used');
  });
});
