/**
 * `<svc-form>` in Debian's Chromium, on a page served from another origin than the service
 * (issue #6, "Proof in a browser"): CORS and the credentialed CSRF cookie are exercised for real,
 * and every check ends in what the service stored.
 */
import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { describeWithChromium } from './support/chromium.js';
import { useBrowserHarness, type RecordedEvent, type RecordedRequest, type TrackedPage } from './support/browser-harness.js';
import { openForm, pageProblems, visible, text } from './support/form-page.js';
import { draftCount, storedFiles, storedSubmissions, storedSubmissionWith } from './support/stored-rows.js';
import { samplePdf, samplePng } from './support/sample-files.js';

const WAIT = { timeout: 10_000, interval: 50 };
const TEST_TIMEOUT = 40_000;

/** The id of the focused element inside the form's shadow root. */
function focusedId(page: Page, handle: string): Promise<string | null> {
  return page.evaluate((h) => document.querySelector(`svc-form[handle="${h}"]`)?.shadowRoot?.activeElement?.id ?? null, handle);
}

function isHidden(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element.hasAttribute('hidden'));
}

/** The POSTs the page sent to the form's submit route. */
function submitRequests(tracked: TrackedPage, handle: string): RecordedRequest[] {
  return tracked.requests.filter((r) => r.method === 'POST' && new URL(r.url).pathname === `/svc/api/forms/${handle}/submit`);
}

/** A string property `name` anywhere in an event detail (`{ draft: { token } }`, `{ token }`, …). */
function findString(value: unknown, name: string): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const own = (value as Record<string, unknown>)[name];
  if (typeof own === 'string' && own !== '') return own;
  for (const child of Object.values(value)) {
    const found = findString(child, name);
    if (found) return found;
  }
  return undefined;
}

describeWithChromium('<svc-form> in Chromium', () => {
  const harness = useBrowserHarness();
  const newPage = (): Promise<TrackedPage> => harness.newPage();

  it('serves the page from another origin than the service, and a credentialed CSRF round trip works from it', async () => {
    expect(harness.pageOrigin).not.toBe(harness.serviceOrigin);
    const tracked = await newPage();
    await tracked.page.goto(harness.formUrl('contact'));
    const result = await tracked.page.evaluate(async (base) => {
      const manifest = await (await fetch(`${base}/svc/api/forms/contact/manifest`, { credentials: 'include' })).json();
      const tokens = await (await fetch(`${base}/svc/tokens`, { credentials: 'include' })).json();
      const security = manifest.data.security;
      const meta: Record<string, unknown> = {};
      if (security.honeypot) meta.honeypot = { ...security.honeypot, value: '' };
      if (security.javascriptTest) meta.javascriptTest = security.javascriptTest;
      const send = (credentials: RequestCredentials) =>
        fetch(`${base}/svc/api/forms/contact/submit`, {
          method: 'POST',
          credentials,
          headers: { 'content-type': 'application/json', 'x-csrf-token': tokens.csrf.value },
          body: JSON.stringify({ intent: 'submit', values: { firstName: 'Cross', email: 'cross@example.test' }, meta }),
        });
      // Without the cookie the token is bound to nothing: the cookie is what makes it pass.
      const anonymous = await send('omit');
      const submit = await send('include');
      return { anonymous: { status: anonymous.status, body: await anonymous.json() }, status: submit.status, body: await submit.json() };
    }, harness.serviceOrigin);
    expect(result.anonymous.status).toBe(400);
    expect(JSON.stringify(result.anonymous.body)).toMatch(/CSRF/);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({ success: true, status: 'submitted' });
  });

  it('fills and submits contact: the success message is shown and the submission is stored', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newPage();
    const form = await openForm(tracked, harness.formUrl('contact'), 'contact');
    await form.locator('#svc-firstName').fill('Ada');
    await form.locator('#svc-lastName').fill('Lovelace');
    await form.locator('#svc-email').fill('ada@example.test');
    await form.locator('#svc-message').fill('Hello from another origin.');
    const submit = visible(form, 'button[part=submit]');
    expect(await text(submit)).toBe('Send');
    await submit.click();

    await expect.poll(() => text(form.locator('[part=success]')), WAIT).toContain('Thanks, we got your message.');
    const stored = await storedSubmissionWith(harness.svc, 'contact', 'email', 'ada@example.test');
    expect(stored, `no contact submission stored${pageProblems(tracked)}`).toBeDefined();
    expect(stored?.values).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.test', message: 'Hello from another origin.' });
    // The honeypot and the javascript test were filled as a browser would: not taken for spam.
    expect(stored?.isSpam).toBe(false);
    const events = await tracked.events();
    expect(events.map((e) => e.type)).toContain('svc:submitted');
    // It went cross-origin, as JSON, with the CSRF header (the cookie is httpOnly: not visible here).
    // Headers are read asynchronously from the network events; wait for them to be recorded.
    await expect.poll(() => submitRequests(tracked, 'contact').length, WAIT).toBeGreaterThan(0);
    const submits = submitRequests(tracked, 'contact');
    expect(submits[0]?.headers).toMatchObject({ origin: harness.pageOrigin, 'content-type': expect.stringMatching(/^application\/json/) });
    expect(submits[0]?.headers['x-csrf-token']).toBeTruthy();
  });

  it('shows required-field errors accessibly, moves focus to the first, and submits once they are fixed', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newPage();
    const form = await openForm(tracked, harness.formUrl('contact'), 'contact');
    const before = (await storedSubmissions(harness.svc, 'contact')).length;
    await form.locator('#svc-lastName').fill('Hopper');
    await visible(form, 'button[part=submit]').click();

    const firstName = form.locator('#svc-firstName');
    await expect.poll(() => firstName.getAttribute('aria-invalid'), WAIT).toBe('true');
    expect((await firstName.getAttribute('aria-describedby'))?.split(/\s+/)).toContain('svc-firstName-errors');
    const errors = form.locator('ul#svc-firstName-errors[part=errors]');
    expect(await text(errors)).not.toBe('');
    expect(await errors.locator('li').count()).toBeGreaterThan(0);
    // Email is required too, and also marked; the field filled in is not.
    expect(await form.locator('#svc-email').getAttribute('aria-invalid')).toBe('true');
    expect((await form.locator('#svc-email').getAttribute('aria-describedby'))?.split(/\s+/)).toContain('svc-email-errors');
    expect(await form.locator('#svc-lastName').getAttribute('aria-invalid')).not.toBe('true');
    await expect.poll(() => focusedId(tracked.page, 'contact'), WAIT).toBe('svc-firstName');
    expect(await form.locator('[part=success]').count()).toBe(0);
    expect((await storedSubmissions(harness.svc, 'contact')).length).toBe(before);

    await firstName.fill('Grace');
    await form.locator('#svc-email').fill('grace@example.test');
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('[part=success]')), WAIT).toContain('Thanks, we got your message.');
    const stored = await storedSubmissionWith(harness.svc, 'contact', 'email', 'grace@example.test');
    expect(stored?.values, pageProblems(tracked)).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
  });

  it('runs application through every page; the company page appears only for companies and goes again when switched back', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newPage();
    const form = await openForm(tracked, harness.formUrl('application'), 'application');
    const progress = form.locator('[part=progress]');
    const next = visible(form, 'button[part=submit]');

    await expect.poll(() => text(progress), WAIT).toBe('Page 1 of 2');
    await form.locator('#svc-fullName').fill('Alan Turing');
    await form.locator('#svc-email').fill('alan@example.test');
    // A field rule, live: "Where did you hear about us?" only while heardFrom is "other".
    const heardFromOther = form.locator('[data-field=heardFromOther]');
    expect(await isHidden(heardFromOther)).toBe(true);
    await form.locator('#svc-heardFrom').selectOption('other');
    await expect.poll(() => isHidden(heardFromOther), WAIT).toBe(false);
    await form.locator('#svc-heardFrom').selectOption('friend');
    await expect.poll(() => isHidden(heardFromOther), WAIT).toBe(true);

    // A page rule, live: the company page counts only while applicantType is "company".
    const applicantType = (value: string) => form.locator(`[data-field=applicantType] input[value="${value}"]`);
    await applicantType('company').check();
    await expect.poll(() => text(progress), WAIT).toBe('Page 1 of 3');
    await applicantType('individual').check();
    await expect.poll(() => text(progress), WAIT).toBe('Page 1 of 2');

    // As an individual, Next skips the company page.
    expect(await text(next)).toBe('Next');
    await next.click();
    await expect.poll(() => text(progress), WAIT).toBe('Page 2 of 2');
    expect(await form.locator('#svc-companyName').isVisible()).toBe(false);
    expect(await form.locator('#svc-age').isVisible()).toBe(true);
    await visible(form, 'button[part=back]').click();
    await expect.poll(() => text(progress), WAIT).toBe('Page 1 of 2');

    // As a company, it is there, between the first page and the details.
    await applicantType('company').check();
    await expect.poll(() => text(progress), WAIT).toBe('Page 1 of 3');
    await next.click();
    await expect.poll(() => text(progress), WAIT).toBe('Page 2 of 3');
    await form.locator('#svc-companyName').fill('Bletchley Ltd');
    await form.locator('#svc-vatNumber').fill('GB123456789');
    await next.click();
    await expect.poll(() => text(progress), WAIT).toBe('Page 3 of 3');
    await form.locator('#svc-age').fill('41');
    await form.locator('#svc-phone').fill('+1 555 123 4567');
    await form.locator('#svc-startDate').fill('2026-03-01');
    await form.locator('#svc-agree').check();
    const apply = visible(form, 'button[part=submit]');
    expect(await text(apply)).toBe('Apply');
    await apply.click();

    await expect.poll(() => form.locator('[part=success]').count(), WAIT).toBeGreaterThan(0);
    const stored = await storedSubmissionWith(harness.svc, 'application', 'email', 'alan@example.test');
    expect(stored, `no application stored${pageProblems(tracked)}`).toBeDefined();
    expect(stored?.values).toMatchObject({
      fullName: 'Alan Turing',
      applicantType: 'company',
      heardFrom: 'friend',
      companyName: 'Bletchley Ltd',
      vatNumber: 'GB123456789',
      agree: 'yes',
    });
    expect(stored?.values.heardFromOther ?? null).toBeNull();
    const pages = (await tracked.events()).filter((e) => e.type === 'svc:page');
    expect(pages.length).toBeGreaterThanOrEqual(4);
  });

  it('saves an application draft, resumes it on a reloaded page with values and page kept, and finishes it', { timeout: TEST_TIMEOUT }, async () => {
    const drafts = await draftCount(harness.svc);
    const first = await newPage();
    let form = await openForm(first, harness.formUrl('application', { allowSave: true }), 'application');
    await form.locator('#svc-fullName').fill('Katherine Johnson');
    await form.locator('#svc-email').fill('katherine@example.test');
    await form.locator('[data-field=applicantType] input[value="company"]').check();
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('[part=progress]')), WAIT).toBe('Page 2 of 3');
    await form.locator('#svc-companyName').fill('Langley Research');
    await visible(form, 'button[part=save]').click();

    const draftBox = form.locator('[part=draft]');
    await expect.poll(() => draftBox.count(), WAIT).toBeGreaterThan(0);
    expect(await draftCount(harness.svc)).toBe(drafts + 1);
    const link = draftBox.locator('a[href]').first();
    const href = (await link.count()) > 0 ? await link.getAttribute('href') : null;
    const fromLink = href ? new URL(href, first.page.url()).searchParams : new URLSearchParams();
    const detail = (await first.events()).filter((e: RecordedEvent) => e.type === 'svc:draft').at(-1)?.detail;
    const token = fromLink.get('token') ?? findString(detail, 'token');
    const key = fromLink.get('key') ?? findString(detail, 'key');
    expect(token, `no draft token in the resume link (${href}) or svc:draft detail (${JSON.stringify(detail)})`).toBeTruthy();
    expect(key, `no draft key in the resume link (${href}) or svc:draft detail (${JSON.stringify(detail)})`).toBeTruthy();

    // A new browser context: nothing carried over but the token and key.
    const second = await newPage();
    form = await openForm(second, harness.formUrl('application', { allowSave: true, token, key }), 'application');
    await expect.poll(() => text(form.locator('[part=progress]')), WAIT).toBe('Page 2 of 3');
    expect(await form.locator('#svc-companyName').inputValue()).toBe('Langley Research');
    await visible(form, 'button[part=back]').click();
    await expect.poll(() => text(form.locator('[part=progress]')), WAIT).toBe('Page 1 of 3');
    expect(await form.locator('#svc-fullName').inputValue()).toBe('Katherine Johnson');
    expect(await form.locator('#svc-email').inputValue()).toBe('katherine@example.test');
    expect(await form.locator('[data-field=applicantType] input[value="company"]').isChecked()).toBe(true);

    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('[part=progress]')), WAIT).toBe('Page 2 of 3');
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => text(form.locator('[part=progress]')), WAIT).toBe('Page 3 of 3');
    await form.locator('#svc-agree').check();
    await visible(form, 'button[part=submit]').click();
    await expect.poll(() => form.locator('[part=success]').count(), WAIT).toBeGreaterThan(0);

    const stored = await storedSubmissionWith(harness.svc, 'application', 'email', 'katherine@example.test');
    expect(stored?.values, `no resumed application stored${pageProblems(second)}`).toMatchObject({
      fullName: 'Katherine Johnson',
      applicantType: 'company',
      companyName: 'Langley Research',
      agree: 'yes',
    });
    // The finished submit carried the draft, so the service let it go.
    expect(await draftCount(harness.svc)).toBe(drafts);
  });

  it('uploads a PDF CV and a PNG portfolio image on job-application and stores them with the submission', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newPage();
    const form = await openForm(tracked, harness.formUrl('job-application'), 'job-application');
    const cv = samplePdf();
    const image = samplePng();
    await form.locator('#svc-role').selectOption('Backend engineer');
    const cvInput = form.locator('[data-field=cv] [part=dropzone] input[type=file]');
    const portfolioInput = form.locator('[data-field=portfolio] [part=dropzone] input[type=file]');
    expect(await cvInput.count()).toBe(1);
    expect(await portfolioInput.count()).toBe(1);
    await cvInput.setInputFiles({ name: 'cv.pdf', mimeType: 'application/pdf', buffer: cv });
    await portfolioInput.setInputFiles({ name: 'sketch.png', mimeType: 'image/png', buffer: image });
    await visible(form, 'button[part=submit]').click();
    await form.locator('#svc-fullName').waitFor({ state: 'visible', timeout: WAIT.timeout });
    await form.locator('#svc-fullName').fill('Margaret Hamilton');
    await form.locator('#svc-email').fill('margaret@example.test');
    await form.locator('#svc-coverLetter').fill('I wrote the flight software.');
    const send = visible(form, 'button[part=submit]');
    expect(await text(send)).toBe('Send application');
    await send.click();

    await expect.poll(() => text(form.locator('[part=success]')), WAIT).toContain('Thanks for applying');
    // The picked files went as multipart with the submit of their page (the later page's submit
    // is JSON: the files already belong to the submission state).
    const types = () => submitRequests(tracked, 'job-application').map((r) => r.headers['content-type'] ?? '');
    await expect.poll(() => types().join(', '), WAIT).toMatch(/(^|, )multipart\/form-data; boundary=/);
    const stored = await storedSubmissionWith(harness.svc, 'job-application', 'email', 'margaret@example.test');
    expect(stored, `no job application stored${pageProblems(tracked)}`).toBeDefined();
    expect(stored?.values).toMatchObject({ role: 'Backend engineer', fullName: 'Margaret Hamilton' });
    const files = await storedFiles(harness.svc, stored?.id as number);
    expect(files).toEqual([
      expect.objectContaining({ field_handle: 'cv', name: 'cv.pdf', extension: 'pdf', kind: 'pdf', size: cv.length }),
      expect.objectContaining({ field_handle: 'portfolio', name: 'sketch.png', extension: 'png', kind: 'image', size: image.length }),
    ]);
  });
});
