/** Resolves a form handle for a headless route and applies the per-form switches of interface.md §1. */
import { SvcError, type Form } from '@svc/core';
import type { AppContext } from './app-context.js';

export type FormAccess = 'manifest' | 'submit';

export function resolveHeadlessForm(ctx: AppContext, handle: string, access: FormAccess): Form {
  const form = ctx.forms.get(handle);
  if (!form) throw new SvcError('FORM_NOT_FOUND', `Form "${handle.slice(0, 100)}" not found.`);
  const switches = ctx.config.headless.forms[handle];
  if (access === 'manifest' && switches?.exposeManifest !== true) throw new SvcError('MANIFEST_NOT_EXPOSED');
  if (access === 'submit' && switches?.allowSubmit !== true) throw new SvcError('SUBMIT_NOT_ALLOWED');
  return form;
}
