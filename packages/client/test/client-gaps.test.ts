/**
 * Issue #6 gaps in @svc/client against a real listening svc: visiblePages() from the rules, and
 * table `file` cells sent in a multipart submit as `files[table][row][col][]` (contract §7).
 * Forms: the default `application` (company page shown only for a company applicant) and
 * packages/server/test/fixtures/file-forms/uploads.yaml (`refs` table, column 1 takes PDFs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formDataNames, pdfFile } from './support/file-bytes.js';
import { FILE_FORMS_DIR, probedClient, startLiveServer, submissionRow, type LiveServer } from './support/live-server.js';

let live: LiveServer;
let files: LiveServer;
beforeAll(async () => {
  live = await startLiveServer();
  files = await startLiveServer({
    config: { forms: { dir: FILE_FORMS_DIR, watch: false }, headless: { forms: { uploads: { exposeManifest: true, allowSubmit: true } } } },
  });
});
afterAll(async () => {
  await live?.close();
  await files?.close();
});

describe('visiblePages()', () => {
  it('lists the company page (index 1) only while applicantType is company', async () => {
    const { client } = probedClient(live.baseUrl);
    const session = await client.session('application');
    expect(session.visiblePages()).toEqual([0, 2]);
    session.setValue('applicantType', 'company');
    expect(session.visiblePages()).toEqual([0, 1, 2]);
    session.setValue('applicantType', 'individual');
    expect(session.visiblePages()).toEqual([0, 2]);
  });
});

describe('table file cells: setCellFiles()', () => {
  it('sends files[refs][0][1][] after CSRF and _svc; the file is attached to column 1 of refs', async () => {
    const { client, probe } = probedClient(files.baseUrl);
    const session = await client.session('uploads');
    const csrf = await client.csrf();
    session.setValue('name', 'Ann');
    session.setValue('refs', [['Bob', []]]);
    session.setCellFiles('refs', 0, 1, [pdfFile('letter.pdf')]);
    expect(session.cellFiles.size).toBe(1);
    expect(session.validate('form')).toEqual({});

    const result = await session.submit();
    expect(result).toMatchObject({ status: 'submitted', submission: { id: expect.any(Number) } });
    expect(session.cellFiles.size).toBe(0);

    const submit = probe.matching('POST', '/uploads/submit')[0]!;
    expect(submit.body).toBeInstanceOf(FormData);
    const form = submit.body as FormData;
    expect(formDataNames(form)).toEqual(['SVC_CSRF_TOKEN', '_svc', 'files[refs][0][1][]']);
    expect(form.get('SVC_CSRF_TOKEN')).toBe(csrf!.value);
    expect((form.get('files[refs][0][1][]') as File).name).toBe('letter.pdf');

    const rows = await files.svc.context.database.db.selectFrom('svc_files').selectAll().where('submission_id', '=', result.submission!.id).execute();
    expect(rows).toEqual([expect.objectContaining({ field_handle: 'refs', column_index: 1, name: 'letter.pdf', kind: 'pdf' })]);
    const values = JSON.parse((await submissionRow(files.svc, result.submission!.id))!.values) as Record<string, unknown>;
    expect(values.refs).toEqual([['Bob', [rows[0]!.public_id]]]);
  });

  it('cell files count locally (fileCount of the column); an empty list forgets them', async () => {
    const { client } = probedClient(files.baseUrl);
    const session = await client.session('uploads');
    session.setCellFiles('refs', 2, 1, [pdfFile('a.pdf'), pdfFile('b.pdf'), pdfFile('c.pdf')]);
    // Three files in a column that takes two: counted as the server would count them.
    expect(session.validate('form').refs).toEqual([expect.any(String)]);
    session.setCellFiles('refs', 2, 1, []);
    expect(session.cellFiles.size).toBe(0);
    expect(session.validate('form')).toEqual({});
  });
});
