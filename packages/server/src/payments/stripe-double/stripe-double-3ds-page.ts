/**
 * The double's stand-in for a bank's 3-D Secure challenge: a page with one button to pass and one
 * to fail, and the redirect back to the merchant's return_url that Stripe makes afterwards. Every
 * value placed in HTML is escaped; only http(s) return URLs are ever redirected to.
 */
import type { StripeLedger, StripePaymentIntent } from './stripe-double-intents.js';

/** Headers of the double's HTML pages: no scripts at all; forms may post here and redirect on. */
export const HTML_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:",
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** What the server writes back for a page request. */
export interface PageAnswer { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string }

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const isHttpUrl = (text: string): boolean => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);

function formatAmount(amount: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency });
    return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    return `${amount} ${currency}`;
  }
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}
.banner{border:2px dashed #b45309;padding:.5rem 1rem;border-radius:6px}form{display:inline-block;margin:.5rem .5rem 0 0}
button{font:inherit;padding:.5rem 1rem}</style></head>
<body>${body}</body>
</html>
`;
}

/** The challenge page of an intent waiting in requires_action, or a note that nothing is pending. */
export function renderThreeDsPage(intent: StripePaymentIntent, returnUrl: string | null): string {
  const title = 'Stripe test double — 3-D Secure (offline, no real card)';
  const head = `<h1>${escapeHtml(title)}</h1>
<p class="banner">This page stands in for your bank's 3-D Secure check. Nothing leaves this computer.</p>
<p>Payment <code>${escapeHtml(intent.id)}</code>: ${escapeHtml(formatAmount(intent.amount, intent.currency))}</p>`;
  if (intent.status !== 'requires_action') {
    return page(title, `${head}\n<p>There is no authentication to complete: the payment's status is <code>${escapeHtml(intent.status)}</code>.</p>`);
  }
  const action = escapeHtml(`/3ds/${encodeURIComponent(intent.id)}`);
  const button = (outcome: 'succeeded' | 'failed', label: string) => `<form method="post" action="${action}">
<input type="hidden" name="outcome" value="${outcome}">
<input type="hidden" name="return_url" value="${escapeHtml(returnUrl ?? '')}">
<button type="submit">${label}</button>
</form>`;
  return page(title, `${head}\n${button('succeeded', 'Complete authentication')}\n${button('failed', 'Fail authentication')}`);
}

/** A short page for refusals and for the default return_url of the double's own helpers. */
export function renderMessagePage(title: string, lines: readonly string[]): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}`);
}

/** `return_url` plus Stripe's redirect parameters, keeping the query it already has. */
export function returnRedirectUrl(returnUrl: string, intent: StripePaymentIntent): string {
  const target = new URL(returnUrl);
  target.searchParams.append('payment_intent', intent.id);
  target.searchParams.append('payment_intent_client_secret', intent.client_secret);
  target.searchParams.append('redirect_status', intent.status === 'succeeded' ? 'succeeded' : 'failed');
  return target.toString();
}

const messageAnswer = (status: number, title: string, ...lines: string[]): PageAnswer => ({ status, headers: HTML_HEADERS, body: renderMessagePage(title, lines) });

/**
 * `GET /3ds/:id` shows the challenge; `POST /3ds/:id` (form: outcome, return_url) completes it
 * and answers 303 to the return_url with Stripe's redirect parameters.
 */
export function answerThreeDs(ledger: StripeLedger, method: string, id: string, query: URLSearchParams, body: string): PageAnswer {
  if (ledger.clientSecretOf(id) === undefined) return messageAnswer(404, 'Not found', `No such payment_intent: ${id}`);
  const intent = ledger.retrieve(id);
  // The URL recorded at confirm wins over the copies in the query and the form.
  const recorded = ledger.returnUrlOf(id);
  if (method === 'GET') return { status: 200, headers: HTML_HEADERS, body: renderThreeDsPage(intent, recorded ?? query.get('return_url')) };
  if (method !== 'POST') return messageAnswer(405, 'Method not allowed');
  const form = new URLSearchParams(body);
  const outcome = form.get('outcome');
  if (outcome !== 'succeeded' && outcome !== 'failed') return messageAnswer(400, 'Bad request', 'outcome must be succeeded or failed.');
  const back = recorded ?? form.get('return_url') ?? '';
  if (!isHttpUrl(back)) return messageAnswer(400, 'Bad request', 'return_url must be an http(s) URL.');
  const after = intent.status === 'requires_action' ? ledger.completeAction(id, outcome) : intent;
  return { status: 303, headers: { location: returnRedirectUrl(back, after), 'cache-control': 'no-store' }, body: '' };
}

/** The default return_url of the double's own helpers: shows what Stripe would have appended. */
export function answerReturnPage(query: URLSearchParams): PageAnswer {
  return messageAnswer(200, 'Stripe test double — returned from payment', ...[...query].map(([k, v]) => `${k}: ${v}`));
}
