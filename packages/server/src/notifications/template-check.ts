/**
 * Names of email templates the forms use that the templates directory does not have. Checked at
 * boot and on every forms reload, so a typo shows up in the log before the first submission
 * dead-letters its email. `svc forms check` goes further (checkTemplateFiles): every template the
 * forms name, and each of its language variants (issue #34), must parse.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FieldDefinition, Form, FormSettings } from '@svc/core';
import { compileTemplate } from './email-templates.js';
import { TEMPLATE_NAME, completeSource, readTemplateParts, variantTags } from './email-template-files.js';

/** What naming templates needs of a form: a built Form, or a definition's fields as a list. */
interface NamesTemplates {
  readonly settings: Pick<FormSettings, 'notifications'>;
  readonly fields: readonly FieldDefinition[];
}

export function templatesUsed(form: NamesTemplates): string[] {
  const names = form.settings.notifications.admin.map((a) => a.template);
  for (const field of form.fields) {
    if (field.type === 'email' && field.notificationId) names.push(field.notificationId);
    if (field.type === 'dynamicRecipients') names.push(field.notificationId ?? 'default');
  }
  return [...new Set(names)];
}

export function missingTemplates(forms: readonly Form[], dir: string): { form: string; template: string }[] {
  return forms.flatMap((form) =>
    templatesUsed(form)
      .filter((name) => name !== 'default' && !existsSync(join(dir, name, 'subject.liquid')))
      .map((template) => ({ form: form.handle, template })),
  );
}

export interface TemplateProblems {
  /** Templates that would dead-letter every email they write: unparsable, or a variant missing files. */
  readonly errors: readonly string[];
  /** Templates the directory does not have (the boot warns of these too). */
  readonly warnings: readonly string[];
}

/** Why one template directory (its own files or a language folder) cannot be used, or null. */
async function problemOf(dir: string): Promise<string | null> {
  const source = completeSource(await readTemplateParts(dir));
  if (source === null) return 'needs subject.liquid and html.liquid or text.liquid';
  try {
    compileTemplate(source);
    return null;
  } catch (error) {
    return `does not parse: ${(error as Error).message.split('\n')[0]}`;
  }
}

/**
 * Every template the forms name, in `dir`: the template's own files and each language folder
 * (`<name>/de/`) must have a subject and a body and parse; a template the directory lacks is a
 * warning, as at boot.
 */
export async function checkTemplateFiles(forms: readonly { readonly handle: string; readonly form: NamesTemplates }[], dir: string): Promise<TemplateProblems> {
  const errors: string[] = [];
  const warnings: string[] = [];
  const users = new Map<string, string[]>();
  for (const { handle, form } of forms) {
    for (const name of templatesUsed(form)) users.set(name, [...(users.get(name) ?? []), handle]);
  }
  for (const [name, handles] of users) {
    if (name === 'default') continue;
    const usedBy = `(used by ${handles.join(', ')})`;
    if (!TEMPLATE_NAME.test(name)) {
      errors.push(`email template "${name}" ${usedBy}: is not a valid template name`);
      continue;
    }
    const templateDir = join(dir, name);
    if (!existsSync(templateDir)) {
      warnings.push(`email template "${name}" ${usedBy} is not in ${dir}; its emails will be dead-lettered`);
      continue;
    }
    const own = await problemOf(templateDir);
    if (own) errors.push(`email template "${name}" ${usedBy}: ${own}`);
    for (const tag of await variantTags(templateDir)) {
      const variant = await problemOf(join(templateDir, tag));
      if (variant) errors.push(`email template "${name}", language ${tag} ${usedBy}: ${variant}`);
    }
  }
  return { errors, warnings };
}
