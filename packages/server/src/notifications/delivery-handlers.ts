/**
 * How each kind of job is delivered. A handler resolves with a short detail for the delivery log
 * or throws: a PermanentDeliveryError when retrying cannot help, any other error to retry.
 */
import type { Form } from '@svc/core';
import type { FormRegistry } from '../forms/form-registry.js';
import { OutboundRefused, postOutbound, type OutboundPolicy } from '../security/outbound-http.js';
import { PermanentDeliveryError, type DeliveryJob, type DeliveryPayload } from './delivery-model.js';
import { templateScope, type EmailTemplates } from './email-templates.js';
import type { Mailer } from './mail-transport.js';
import { webhookHeaders } from './webhook-signing.js';
import { createWebhookListProvider, type MailingListProvider } from './mailing-list-provider.js';

export interface HandlerDependencies {
  readonly forms: FormRegistry;
  /** The form as a site in `language` reads it (its translation), for the labels in emails. */
  readonly localize: (form: Form, language: string) => Form;
  /** The default site's language: the language of jobs written before sites existed. */
  readonly defaultLanguage: string;
  readonly mailer: Mailer;
  readonly templates: EmailTemplates;
  readonly from: string;
  readonly webhookSecret: string | null;
  readonly mailingLists: MailingListProvider;
  readonly outbound: OutboundPolicy;
  /** A link to a stored file for templates, or null when there is none to give. */
  readonly fileUrl: (fileId: string) => string | null;
  readonly now: () => Date;
}

export type DeliveryHandler = (job: DeliveryJob) => Promise<string>;

/** The body webhooks receive: the submission as stored, nothing from the server's internals. */
export function webhookBody(type: string, payload: DeliveryPayload, now: Date): string {
  return JSON.stringify({
    type,
    timestamp: now.toISOString(),
    data: { form: payload.form, submission: payload.submission, values: payload.values, files: payload.files, payment: payload.payment ?? null },
  });
}

async function post(deps: Pick<HandlerDependencies, 'outbound'>, url: string, body: string, headers: Record<string, string>) {
  try {
    return await postOutbound(url, body, headers, deps.outbound);
  } catch (error) {
    if (error instanceof OutboundRefused) throw new PermanentDeliveryError(`refused: ${error.message}`);
    throw error;
  }
}

function expectSuccess(status: number): void {
  if (status < 200 || status >= 300) throw new Error(`the receiver answered HTTP ${status}`);
}

/** The default list provider: the webhook adapter over the same safe outbound POST. */
export function webhookListProvider(url: string | null, secret: string | null, outbound: OutboundPolicy, now: () => Date): MailingListProvider {
  const sign = secret ? (id: string, body: string) => webhookHeaders(secret, id, body, now()) : null;
  return createWebhookListProvider(url, sign, (target, body, headers) => post({ outbound }, target, body, headers));
}

export function createDeliveryHandler(deps: HandlerDependencies): DeliveryHandler {
  return async (job) => {
    const { target, payload } = job;
    switch (target.kind) {
      case 'email': {
        // A user's own confirmation never carries download links: the form must not become a way
        // to mail links to arbitrary addresses.
        const fileUrl = target.reason === 'user' ? () => null : deps.fileUrl;
        // issue #34: written in the language of the site the submission was made on.
        const language = payload.site?.language ?? deps.defaultLanguage;
        const found = deps.forms.get(payload.form.handle);
        const scope = templateScope(found && deps.localize(found, language), payload, fileUrl, language);
        const mail = await deps.templates.render(target.template, scope, language);
        return deps.mailer.send({ from: deps.from, to: target.to, ...mail, messageId: `<${job.uid}@svc>`, language });
      }
      case 'webhook': {
        if (!deps.webhookSecret) throw new PermanentDeliveryError('notifications.webhookSecret is not set, so webhooks cannot be signed');
        const body = webhookBody('submission.created', payload, deps.now());
        const response = await post(deps, target.url, body, webhookHeaders(deps.webhookSecret, `msg_${job.uid}`, body, deps.now()));
        expectSuccess(response.status);
        return `HTTP ${response.status}`;
      }
      case 'extraPost': {
        const response = await post(deps, target.url, JSON.stringify(payload.values), {});
        expectSuccess(response.status);
        // interface.md §2.1: the trigger phrase in the answer means the receiver reported an error.
        if (target.triggerPhrase && response.body.includes(target.triggerPhrase)) {
          throw new PermanentDeliveryError(`the response contains the trigger phrase "${target.triggerPhrase}"`);
        }
        return `HTTP ${response.status}`;
      }
      case 'mailingList': {
        if (!target.email) throw new PermanentDeliveryError('the submission has no email address to subscribe');
        return deps.mailingLists.subscribe({
          list: target.list,
          email: target.email,
          form: payload.form.handle,
          submission: payload.submission.uid,
          deliveryId: `msg_${job.uid}`,
        });
      }
    }
  };
}
