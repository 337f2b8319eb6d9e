/**
 * The part of Stripe.js `<svc-form>` uses (the Payment Element and confirmPayment), typed here
 * rather than taken from @stripe/stripe-js so the element keeps no runtime dependency. The
 * service's offline Stripe double implements the same subset, so tests and the demo run it too.
 */
import { loadScript, waitForGlobal } from './script-loader.js';

/**
 * What Stripe.js answers instead of throwing: a card error, a decline, an incomplete form.
 *
 * @example
 * const { error }: StripeResult = await elements.submit(); // error.message: 'Your card number is incomplete.'
 */
export interface StripeResult {
  readonly error?: { readonly type?: string; readonly code?: string; readonly message?: string };
}

/**
 * The Payment Element: Stripe's own fields (in iframes), mounted into an element of the page.
 *
 * @example
 * const element: StripePaymentElement = elements.create('payment', { layout: 'tabs' });
 * element.mount(lightDomContainer);
 */
export interface StripePaymentElement {
  mount(target: HTMLElement): void;
  unmount(): void;
  /** `change` reports `{complete, empty}` as the payer types. */
  on(event: 'change', handler: (event: { readonly complete?: boolean; readonly empty?: boolean }) => void): unknown;
  focus?(): void;
}

/**
 * @example
 * const elements: StripeElements = stripe.elements({ clientSecret, appearance: { theme: 'stripe', labels: 'above' } });
 * await elements.fetchUpdates(); // after the service changed the intent's amount
 */
export interface StripeElements {
  create(type: 'payment', options: { readonly layout: string }): StripePaymentElement;
  /** Checks the fields and collects what confirmPayment needs; errors are the payer's to fix. */
  submit(): Promise<StripeResult>;
  /** Re-reads the intent (its amount changed on the server). */
  fetchUpdates(): Promise<StripeResult>;
}

/**
 * @example
 * const stripe: StripeApi = await loadStripe(scriptUrl, publishableKey);
 * const { error } = await stripe.confirmPayment({ elements, confirmParams: { return_url }, redirect: 'if_required' });
 */
export interface StripeApi {
  elements(options: { readonly clientSecret: string; readonly appearance: { readonly theme: string; readonly labels: 'floating' | 'above' } }): StripeElements;
  /**
   * With `redirect: 'if_required'` it resolves for a card that needs no redirect; for 3-D Secure
   * it navigates the page to the bank's challenge and never resolves.
   */
  confirmPayment(options: {
    readonly elements: StripeElements;
    readonly confirmParams: { readonly return_url: string };
    readonly redirect: 'if_required';
  }): Promise<StripeResult & { readonly paymentIntent?: { readonly id: string; readonly status: string } }>;
}

type StripeConstructor = (publishableKey: string) => StripeApi;

/** One Stripe instance per key for the document, as Stripe asks (it keeps a session per instance). */
const instances = new Map<string, Promise<StripeApi>>();

/**
 * Loads Stripe.js from `scriptUrl` once and makes (or reuses) the Stripe instance for `publishableKey`.
 *
 * @example
 * const stripe = await loadStripe('https://js.stripe.com/v3/', 'pk_live_…');
 * const elements = stripe.elements({ clientSecret, appearance: { theme: 'stripe', labels: 'above' } });
 */
export function loadStripe(scriptUrl: string, publishableKey: string): Promise<StripeApi> {
  const key = `${scriptUrl} ${publishableKey}`;
  let stripe = instances.get(key);
  if (!stripe) {
    stripe = loadScript(scriptUrl, 'Stripe.js')
      .then(() => waitForGlobal<StripeConstructor>('Stripe', (value) => typeof value === 'function', 'Stripe.js'))
      .then((Stripe) => Stripe(publishableKey));
    stripe.catch(() => instances.delete(key));
    instances.set(key, stripe);
  }
  return stripe;
}
