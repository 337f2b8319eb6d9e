/**
 * The console's Edit page (issue #35 item 2): GET draws the form, POST saves it through the same
 * service as `PATCH /svc/api/admin/submissions/{id}` (editSubmissionValues), so the form's rules,
 * the revision and the audit entry are the API's. A refused save draws the page again with the
 * posted values and the errors per field (422), nothing saved.
 *
 * The page posts every field it draws, but only the fields whose value the owner changed are sent
 * to the service: a page without script does not run the form's rules, so an untouched field the
 * rules now hide must not count as setting it, and a group of boxes left unticked posts nothing.
 */
import type { FastifyInstance } from 'fastify';
import { FIELD_MESSAGES, SvcError, isEmptyValue, normaliseFieldValue, type FieldValue, type Form, type Values } from '@svc/core';
import { getSubmission } from '../admin/admin-service.js';
import { baseUrl } from '../admin/admin-http.js';
import { editableFields, editSubmissionValues, type FieldErrors } from '../admin/admin-edit-values.js';
import { readClassicPost, type Entries as ClassicEntries } from '../classic/classic-entries.js';
import { CONSOLE_BASE } from './console-pages.js';
import { pageHeaders, type ConsoleKit } from './console-kit.js';
import { renderEdit } from './console-edit-pages.js';
import { flash } from './console-flash.js';

/** The edit post's body: the CSRF token the kit's writer reads, and every entry in order. */
interface EditBody {
  readonly csrf: string | undefined;
  readonly entries: ClassicEntries;
}

const LIST_TYPES = new Set(['checkboxGroup', 'multipleSelect', 'dynamicRecipients']);

/** The posted value of each field the page drew, empty where a browser posts nothing (unticked boxes). */
function postedValues(form: Form, entries: ClassicEntries): Record<string, unknown> {
  const read = readClassicPost(form, entries, { csrfName: 'csrf', honeypotName: null, captchaNames: [], fillTimestamp: null, stateToken: null }).request.values as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of editableFields(form)) {
    const handle = field.handle as string;
    if (field.type === 'hidden') continue;
    const value = Object.hasOwn(read, handle) ? read[handle] : LIST_TYPES.has(field.type) || field.type === 'table' ? [] : field.type === 'checkbox' || field.type === 'mailingList' ? '0' : '';
    // A browser posts a textarea's line breaks as CRLF (HTML's form encoding); the text has LF.
    out[handle] = typeof value === 'string' ? value.replace(/\r\n/g, '\n') : value;
  }
  return out;
}

const same = (a: FieldValue, b: FieldValue) => (isEmptyValue(a) && isEmptyValue(b)) || JSON.stringify(a) === JSON.stringify(b);

/** The posted values that differ from the stored ones once normalised: the owner's changes. */
export function changedValues(form: Form, stored: Values, posted: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const field of editableFields(form)) {
    const handle = field.handle as string;
    if (!Object.hasOwn(posted, handle)) continue;
    const outcome = normaliseFieldValue(field, posted[handle], FIELD_MESSAGES);
    // A value that does not even normalise is a change: the service refuses it with its message.
    if (!outcome.ok || !same(outcome.value, stored[handle] ?? null)) changed[handle] = posted[handle];
  }
  return changed;
}

export async function consoleEditRoutes(scope: FastifyInstance, kit: ConsoleKit): Promise<void> {
  const { ctx, services, signedIn, writer, notFound } = kit;

  const load = async (principal: Parameters<typeof getSubmission>[1], id: string, request: Parameters<typeof baseUrl>[1]) => {
    const detail = await getSubmission(services, principal, id, baseUrl(ctx, request));
    const form = services.forms.get(detail.form.handle);
    if (!form) throw new SvcError('SUBMISSION_NOT_FOUND');
    return { detail, form };
  };

  scope.get<{ Params: { id: string } }>(`${CONSOLE_BASE}/submissions/:id/edit`, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    const { principal, viewer } = current;
    if (!viewer.canWrite) return notFound(reply, 'You may only read submissions, so there is nothing to edit.', viewer);
    try {
      const { detail, form } = await load(principal, request.params.id, request);
      return pageHeaders(reply).send(renderEdit({ detail, form, values: detail.values, errors: {} }, viewer));
    } catch (error) {
      if (error instanceof SvcError && error.code === 'SUBMISSION_NOT_FOUND') return notFound(reply, 'This submission does not exist any more, or you may not see it.', viewer);
      throw error;
    }
  });

  // The post keeps every entry (repeated names for ticked boxes, table cells), which the console's
  // shared parser folds into one value per name; this scope reads the body as a list instead.
  await scope.register(async (child) => {
    child.removeContentTypeParser('application/x-www-form-urlencoded');
    child.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      const entries = [...new URLSearchParams(body as string)] as [string, string][];
      const parsed: EditBody = { csrf: entries.find(([name]) => name === 'csrf')?.[1], entries };
      done(null, parsed);
    });

    child.post<{ Params: { id: string } }>(`${CONSOLE_BASE}/submissions/:id/edit`, async (request, reply) => {
      const { principal, viewer, by } = await writer(request);
      const { detail, form } = await load(principal, request.params.id, request);
      const posted = postedValues(form, (request.body as EditBody).entries);
      const changed = changedValues(form, detail.values, posted);
      if (Object.keys(changed).length === 0) {
        flash(reply, kit, 'Nothing was changed.');
        return reply.redirect(`${CONSOLE_BASE}/submissions/${detail.id}`, 303);
      }
      try {
        const result = await editSubmissionValues(services, principal, String(detail.id), changed, by);
        flash(reply, kit, `Saved: ${result.changed.length} value(s) changed, revision ${result.revision}.`);
        return reply.redirect(`${CONSOLE_BASE}/submissions/${detail.id}`, 303);
      } catch (error) {
        if (!(error instanceof SvcError) || (error.code !== 'VALUES_INVALID' && error.code !== 'FIELD_NOT_EDITABLE')) throw error;
        const errors = (error.details as FieldErrors).fields;
        return pageHeaders(reply.code(error.status)).send(renderEdit({ detail, form, values: { ...detail.values, ...posted }, errors }, viewer));
      }
    });
  });
}
