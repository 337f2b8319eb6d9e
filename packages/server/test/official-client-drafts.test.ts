/**
 * Drafts as the official Freeform client and its demos save and resume them (contract §5, §12):
 * `saveDraft` from a page (or the stock Save button), the pair kept from the answer, and the demos'
 * resume: `<Freeform>` remounted with `draftToken`/`draftKey` props, which sends `validate` at once.
 */
import { describe, expect, it } from 'vitest';
import { submissionRow } from '../../client/test/support/live-server.js';
import { type OfficialClient, type OfficialForm } from './support/official-client.js';
import { useOfficialServer } from './support/official-client-server.js';

const PAGE_URL = 'http://localhost:5173/forms/demo?utm=1';
const PAGE_ONE = { fullName: 'Ann Lee', email: 'ann@example.test', applicantType: 'individual', heardFrom: 'search' };
/** Page 3 as the official renderers write it: number and date inputs give strings, a ticked checkbox "1". */
const PAGE_THREE = { age: '30', phone: '+1 555 123 4567', startDate: '2026-01-15', agree: '1' };

const server = useOfficialServer(PAGE_URL);
const officialBrowser = (): OfficialClient => server.browser();

const lastSubmitBody = (client: OfficialClient) =>
  client.recorder.matching('POST', '/submit').at(-1)!.json as { values: Record<string, unknown>; intent: string; context: Record<string, unknown> };

describe('official client: drafts as the demos save and resume them', () => {
  /** Page 1 filled, page 3 visited (age typed), back on page 1: the state a saveDraft there carries. */
  async function formWithLaterPageValues(client: OfficialClient): Promise<OfficialForm> {
    const form = await client.open('application');
    form.set(PAGE_ONE);
    await form.click('next');
    form.set({ age: '41' });
    await form.click('back');
    expect(form.state.currentPageIndex).toBe(0);
    return form;
  }

  it('saves on page 1 with the values of later pages, resumes by validate with the pair, and deletes the draft on the final submit', async () => {
    const client = officialBrowser();
    const form = await formWithLaterPageValues(client);
    const saved = await form.submit('saveDraft');
    expect(lastSubmitBody(client)).toMatchObject({ intent: 'saveDraft', values: { ...PAGE_ONE, age: '41' } });
    expect(saved.httpStatus).toBe(200);
    expect(saved.response).toMatchObject({ success: true, status: 'draft_saved', complete: false });
    const { draftToken, draftKey } = form.state;
    expect(draftToken).toMatch(/^[A-Za-z0-9_-]{40}$/);
    expect(draftKey).toMatch(/^[A-Za-z0-9_-]{25}$/);

    // The demo puts ?session-token&key in the URL and remounts <Freeform> with them: fresh state, then validate.
    const resumeUrl = `${PAGE_URL}&session-token=${draftToken}&key=${draftKey}`;
    const resumed = await officialBrowser().open('application', { draftToken, draftKey });
    expect(resumed.state.values).toEqual({});
    const hydrate = await resumed.submit('validate', { sourceUrl: resumeUrl });
    expect(lastSubmitBody(resumed.client)).toEqual(expect.objectContaining({ intent: 'validate', values: {}, context: { draftToken, draftKey, sourceUrl: resumeUrl } }));
    expect(hydrate.response.warnings).toEqual([]);
    expect(hydrate.response.state?.values).toMatchObject({ ...PAGE_ONE, age: '41' });
    expect(resumed.state.values).toMatchObject({ ...PAGE_ONE, age: '41' });
    expect(resumed.state.currentPageIndex).toBe(0);
    expect(resumed.state.stateToken).toEqual(expect.any(String));

    await resumed.click('next');
    expect(resumed.state.currentPageIndex).toBe(2);
    resumed.set({ ...PAGE_THREE, age: resumed.state.values.age });
    const done = await resumed.click('submit');
    expect(lastSubmitBody(resumed.client).context).toMatchObject({ draftToken, draftKey });
    expect(done.response).toMatchObject({ status: 'submitted', complete: true });
    const row = await submissionRow(server.live.svc, (done.response.submission as { id: number }).id);
    expect(JSON.parse(row!.values)).toMatchObject({ age: '41' });

    const again = await officialBrowser().open('application', { draftToken, draftKey });
    const gone = await again.submit('validate');
    expect(gone.response.warnings).toEqual(['draft_not_loaded']);
    expect(again.state.values).not.toHaveProperty('fullName');
  });

  it('resumes a draft saved on page 3 on page 3, where the hydrating validate shows what is still missing', async () => {
    const client = officialBrowser();
    const form = await client.open('application');
    form.set(PAGE_ONE);
    await form.click('next');
    form.set({ age: '52' });
    await form.submit('saveDraft');
    expect(form.state.currentPageIndex).toBe(2);
    // The demos' own headless form is not remounted: it validates at once with the new pair and its state token.
    const same = await form.submit('validate');
    expect(lastSubmitBody(client).context).toMatchObject({ draftToken: form.state.draftToken, draftKey: form.state.draftKey, stateToken: expect.any(String) });
    expect(same.response).toMatchObject({ status: 'validation_failed', page: { currentIndex: 2 } });
    expect(form.state.fieldErrors).toEqual({ agree: ['This field is required'] });

    const resumed = await officialBrowser().open('application', { draftToken: form.state.draftToken, draftKey: form.state.draftKey });
    const hydrate = await resumed.submit('validate');
    expect(hydrate.httpStatus).toBe(422);
    expect(resumed.state.currentPageIndex).toBe(2);
    expect(resumed.buttons()).toEqual({ back: 'Back', submit: 'Apply' });
    expect(resumed.state.values).toMatchObject({ ...PAGE_ONE, age: '52' });
    expect(resumed.state.fieldErrors).toEqual({ agree: ['This field is required'] });
    resumed.set({ agree: '1' });
    expect((await resumed.click('submit')).response).toMatchObject({ status: 'submitted', complete: true });
  });

  it('loads nothing for a wrong key, warns draft_not_loaded, and issues a new pair on save while the original still resumes', async () => {
    const client = officialBrowser();
    const form = await formWithLaterPageValues(client);
    await form.submit('saveDraft');
    const { draftToken, draftKey } = form.state;

    const wrong = await officialBrowser().open('application', { draftToken, draftKey: 'x'.repeat(25) });
    const hydrate = await wrong.submit('validate');
    expect(hydrate.response.warnings).toEqual(['draft_not_loaded']);
    expect(wrong.state.values).not.toHaveProperty('fullName');
    wrong.set({ fullName: 'Someone Else' });
    const saved = await wrong.submit('saveDraft');
    expect(saved.response).toMatchObject({ status: 'draft_saved', warnings: ['draft_not_loaded'] });
    expect(wrong.state.draftToken).not.toBe(draftToken);
    expect(wrong.state.draftKey).not.toBe('x'.repeat(25));

    const original = await officialBrowser().open('application', { draftToken, draftKey });
    await original.submit('validate');
    expect(original.state.values).toMatchObject({ fullName: PAGE_ONE.fullName, age: '41' });
  });

  it('shows the Save button on every page of job-application and saves a draft from it', async () => {
    const client = officialBrowser();
    const form = await client.open('job-application');
    expect(form.buttons()).toEqual({ next: 'Next', save: 'Save and continue later' });
    form.set({ role: 'Backend engineer' });
    const { response, httpStatus } = await form.click('save');
    expect(lastSubmitBody(client)).toMatchObject({ intent: 'saveDraft', values: { role: 'Backend engineer', cv: [], portfolio: [] } });
    expect(httpStatus).toBe(200);
    expect(response).toMatchObject({ success: true, status: 'draft_saved', complete: false, draft: { resumeUrl: expect.stringContaining('/demo/resume?form=job-application&token=') } });
    expect(form.state.draftToken).toEqual(expect.any(String));
    expect(form.isComplete).toBe(false);
    expect(form.manifest.layout.pages[1]?.buttons.save).toEqual({ label: 'Save and continue later' });
  });
});
