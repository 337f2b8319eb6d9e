/**
 * Files as the official Freeform client sends them (contract §7, §12): a plain file field goes
 * multipart (`_svc`, the CSRF field, `files[<handle>][]`), and the file-dnd extension uploads and
 * deletes drop by drop, then submits the ids without any upload token in the context; svc ties
 * them to the browser that uploaded them.
 */
import { describe, expect, it } from 'vitest';
import { pdfFile, pngFile } from '../../client/test/support/file-bytes.js';
import { submissionCount } from '../../client/test/support/live-server.js';
import { REACT_CLIENT, type OfficialClient, type OfficialForm } from './support/official-client.js';
import { useOfficialServer } from './support/official-client-server.js';
import { mountFileDnd } from './support/official-client-extensions.js';
import type { RecordedCall } from './support/official-client-recorder.js';

const PAGE_URL = 'http://localhost:5173/jobs/apply';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const server = useOfficialServer(PAGE_URL);
const officialBrowser = (): OfficialClient => server.browser();

const submitCalls = (client: OfficialClient) => client.recorder.calls.filter((c) => c.method === 'POST' && c.url.pathname.endsWith('/submit'));

/** The CSRF token the token endpoint answered just before `call`. */
function csrfBefore(client: OfficialClient, call: RecordedCall): string {
  const calls = client.recorder.calls;
  const tokens = calls.slice(0, calls.indexOf(call)).filter((c) => c.url.pathname === '/svc/tokens');
  return (tokens.at(-1)!.answer as { csrf: { value: string } }).csrf.value;
}

async function storedFiles(publicIds: readonly string[]) {
  return server.live.svc.context.database.db
    .selectFrom('svc_files')
    .select(['public_id', 'field_handle', 'submission_id', 'name'])
    .where('public_id', 'in', publicIds)
    .orderBy('id')
    .execute();
}

/** Page 2 of job-application, filled, then the final submit. */
async function finishApplication(form: OfficialForm) {
  form.set({ fullName: 'Ann Lee', email: 'ann@example.test' });
  return form.click('submit');
}

describe('official client: multipart submit of a plain file (job-application cv)', () => {
  it('sends _svc, then the CSRF field, then files[cv][] with only an Accept header, and finishes with the upload id svc handed back', async () => {
    const client = officialBrowser();
    const form = await client.open('job-application');
    expect(form.state.values).toEqual({ cv: [], portfolio: [] });
    form.set({ role: 'Frontend engineer', cv: pdfFile('cv.pdf', 900) });
    const next = await form.click('next');

    const call = submitCalls(client).at(-1)!;
    expect(call.headers).toEqual({ accept: 'application/json' });
    expect(call.credentials).toBe('include');
    expect(call.json).toBeUndefined();
    expect(call.parts?.map((p) => p.name)).toEqual(['_svc', 'SVC_CSRF_TOKEN', 'files[cv][]']);
    const [svcPart, csrfPart, filePart] = call.parts!;
    expect(csrfPart).toEqual({ name: 'SVC_CSRF_TOKEN', value: csrfBefore(client, call) });
    expect(filePart).toEqual({ name: 'files[cv][]', file: { name: 'cv.pdf', type: 'application/pdf', size: 900 } });
    expect(JSON.parse((svcPart as { value: string }).value)).toEqual({
      values: { role: 'Frontend engineer', portfolio: [] },
      intent: 'next',
      context: { sourceUrl: PAGE_URL },
      meta: { client: REACT_CLIENT, clientVersion: '1.1.0', honeypot: { name: form.manifest.security.honeypot!.name, value: '' } },
    });

    expect(next.httpStatus).toBe(200);
    expect(next.response).toMatchObject({ success: true, status: 'page_valid', page: { currentIndex: 1 } });
    // The answer's state.values replaces the File with the stored upload's id, so the final submit is JSON.
    const cvIds = form.state.values.cv as string[];
    expect(cvIds).toEqual([expect.stringMatching(/^[A-Za-z0-9_-]{1,64}$/)]);
    expect(form.buttons()).toEqual({ back: 'Back', submit: 'Send application', save: 'Save and continue later' });

    const before = await submissionCount(server.live.svc, 'job-application');
    const done = await finishApplication(form);
    expect(submitCalls(client).at(-1)!.json).toMatchObject({ intent: 'submit', values: { cv: cvIds } });
    expect(done.response).toMatchObject({ success: true, status: 'submitted', complete: true });
    expect(form.successMessage).toBe('Thanks for applying; we will be in touch within two weeks.');
    expect(await submissionCount(server.live.svc, 'job-application')).toBe(before + 1);
    const submissionId = (done.response.submission as { id: number }).id;
    expect(await storedFiles(cvIds)).toEqual([{ public_id: cvIds[0], field_handle: 'cv', submission_id: submissionId, name: 'cv.pdf' }]);
  });

  it('refuses the next step without the required cv, as a field error the client shows', async () => {
    const form = await officialBrowser().open('job-application');
    form.set({ role: 'Frontend engineer' });
    const { response, httpStatus } = await form.click('next');
    expect(httpStatus).toBe(422);
    expect(response.status).toBe('validation_failed');
    expect(Object.keys(form.state.fieldErrors)).toEqual(['cv']);
    expect(form.state.currentPageIndex).toBe(0);
  });
});

describe('official client: file-dnd upload and delete (job-application portfolio)', () => {
  it('mounts on portfolio, uploads with a UUID token and a fresh CSRF token per request, deletes by multipart, and submits the ids without context.uploadToken', async () => {
    const client = officialBrowser();
    const form = await client.open('job-application');
    const portfolio = form.manifest.fields.portfolio!;
    expect(portfolio.type).toBe('file-dnd');
    expect(portfolio.frontend).toMatchObject({
      renderer: 'file-dnd',
      extension: 'file-dnd',
      config: { uploadUrl: '/svc/api/forms/job-application/files/portfolio', deleteUrl: '/svc/api/forms/job-application/files/portfolio/delete', maxFiles: 3 },
    });
    const dnd = mountFileDnd(form, 'portfolio');
    expect(dnd.token).toMatch(UUID);

    expect(await dnd.upload(pngFile('one.png', 1))).toBe(true);
    const upload = client.recorder.last();
    expect(upload.url.toString()).toBe(`${server.live.baseUrl}/svc/api/forms/job-application/files/portfolio`);
    expect(upload.method).toBe('POST');
    expect(upload.credentials).toBe('include');
    const csrf = csrfBefore(client, upload);
    expect(upload.headers).toEqual({ 'x-svc-upload-token': dnd.token, accept: 'application/json', 'x-csrf-token': csrf });
    expect(upload.parts).toEqual([
      { name: 'portfolio', file: { name: 'one.png', type: 'image/png', size: pngFile('one.png', 1).size } },
      { name: 'uploadToken', value: dnd.token },
      { name: 'SVC_CSRF_TOKEN', value: csrf },
    ]);
    expect(upload.status).toBe(200);
    expect(upload.answer).toMatchObject({ success: true, data: { name: 'one.png', extension: 'png', size: pngFile('one.png', 1).size } });
    expect(dnd.message).toBe('Upload complete!');

    expect(await dnd.upload(pngFile('two.png', 2))).toBe(true);
    const [first, second] = dnd.files;
    expect(form.state.values.portfolio).toEqual([first!.id, second!.id]);
    const tokenCalls = client.recorder.calls.filter((c) => c.url.pathname === '/svc/tokens');
    expect(tokenCalls).toHaveLength(2);

    expect(await dnd.remove(first!.id)).toBe(true);
    const remove = client.recorder.last();
    expect(remove.url.pathname).toBe('/svc/api/forms/job-application/files/portfolio/delete');
    expect(remove.headers).toEqual({ 'x-svc-upload-token': dnd.token, accept: 'application/json', 'x-csrf-token': csrfBefore(client, remove) });
    expect(remove.parts).toEqual([
      { name: 'id', value: first!.id },
      { name: 'uploadToken', value: dnd.token },
      { name: 'SVC_CSRF_TOKEN', value: csrfBefore(client, remove) },
    ]);
    expect(remove.status).toBe(200);
    expect(form.state.values.portfolio).toEqual([second!.id]);
    expect(await storedFiles([first!.id])).toEqual([]);

    form.set({ role: 'Product designer', cv: pdfFile() });
    await form.click('next');
    const sent = JSON.parse((submitCalls(client).at(-1)!.parts![0] as { value: string }).value) as { values: unknown; context: Record<string, unknown> };
    expect(sent.values).toEqual({ role: 'Product designer', portfolio: [second!.id] });
    expect(sent.context).toEqual({ sourceUrl: PAGE_URL });
    const done = await finishApplication(form);
    expect(submitCalls(client).at(-1)!.json).not.toHaveProperty('context.uploadToken');
    expect(done.response).toMatchObject({ status: 'submitted', complete: true });
    const submissionId = (done.response.submission as { id: number }).id;
    expect(await storedFiles([second!.id])).toEqual([{ public_id: second!.id, field_handle: 'portfolio', submission_id: submissionId, name: 'two.png' }]);
  });

  it('uploads with the ff-<ms>-<base36> token a page without crypto.randomUUID makes, and the submit claims the file', async () => {
    const client = officialBrowser();
    const form = await client.open('job-application');
    const dnd = mountFileDnd(form, 'portfolio', { secureContext: false });
    expect(dnd.token).toMatch(/^ff-\d{13}-[0-9a-z]+$/);
    expect(await dnd.upload(pngFile('plain-http.png', 7))).toBe(true);
    expect(client.recorder.last().headers['x-svc-upload-token']).toBe(dnd.token);
    form.set({ role: 'Backend engineer', cv: pdfFile() });
    expect((await form.click('next')).response.status).toBe('page_valid');
    const done = await finishApplication(form);
    expect(done.response.status).toBe('submitted');
    const [stored] = await storedFiles([dnd.files[0]!.id]);
    expect(stored?.submission_id).toBe((done.response.submission as { id: number }).id);
  });

  it('shows errors[0] of a refused upload as text and leaves the value alone', async () => {
    const client = officialBrowser();
    const form = await client.open('job-application');
    const dnd = mountFileDnd(form, 'portfolio');
    expect(await dnd.upload(pdfFile('not-an-image.pdf'))).toBe(false);
    expect(client.recorder.last().status).toBe(400);
    expect((client.recorder.last().answer as { errors: unknown[] }).errors[0]).toEqual(expect.any(String));
    expect(dnd.message).toMatch(/not-an-image\.pdf.*image/);
    expect(form.state.values.portfolio).toEqual([]);
  });

  it('refuses, as a portfolio field error, ids another browser (another cookie jar) uploaded', async () => {
    const owner = await officialBrowser().open('job-application');
    const dnd = mountFileDnd(owner, 'portfolio');
    expect(await dnd.upload(pngFile('mine.png', 3))).toBe(true);
    const stolen = dnd.files[0]!.id;

    const other = await officialBrowser().open('job-application');
    other.set({ role: 'Backend engineer', cv: pdfFile(), portfolio: [stolen] });
    const { response, httpStatus } = await other.click('next');
    expect(httpStatus).toBe(422);
    expect(response.status).toBe('validation_failed');
    expect(Object.keys(other.state.fieldErrors)).toEqual(['portfolio']);
    expect(other.state.fieldErrors.portfolio?.[0]).toMatch(/browser/);
    expect(await storedFiles([stolen])).toEqual([{ public_id: stolen, field_handle: 'portfolio', submission_id: null, name: 'mine.png' }]);
  });

  it('keeps dropped and posted files with a saved draft, so the draft finishes from another browser', async () => {
    const first = await officialBrowser().open('job-application');
    const dnd = mountFileDnd(first, 'portfolio');
    expect(await dnd.upload(pngFile('kept.png', 5))).toBe(true);
    first.set({ role: 'Backend engineer', cv: pdfFile('kept-cv.pdf') });
    await first.click('next');
    first.set({ fullName: 'Ann Lee' });
    const saved = await first.click('save');
    expect(saved.response).toMatchObject({ status: 'draft_saved', page: { currentIndex: 1 } });
    const cvIds = first.state.values.cv as string[];

    // The resume link opened on another device: another cookie jar, the pair as props, then validate.
    const other = await officialBrowser().open('job-application', { draftToken: first.state.draftToken, draftKey: first.state.draftKey });
    await other.submit('validate');
    expect(other.state.currentPageIndex).toBe(1);
    expect(other.state.values).toMatchObject({ role: 'Backend engineer', cv: cvIds, portfolio: [dnd.files[0]!.id], fullName: 'Ann Lee' });
    other.set({ email: 'ann@example.test' });
    const done = await other.click('submit');
    expect(done.response).toMatchObject({ status: 'submitted', complete: true });
    const submissionId = (done.response.submission as { id: number }).id;
    const stored = await storedFiles([...cvIds, dnd.files[0]!.id]);
    expect(stored.map((f) => [f.field_handle, f.submission_id])).toEqual([['portfolio', submissionId], ['cv', submissionId]]);
  });
});
