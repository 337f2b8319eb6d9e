/**
 * The mailing-list provider port (issue #5): each opt-in of a mailing-list field is its own
 * delivery job handed to a provider. The default adapter is a webhook: it POSTs
 * `{list, email, form, submission}` to `mailingLists.url`, signed like webhooks when a secret is
 * set, so any list service (or a small bridge to one) can receive it.
 */
import { PermanentDeliveryError } from './delivery-model.js';

export interface OptIn {
  readonly list: string;
  readonly email: string;
  readonly form: string;
  readonly submission: string;
  /** Stable per delivery, so a provider can recognise a retried opt-in. */
  readonly deliveryId: string;
}

export interface MailingListProvider {
  /** Resolves with a detail for the delivery log; throws to retry, PermanentDeliveryError to give up. */
  subscribe(optIn: OptIn): Promise<string>;
}

type Post = (url: string, body: string, headers: Record<string, string>) => Promise<{ status: number }>;

export function createWebhookListProvider(url: string | null, sign: ((id: string, body: string) => Record<string, string>) | null, post: Post): MailingListProvider {
  return {
    async subscribe(optIn) {
      if (!url) throw new PermanentDeliveryError('mailingLists.url is not set');
      const body = JSON.stringify({ list: optIn.list, email: optIn.email, form: optIn.form, submission: optIn.submission });
      const response = await post(url, body, sign ? sign(optIn.deliveryId, body) : {});
      if (response.status < 200 || response.status >= 300) throw new Error(`the receiver answered HTTP ${response.status}`);
      return `HTTP ${response.status}`;
    },
  };
}
