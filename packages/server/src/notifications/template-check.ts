/**
 * Names of email templates the forms use that the templates directory does not have. Checked at
 * boot and on every forms reload, so a typo shows up in the log before the first submission
 * dead-letters its email.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Form } from '@svc/core';

export function templatesUsed(form: Form): string[] {
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
