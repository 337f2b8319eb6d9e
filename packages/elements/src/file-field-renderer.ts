/**
 * File fields, both ways contract §7 allows: files picked in the input are checked at once and
 * travel with the next submit as multipart (session.setFiles); files dropped on the zone are
 * uploaded at once (session.upload), listed, and can be removed again (session.removeUpload).
 */
import type { UploadedFile } from '@svc/client';
import { acceptForFileKinds, formatMessage } from '@svc/core';
import { h } from './dom-builder.js';
import { configNumber, listOf, type ControlView, type FieldRenderContext } from './field-view.js';
import { pickedFileProblems } from './picked-file-checks.js';

/** `accept` hints per file kind (shared with the server's manifest, which offers them to every client). */
export const acceptOf = acceptForFileKinds;

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function renderFile(ctx: FieldRenderContext): ControlView {
  const { field, session } = ctx;
  const count = configNumber(field, 'fileCount') ?? 1;
  const input = h('input', {
    type: 'file',
    id: ctx.id,
    name: field.handle,
    multiple: count > 1,
    accept: acceptOf(field.config.fileKinds ?? field.validation.fileKinds),
    required: field.required,
  });
  input.addEventListener('change', () => {
    const files = Array.from(input.files ?? []);
    // Checked the moment they are chosen (issue #11); files that fail are not sent at all, since
    // the server would refuse them too, only after the whole step had been uploaded.
    const problems = pickedFileProblems(field, files, listOf(session.values[field.handle]).length, session.language);
    session.setFiles(field.handle, problems.length === 0 ? files : []);
    ctx.picked(files.length > 0 ? problems : null);
  });
  const list = h('ul', { part: 'files', class: 'files', 'aria-label': formatMessage(session.language, 'element.uploadedFiles', { label: field.label }) });
  const showUpload = (file: UploadedFile) => {
    const remove = h('button', { type: 'button', part: 'remove-file', class: 'secondary', 'aria-label': formatMessage(session.language, 'element.removeFile', { name: file.name }) }, formatMessage(session.language, 'element.remove'));
    const item = h('li', { 'data-upload-id': file.id }, h('span', {}, file.size > 0 ? `${file.name} (${sizeText(file.size)})` : file.name), remove);
    remove.addEventListener('click', async () => {
      remove.disabled = true;
      try {
        await session.removeUpload(field.handle, file.id);
        const index = ctx.uploads.findIndex((u) => u.id === file.id);
        if (index >= 0) ctx.uploads.splice(index, 1);
        item.remove();
        ctx.refresh();
      } catch (error) {
        remove.disabled = false;
        ctx.fail(error);
      }
    });
    list.appendChild(item);
  };
  // Ids already in the value (a resumed draft, or a page revisited) are listed too, by the name
  // and size the session knows: uploaded here, or named by the answer that loaded the draft.
  const known = new Map([...(session.uploadedFiles.get(field.handle) ?? []), ...ctx.uploads].map((u) => [u.id, u]));
  for (const id of listOf(ctx.value)) showUpload(known.get(id) ?? { id, name: formatMessage(session.language, 'element.uploadedFile'), extension: '', size: 0 });

  const zone = h(
    'div',
    { part: 'dropzone', class: 'dropzone' },
    input,
    h('p', { class: 'hint' }, formatMessage(session.language, 'element.dropFiles', { max: count })),
    list,
  );
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', async (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    const files = Array.from(event.dataTransfer?.files ?? []);
    zone.setAttribute('aria-busy', 'true');
    const refusals: unknown[] = [];
    for (const file of files) {
      try {
        const uploaded = await session.upload(field.handle, file);
        ctx.uploads.push(uploaded);
        showUpload(uploaded);
      } catch (error) {
        refusals.push(error);
      }
    }
    zone.removeAttribute('aria-busy');
    // The field is re-checked first and the refusals shown after: the other way round, the
    // re-check replaced the server's words with the field's own ("required") at once.
    ctx.refresh();
    if (refusals.length > 0) ctx.fail(...refusals);
  });
  return { layout: 'label', body: zone, described: [input], focusTarget: () => input };
}
