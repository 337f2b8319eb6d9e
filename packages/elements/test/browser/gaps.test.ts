/**
 * Issue #6 gaps in Chromium: a table `file` column gets a file input per cell whose files go in
 * the multipart submit as `files[table][row][col][]`, and a signature can be typed instead of
 * drawn. Forms come from a temporary forms dir (a config override): the `uploads` fixture as it
 * is, and a one-page form with a required signature.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeWithChromium } from './support/chromium.js';
import { startBrowserHarness, type BrowserHarness, type TrackedPage } from './support/browser-harness.js';
import { openForm, pageProblems } from './support/form-page.js';
import { describeViolations, isSerious, runAxe } from './support/axe-check.js';
import { storedSubmissions } from './support/stored-rows.js';
import { samplePdf } from './support/sample-files.js';

const WAIT = { timeout: 10_000, interval: 50 };
const TEST_TIMEOUT = 40_000;
const UPLOADS_YAML = resolve(import.meta.dirname, '../../../server/test/fixtures/file-forms/uploads.yaml');
const SIGN_YAML = `name: Sign
settings:
  spam: { honeypot: false, javascriptTest: false }
fields:
  - { type: text, handle: name, label: Name }
  - { type: signature, handle: signature, label: Signature, required: true, width: 400, height: 100 }
`;

describeWithChromium('issue #6 gaps in Chromium', () => {
  let harness: BrowserHarness;
  let formsDir: string;
  const newPage = (): Promise<TrackedPage> => harness.newPage();

  beforeAll(async () => {
    formsDir = mkdtempSync(join(tmpdir(), 'svc-gaps-forms-'));
    copyFileSync(UPLOADS_YAML, join(formsDir, 'uploads.yaml'));
    writeFileSync(join(formsDir, 'sign.yaml'), SIGN_YAML);
    const access = { exposeManifest: true, allowSubmit: true };
    harness = await startBrowserHarness({ forms: { dir: formsDir, watch: false }, headless: { forms: { uploads: access, sign: access } } });
  });
  afterEach(async () => {
    await harness?.closePages();
  });
  afterAll(async () => {
    await harness?.close();
    if (formsDir) rmSync(formsDir, { recursive: true, force: true });
  });

  it('a table file cell takes a PDF that is stored on refs, column 1; the form is axe-clean', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newPage();
    const form = await openForm(tracked, harness.formUrl('uploads'), 'uploads');
    const cell = form.locator('input[type=file][aria-label="Letter, row 1"]');
    expect(await cell.getAttribute('accept')).toBe('.pdf,application/pdf');
    expect(await cell.getAttribute('multiple')).not.toBeNull(); // fileCount: 2

    const serious = (await runAxe(tracked.page, 'svc-form[handle="uploads"]')).filter(isSerious);
    expect(serious, `axe-core on uploads:\n${describeViolations(serious)}`).toEqual([]);

    await form.locator('#svc-name').fill('Table Tess');
    await form.locator('input[aria-label="Who, row 1"]').fill('Bob');
    await cell.setInputFiles({ name: 'letter.pdf', mimeType: 'application/pdf', buffer: samplePdf('Reference') });
    await form.locator('button[part=submit]').click();
    await expect.poll(() => form.locator('[part=success]').count(), WAIT).toBe(1);

    const stored = (await storedSubmissions(harness.svc, 'uploads')).find((s) => s.values.name === 'Table Tess');
    expect(stored, `no uploads submission stored${pageProblems(tracked)}`).toBeDefined();
    const files = await harness.svc.context.database.db.selectFrom('svc_files').selectAll().where('submission_id', '=', stored!.id).execute();
    expect(files).toEqual([expect.objectContaining({ field_handle: 'refs', column_index: 1, name: 'letter.pdf', kind: 'pdf' })]);
    expect(stored!.values.refs).toEqual([['Bob', [files[0]!.public_id]]]);
  });

  it('a signature typed in "Type your name to sign" is drawn and stored as a PNG; clearing the text clears it', { timeout: TEST_TIMEOUT }, async () => {
    const tracked = await newPage();
    const form = await openForm(tracked, harness.formUrl('sign'), 'sign');
    const serious = (await runAxe(tracked.page, 'svc-form[handle="sign"]')).filter(isSerious);
    expect(serious, `axe-core on sign:\n${describeViolations(serious)}`).toEqual([]);

    const typed = form.getByLabel('Type your name to sign');
    const value = () => form.evaluate((element) => (element as HTMLElement & { session: { values: Record<string, unknown> } }).session.values.signature);
    await typed.fill('Ada Lovelace');
    expect(await value()).toMatch(/^data:image\/png;base64,/);
    await typed.fill('');
    expect(await value()).toBe('');

    await form.locator('#svc-name').fill('Signer');
    await typed.focus();
    await tracked.page.keyboard.type('Ada Lovelace');
    await tracked.page.keyboard.press('Enter');
    await expect.poll(() => form.locator('[part=success]').count(), WAIT).toBe(1);
    const stored = (await storedSubmissions(harness.svc, 'sign')).find((s) => s.values.name === 'Signer');
    expect(stored, `no sign submission stored${pageProblems(tracked)}`).toBeDefined();
    expect(String(stored!.values.signature)).toMatch(/^data:image\/png;base64,/);
  });
});
