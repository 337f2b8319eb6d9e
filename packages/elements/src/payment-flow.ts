/**
 * A form's card payment in `<svc-form>` (issue #12, contract §8): Stripe's Payment Element,
 * mounted when the payment field is first shown, an intent the service prices from the form's
 * values (re-priced when an amount field is committed: a choice made, a typed amount left), and
 * the final submit done as
 * checkpoint → elements.submit → confirmPayment → the service's callback, never the plain submit.
 * Stripe Elements cannot mount inside a shadow root, so the Payment Element lives in a light-DOM
 * child of the element that the field shows through a named `<slot>` (as captchas do).
 */
import { SvcClientError, type FormSession, type ManifestField, type SubmitResponse } from '@svc/client';
import {
  checkpointPayment, createPaymentIntent, paymentCompletionUrl, paymentConfigOf, paymentReturnUrl, updatePaymentAmount, type PaymentConfig,
} from '@svc/client/payments';
import { computeVisibility, currencyFactor, formatLocaleNumber, formatMessage, validateValues, type MessageKey } from '@svc/core';
import { h } from './dom-builder.js';
import { loadStripe, type StripeApi, type StripeElements, type StripePaymentElement } from './stripe-js-loader.js';

const AMOUNT_DEBOUNCE_MS = 400;

/**
 * Shown instead of the card fields when the service has no Stripe keys.
 *
 * @example
 * if (!flow.configured) status.textContent = paymentsNotConfigured('de-DE');
 */
export function paymentsNotConfigured(language: string): string {
  return formatMessage(language, 'element.paymentsNotConfigured');
}

interface Mounted {
  readonly stripe: StripeApi;
  readonly elements: StripeElements;
  readonly element: StripePaymentElement;
  readonly intentId: string;
}

/**
 * @example
 * const flow = new PaymentFlow({ session, field, showErrors: (messages) => paymentField.showErrors(messages) });
 * host.append(flow.container);
 */
export interface PaymentFlowOptions {
  readonly session: FormSession;
  readonly field: ManifestField;
  /** Messages for the payment field (none = clear them); `error`, when given, is reported as svc:error. */
  showErrors(messages: readonly string[], error?: unknown): void;
}

function messageOf(error: unknown, language: string): string {
  return error instanceof Error ? error.message : formatMessage(language, 'element.paymentFailed');
}

/** `2500`, `eur` → `25,00 €` on a German site; the minor unit comes from @svc/core's table. */
function formatAmount(minor: number, currency: string, language: string): string {
  const major = minor / currencyFactor(currency);
  try {
    return formatLocaleNumber(language, major, { style: 'currency', currency: currency.toUpperCase() });
  } catch {
    return `${major} ${currency.toUpperCase()}`;
  }
}

/**
 * @example
 * const flow = new PaymentFlow({ session, field, showErrors });
 * element.append(flow.container);
 * flow.sync(true);                                           // the field is shown: mount, make the intent
 * if (flow.routesSubmit()) handle(await flow.pay());         // instead of session.submit()
 */
export class PaymentFlow {
  readonly handle: string;
  readonly config: PaymentConfig;
  /** The light-DOM child holding the Payment Element; slotted into the field by its renderer. */
  readonly container: HTMLElement;
  /** True once the page is on its way to the callback: the form stays busy until it has gone. */
  leaving = false;
  readonly #options: PaymentFlowOptions;
  readonly #mountPoint: HTMLElement;
  #status: HTMLElement | null = null;
  #statusText = '';
  #amountText = '';
  #mounted: Promise<Mounted> | null = null;
  #mountFailed = false;
  /** The amount fields' values (and visibility) the intent was last asked to be priced for. */
  #requestedKey: string | null = null;
  /** The values `#amountText` was priced for: the amount is shown only while the fields still hold them. */
  #pricedKey: string | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #updating: Promise<unknown> = Promise.resolve();
  #cardEmpty = true;
  /** Which error this flow put on the field, so the fix that answers it can take it away again. */
  #shownError: 'card' | 'amount' | null = null;

  constructor(options: PaymentFlowOptions) {
    this.#options = options;
    this.config = paymentConfigOf(options.field);
    this.handle = this.config.handle;
    this.#mountPoint = h('div', { class: 'svc-payment-element', tabindex: -1 });
    this.container = h('div', { slot: `payment-${this.handle}`, class: 'svc-payment' }, this.#mountPoint);
    if (!this.configured) this.#statusText = this.#say('element.paymentsNotConfigured');
  }

  /** Whether the service can take payments: keys, Stripe.js and the signed integration are all there. */
  get configured(): boolean {
    return this.config.publishableKey !== null && this.config.scriptUrl !== null && this.config.integration !== null;
  }

  /** The field's status line on the page now rendered; it shows the current status at once. */
  attach(status: HTMLElement): void {
    this.#status = status;
    status.textContent = this.#statusText;
  }

  focusTarget(): HTMLElement {
    return this.#mountPoint;
  }

  /**
   * After every render and change (each keystroke too): a shown field mounts the Payment Element
   * (once; a failed mount is retried by pay(), not on every keystroke). An amount the fields no
   * longer hold is taken off the status line at once; nothing is asked of the service here.
   */
  sync(shown: boolean): void {
    if (!this.configured) return;
    if (shown && !this.#mounted && !this.#mountFailed) this.#mount().catch((error: unknown) => this.#options.showErrors([messageOf(error, this.#language)], error));
    // Other texts ("Updating the amount…") say what is under way and are left to it.
    if (this.#mounted && (this.#statusText === this.#amountText || this.#statusText === '')) this.#setStatus(this.#shownAmount());
  }

  /**
   * A field was committed (a `change`: a choice made, a typed value left). The amount fields are
   * checked here first, and the intent re-priced only when they pass, so a half-typed or invalid
   * amount never reaches the service (it answered 422 per keystroke before). Returns the amount
   * fields' own problems by handle, for the element to show on those fields.
   *
   * @example
   * const problems = flow.commit(); // { otherAmount: ['Enter a number no greater than 5000'] }
   */
  commit(): Readonly<Record<string, readonly string[]>> {
    const problems = this.#amountProblems();
    if (!this.configured || !this.#mounted) return problems;
    const key = this.#key();
    if (key === this.#requestedKey) return problems;
    clearTimeout(this.#timer);
    if (Object.keys(problems).length > 0) {
      // The amount field says what is wrong; an older "choose an amount" on the payment goes.
      if (this.#shownError === 'amount') this.#clearShownError();
      this.sync(true);
      return problems;
    }
    this.#requestedKey = key;
    this.#timer = setTimeout(() => void this.#updateAmount(true).catch(() => undefined), AMOUNT_DEBOUNCE_MS);
    return problems;
  }

  /**
   * Whether the final submit has to pay: the rules show the field and it is required or card
   * details were typed in. Otherwise the field's value is cleared, so the plain submit carries no
   * intent (the service refuses a plain submit that names one).
   */
  routesSubmit(): boolean {
    const { session, field } = this.#options;
    if (session.visibleFields(field.pageIndex).includes(this.handle) && (field.required || !this.#cardEmpty)) return true;
    session.setValue(this.handle, null);
    return false;
  }

  /**
   * The final submit with a payment. Resolves with the checkpoint's refusal to show like a failed
   * submit, or null when the outcome is on the field (a card error) or the page is leaving for the
   * callback (`leaving`). Throws SvcClientError for other refusals.
   */
  async pay(): Promise<SubmitResponse | null> {
    if (!this.configured) {
      this.#options.showErrors([this.#say('element.paymentsNotConfigured')]);
      return null;
    }
    const { session } = this.#options;
    this.#clearShownError();
    try {
      this.#setStatus(this.#say('element.checkingAnswers'));
      const { stripe, elements, intentId } = await this.#mount();
      // The service checks that the intent charges what the values give; the latest values are
      // priced first. An invalid amount field is not sent: the checkpoint's local check refuses it.
      clearTimeout(this.#timer);
      if (Object.keys(this.#amountProblems()).length === 0) {
        this.#requestedKey = this.#key();
        await this.#updateAmount(false);
      }
      const refusal = await checkpointPayment(session, this.config, intentId);
      if (refusal) {
        this.#setStatus(this.#shownAmount());
        return refusal;
      }
      this.#setStatus(this.#say('element.processingPayment'));
      const checked = await elements.submit();
      if (checked.error) return this.#cardFailed(checked.error.message);
      const returnUrl = paymentReturnUrl(session.client, this.config, intentId);
      // A 3-D Secure card: Stripe.js takes the page to the challenge and this never resolves.
      const result = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl }, redirect: 'if_required' });
      if (result.error) return this.#cardFailed(result.error.message);
      // Paid without a redirect: the callback stores the submission and shows the outcome.
      this.leaving = true;
      this.#setStatus(this.#say('element.paymentAccepted'));
      globalThis.location.assign(paymentCompletionUrl(returnUrl, intentId));
      return null;
    } catch (error) {
      this.#setStatus(this.#shownAmount());
      if (!(error instanceof SvcClientError) || error.code !== 'PAYMENT_AMOUNT_INVALID') throw error;
      this.#shownError = 'amount';
      this.#options.showErrors([error.message]);
      return null;
    }
  }

  /** The form is gone (submitted, reloaded): the Payment Element goes with it. */
  remove(): void {
    clearTimeout(this.#timer);
    void this.#mounted?.then(({ element }) => element.unmount(), () => undefined);
    this.container.remove();
  }

  #mount(): Promise<Mounted> {
    if (this.#mounted) return this.#mounted;
    const { session } = this.#options;
    const { config } = this;
    this.#mountFailed = false;
    const key = this.#key();
    this.#requestedKey = key;
    this.#setStatus(this.#say('element.loadingPaymentForm'));
    const mounting = Promise.all([loadStripe(config.scriptUrl as string, config.publishableKey as string), createPaymentIntent(session, config)]).then(
      ([stripe, intent]) => {
        const labels = config.floatingLabels ? 'floating' : 'above';
        const elements = stripe.elements({ clientSecret: intent.secret, appearance: { theme: config.theme, labels } });
        const element = elements.create('payment', { layout: config.layout });
        element.on('change', (event) => {
          this.#cardEmpty = event.empty === true;
          if (this.#shownError === 'card') this.#clearShownError();
        });
        element.mount(this.#mountPoint);
        this.#showAmount(intent.amount, intent.currency, key);
        return { stripe, elements, element, intentId: intent.id };
      },
    );
    this.#mounted = mounting;
    mounting.catch(() => {
      this.#mounted = null;
      this.#mountFailed = true;
      this.#setStatus(this.#say('element.paymentFormFailed'));
    });
    return mounting;
  }

  /**
   * Re-prices the intent; one request at a time, so an old amount never lands after a newer one.
   * `report`: a failure is shown on the field here (a background update), else only thrown.
   */
  #updateAmount(report: boolean): Promise<void> {
    const run = async () => {
      const mounted = this.#mounted;
      if (!mounted) return;
      const { elements, intentId } = await mounted;
      // The request is built from the values now; the amount it answers belongs to these.
      const key = this.#key();
      this.#setStatus(this.#say('element.updatingAmount'));
      try {
        const updated = await updatePaymentAmount(this.#options.session, this.config, intentId);
        this.#showAmount(updated.amount, updated.currency, key);
        if (this.#shownError === 'amount') this.#clearShownError();
        // Stripe's fields follow the intent (some payment methods depend on the amount).
        await elements.fetchUpdates();
      } catch (error) {
        // An amount the payer has yet to choose is theirs to fix, not a failure to report; no
        // amount is shown for it (the last good one would be stale).
        const invalid = error instanceof SvcClientError && error.code === 'PAYMENT_AMOUNT_INVALID';
        if (invalid) this.#showAmount(null, this.config.currency, key);
        else this.#setStatus(this.#shownAmount());
        if (!report) throw error;
        if (invalid) this.#shownError = 'amount';
        this.#options.showErrors([messageOf(error, this.#language)], invalid ? undefined : error);
        throw error;
      }
    };
    const next = this.#updating.then(run, run);
    this.#updating = next.catch(() => undefined);
    return next;
  }

  #cardFailed(message: string | undefined): null {
    this.#setStatus(this.#shownAmount());
    this.#shownError = 'card';
    this.#options.showErrors([message || this.#say('element.paymentCheckCard')]);
    return null;
  }

  #clearShownError(): void {
    if (this.#shownError === null) return;
    this.#shownError = null;
    this.#options.showErrors([]);
  }

  /** The amount the intent now charges for the values `key` names (null: none can be charged). */
  #showAmount(minor: number | null, currency: string, key: string): void {
    this.#amountText = minor === null ? '' : this.#say('element.amountToPay', { amount: formatAmount(minor, currency, this.#language) });
    this.#pricedKey = key;
    this.#setStatus(this.#shownAmount());
  }

  /** The priced amount while the amount fields still hold what it was priced for, else nothing. */
  #shownAmount(): string {
    return this.#key() === this.#pricedKey ? this.#amountText : '';
  }

  /** Local problems of the shown amount fields (a number out of its bounds, not a number). */
  #amountProblems(): Record<string, string[]> {
    const { session } = this.#options;
    const hidden = computeVisibility(session.model, session.normalisedValues()).hiddenFields;
    const fields = session.model.fields.filter((f) => this.config.amountFields.includes(f.handle as string) && !hidden.has(f.handle as string));
    return validateValues(fields, session.values, session.normalisedValues(), session.messages).errors;
  }

  get #language(): string {
    return this.#options.session.language;
  }

  #say(key: MessageKey, values?: Readonly<Record<string, string | number>>): string {
    return formatMessage(this.#language, key, values);
  }

  #setStatus(text: string): void {
    this.#statusText = text;
    // Only a real change is written: a live region repeats whatever is rewritten into it.
    if (this.#status && this.#status.textContent !== text) this.#status.textContent = text;
  }

  /** The amount fields' values, a hidden one counting as empty, as the service computes the amount. */
  #key(): string {
    const { session } = this.#options;
    const hidden = computeVisibility(session.model, session.normalisedValues()).hiddenFields;
    return JSON.stringify(this.config.amountFields.map((handle) => (hidden.has(handle) ? null : (session.values[handle] ?? null))));
  }
}
