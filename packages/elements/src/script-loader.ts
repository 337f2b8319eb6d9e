/**
 * Third-party scripts the form needs (captcha providers, Stripe.js): each URL is added to
 * document.head once for the whole document, however many forms ask for it. Providers' scripts
 * do not work inside shadow roots, so they always go into the document itself.
 */
import { h } from './dom-builder.js';

const scripts = new Map<string, Promise<void>>();

/**
 * Resolves once the script at `url` has loaded; `what` names it in the error when it cannot.
 *
 * @example
 * await loadScript('https://js.stripe.com/v3/', 'Stripe.js');
 */
export function loadScript(url: string, what: string): Promise<void> {
  let loading = scripts.get(url);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = h('script', { src: url, async: true });
      script.addEventListener('load', () => resolve());
      script.addEventListener('error', () => reject(new Error(`The ${what} script ${url} could not be loaded.`)));
      document.head.append(script);
    });
    // A failed load is not cached, so a later form (or a reload of this one) tries again.
    loading.catch(() => scripts.delete(url));
    scripts.set(url, loading);
  }
  return loading;
}

/**
 * The global a script defines, once it is there (some define it a moment after `load`).
 *
 * @example
 * const Stripe = await waitForGlobal<StripeConstructor>('Stripe', (value) => typeof value === 'function', 'Stripe.js');
 */
export async function waitForGlobal<T>(name: string, ready: (value: unknown) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  let value = (globalThis as Record<string, unknown>)[name];
  while (!ready(value)) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} did not load.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = (globalThis as Record<string, unknown>)[name];
  }
  return value as T;
}
