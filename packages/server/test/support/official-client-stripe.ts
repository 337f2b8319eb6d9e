/**
 * The official client's Stripe extension (`packages/frontend/extensions/src/payments/stripe` in
 * solspace/craft-freeform, docs/official-client.md R10–R13), brand-swapped (contract §12), and the
 * parts of a browser it relies on: CORS preflights for its custom headers, Stripe.js (played by the
 * local Stripe double) and top-level navigation to the callback. Written from those facts; no
 * Freeform code.
 */
import type { StripeDouble, StripeTestCard } from '../../src/payments/stripe-double/stripe-double-server.js';
import { resolveUrl, type OfficialForm } from './official-client.js';
import type { SubmitIntent } from './official-client-state.js';

interface StripeFieldConfig {
  readonly publishableKey?: string | null;
  readonly integration?: string;
  readonly site?: string;
  readonly intentUrl?: string;
  readonly amountUrlTemplate?: string;
  readonly checkpointUrl?: string;
  readonly amountFields?: readonly string[];
}

/** What the extension's `beforeSubmit` ends in: the thrown message, a skip, or where the page goes. */
export type StripeSubmitOutcome =
  | { readonly kind: 'skipped' }
  | { readonly kind: 'error'; readonly message: string }
  /** Paid without a redirect: `window.location.assign(callback … &payment_intent=…)`. */
  | { readonly kind: 'navigate'; readonly url: string }
  /** Stripe.js took the page to the 3-D Secure challenge; Stripe returns to `returnUrl` after it. */
  | { readonly kind: 'challenge'; readonly returnUrl: string; readonly intentId: string };

/** A browser's answer to a cross-origin request whose preflight did not grant what it needs. */
export class CorsBlockedError extends TypeError {}

/**
 * fetch as a browser page on `form.client.pageUrl` does it: a cross-origin request with headers
 * outside the safelist is preceded by a preflight, and refused (TypeError) unless the answer
 * allows the page's origin and every such header.
 */
async function browserFetch(form: OfficialForm, url: string, init: RequestInit, preflights: string[]): Promise<Response> {
  const pageOrigin = new URL(form.client.pageUrl).origin;
  const custom: string[] = [];
  new Headers(init.headers).forEach((value, name) => {
    // Accept and a form-ish Content-Type are CORS-safelisted; everything else needs a grant.
    const safelisted = name === 'accept' || (name === 'content-type' && /^(text\/plain|multipart\/form-data|application\/x-www-form-urlencoded)/.test(value));
    if (!safelisted) custom.push(name);
  });
  if (new URL(url).origin !== pageOrigin && custom.length > 0) {
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: pageOrigin, 'access-control-request-method': init.method ?? 'GET', 'access-control-request-headers': custom.sort().join(',') },
    });
    const granted = (preflight.headers.get('access-control-allow-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());
    const allowed = preflight.ok && preflight.headers.get('access-control-allow-origin') === pageOrigin && custom.every((h) => granted.includes(h));
    preflights.push(`${new URL(url).pathname} ${custom.join(',')} ${preflight.status}`);
    if (!allowed) throw new CorsBlockedError(`Failed to fetch (CORS preflight for ${custom.join(', ')} refused)`);
  }
  return form.client.recorder.fetch(url, init);
}

/** One mounted Stripe payment field: the intent it made, and what it shows. */
export class StripeExtensionWidget {
  /** The element's text when mounting failed ("Stripe payment configuration is missing.", …). */
  message: string | null = null;
  /** `data-freeform-stripe-error` after a failed background amount update. */
  amountError: string | null = null;
  paymentIntentId: string | null = null;
  /** The browser's preflights: `<path> <requested headers> <status>`. */
  readonly preflights: string[] = [];
  private csrf: string | null = null;

  private constructor(
    readonly form: OfficialForm,
    readonly handle: string,
    private readonly config: StripeFieldConfig,
    private readonly double: StripeDouble,
  ) {}

  private get baseUrl(): string {
    return this.form.client.options.baseUrl;
  }

  /** `mount(context)`: the CSRF read, the intent (R10), the field's value, and an early re-price. */
  static async mount(form: OfficialForm, handle: string, double: StripeDouble): Promise<StripeExtensionWidget> {
    const field = form.manifest.fields[handle];
    if (!field) throw new Error(`no field ${handle}`);
    const config = (field.frontend?.config ?? {}) as StripeFieldConfig;
    const widget = new StripeExtensionWidget(form, handle, config, double);
    if (!config.publishableKey || !config.integration || !config.intentUrl || !config.checkpointUrl) {
      widget.message = 'Stripe payment configuration is missing.';
      return widget;
    }
    const tokenUrl = form.manifest.security.csrf?.tokenEndpoint ?? form.manifest.endpoints.csrf?.url;
    if (tokenUrl) {
      const answer = await form.client.recorder.fetch(resolveUrl(widget.baseUrl, tokenUrl), { credentials: 'include', headers: { Accept: 'application/json' } });
      widget.csrf = ((await answer.json()) as { csrf?: { value?: string } }).csrf?.value ?? null;
    }
    const values = form.state.getValuesForSubmit();
    const response = await browserFetch(form, resolveUrl(widget.baseUrl, config.intentUrl), widget.intentRequest(values), widget.preflights);
    const payment = (await response.json()) as { id?: string; secret?: string; errors?: string[]; message?: string };
    if (!response.ok || !payment.id || !payment.secret) {
      widget.message = payment.errors?.[0] ?? payment.message ?? 'Unable to create Stripe payment.';
      return widget;
    }
    widget.paymentIntentId = payment.id;
    form.state.setValue(handle, payment.id);
    if ((config.amountFields ?? []).some((h) => values[h])) await widget.updateAmount(values).catch(() => undefined);
    return widget;
  }

  /** An amount field's `change`/`input` listener (R11); a failure is only marked on the element. */
  async amountFieldChanged(): Promise<void> {
    await this.updateAmount(this.form.state.getValuesForSubmit()).catch((error: unknown) => {
      this.amountError = error instanceof Error ? error.message : 'Unable to update the payment amount.';
    });
  }

  /**
   * `beforeSubmit`: only the `submit` intent pays. Re-price, the checkpoint (R12), `elements.submit()`
   * (no card typed: Stripe's incomplete-number error), `confirmPayment` with the callback as return
   * URL (R13), then the page leaves for the callback.
   */
  async beforeSubmit(intent: SubmitIntent, card: StripeTestCard | null): Promise<StripeSubmitOutcome> {
    if (intent !== 'submit') return { kind: 'skipped' };
    const intentId = this.paymentIntentId;
    if (!intentId) return { kind: 'error', message: 'Stripe payment is still loading.' };
    try {
      const { body } = this.form.submitBody('submit');
      await this.updateAmount(body.values);
      const headers = { Accept: 'application/json', 'Content-Type': 'application/json', ...(this.csrf ? { 'X-CSRF-Token': this.csrf } : {}) };
      const checkpoint = await browserFetch(this.form, resolveUrl(this.baseUrl, this.config.checkpointUrl as string), {
        method: 'POST',
        credentials: 'include',
        headers,
        body: JSON.stringify({ ...body, integration: this.config.integration, paymentIntentId: intentId }),
      }, this.preflights);
      if (!checkpoint.ok) {
        const refusal = (await checkpoint.json().catch(() => ({}))) as { message?: string; errors?: { form?: string[] } };
        return { kind: 'error', message: refusal.errors?.form?.[0] ?? refusal.message ?? 'Unable to prepare the payment. Please review the form and try again.' };
      }
      if (card === null) return { kind: 'error', message: 'Your card number is incomplete.' };
      const returnUrl = new URL('/svc/payments/stripe/callback', this.baseUrl);
      returnUrl.searchParams.set('integration', this.config.integration as string);
      returnUrl.searchParams.set('stripe_token', intentId);
      if (this.config.site) returnUrl.searchParams.set('site', this.config.site);
      const confirmed = await this.double.confirm(intentId, card);
      if (confirmed.status === 'requires_action') return { kind: 'challenge', returnUrl: returnUrl.toString(), intentId };
      if (confirmed.status !== 'succeeded' && confirmed.status !== 'processing') {
        return { kind: 'error', message: confirmed.last_payment_error?.message ?? 'Unable to confirm the payment.' };
      }
      returnUrl.searchParams.set('payment_intent', confirmed.id);
      return { kind: 'navigate', url: returnUrl.toString() };
    } catch (error) {
      return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Stripe's return after a 3-D Secure challenge: the return URL plus what Stripe adds to it. */
  static challengeReturn(outcome: Extract<StripeSubmitOutcome, { kind: 'challenge' }>, secret: string, status: 'succeeded' | 'failed'): string {
    const url = new URL(outcome.returnUrl);
    url.searchParams.set('payment_intent', outcome.intentId);
    url.searchParams.set('payment_intent_client_secret', secret);
    url.searchParams.set('redirect_status', status);
    return url.toString();
  }

  /** A top-level navigation: cookies go along, no Origin header, redirects are not followed here. */
  navigate(url: string): Promise<Response> {
    return this.form.client.recorder.fetch(url, { credentials: 'include', redirect: 'manual', headers: { Accept: 'text/html' } });
  }

  /** R10/R11: the integration in a header and in the body, beside the values. */
  private intentRequest(values: Record<string, unknown>): RequestInit {
    const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json', 'FF-STRIPE-INTEGRATION': this.config.integration as string };
    if (this.csrf) headers['X-CSRF-Token'] = this.csrf;
    return { method: 'POST', credentials: 'include', headers, body: JSON.stringify({ values, integration: this.config.integration, site: this.config.site ?? '' }) };
  }

  /** R11: nothing without amount fields; an answer carrying `client_secret` means "re-enter the card". */
  private async updateAmount(values: Record<string, unknown>): Promise<void> {
    const template = this.config.amountUrlTemplate;
    if (!template || (this.config.amountFields ?? []).length === 0 || !this.paymentIntentId) return;
    const url = resolveUrl(this.baseUrl, template.replace('{paymentIntentId}', encodeURIComponent(this.paymentIntentId)));
    const response = await browserFetch(this.form, url, this.intentRequest(values), this.preflights);
    const updated = (await response.json()) as { client_secret?: string; message?: string; errors?: string[] };
    if (!response.ok) throw new Error(updated.errors?.[0] ?? updated.message ?? 'Unable to update the payment amount.');
    if (updated.client_secret) throw new Error('Your payment amount changed. Please re-enter your payment details.');
  }
}
