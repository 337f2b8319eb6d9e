/**
 * Which deliveries a stored submission creates (issue #5): the form's admin emails and
 * webhooks, the email field's `notificationId` template to the address the user typed, the
 * chosen dynamic-recipients option's addresses (never sent to clients), the extra POST URL, and
 * one job per mailing-list opt-in when a list provider is configured.
 */
import type { Field, Form, Values } from '@svc/core';
import type { DeliveryTarget } from './delivery-model.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export interface PlannerOptions {
  readonly mailingListsEnabled: boolean;
}

function emailsOf(field: Field, values: Values): string[] {
  const value = values[field.handle as string];
  return typeof value === 'string' && EMAIL.test(value) ? [value] : [];
}

export function planDeliveries(form: Form, values: Values, options: PlannerOptions): DeliveryTarget[] {
  const targets: DeliveryTarget[] = [];
  for (const admin of form.settings.notifications.admin) {
    targets.push({ kind: 'email', template: admin.template, to: admin.to, reason: 'admin' });
  }
  const firstEmail = form.fields.filter((f) => f.type === 'email').flatMap((f) => emailsOf(f, values))[0] ?? null;
  for (const field of form.fields) {
    const handle = field.handle as string;
    if (field.type === 'email' && field.notificationId) {
      const to = emailsOf(field, values);
      if (to.length > 0) targets.push({ kind: 'email', template: field.notificationId, to, reason: 'user', field: handle });
    }
    if (field.type === 'dynamicRecipients') {
      const chosen = values[handle];
      const picked = Array.isArray(chosen) ? chosen : chosen === null || chosen === undefined ? [] : [chosen];
      const to = [...new Set(field.options.filter((o) => picked.includes(o.value)).flatMap((o) => o.recipients))];
      if (to.length > 0) targets.push({ kind: 'email', template: field.notificationId ?? 'default', to, reason: 'dynamic', field: handle });
    }
    if (field.type === 'mailingList' && options.mailingListsEnabled && values[handle] === true) {
      targets.push({ kind: 'mailingList', field: handle, list: handle, email: firstEmail });
    }
  }
  for (const webhook of form.settings.notifications.webhooks) targets.push({ kind: 'webhook', url: webhook.url });
  if (form.settings.extraPostUrl) {
    targets.push({ kind: 'extraPost', url: form.settings.extraPostUrl, triggerPhrase: form.settings.extraPostTriggerPhrase });
  }
  return targets;
}
