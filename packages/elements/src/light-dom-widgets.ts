/**
 * The parts of `<svc-form>` that live in light DOM, because their providers' scripts cannot reach
 * into a shadow root: captcha widgets (captcha-widgets.ts) and Stripe's Payment Element
 * (payment-flow.ts). Each is appended to the element and shown through a named slot.
 */
import type { FormSession } from '@svc/client';
import { paymentFieldOf } from '@svc/client/payments';
import { CaptchaWidgets } from './captcha-widgets.js';
import { PaymentFlow } from './payment-flow.js';

/**
 * The session's captchas in a container appended to `host`, or null when it has none.
 *
 * @example
 * const captchas = mountCaptchas(element, session, (error) => showFormError(error));
 */
export function mountCaptchas(host: HTMLElement, session: FormSession, report: (error: unknown) => void): CaptchaWidgets | null {
  if ((session.manifest.security.captchas ?? []).length === 0) return null;
  const captchas = new CaptchaWidgets(session, report);
  host.append(captchas.container);
  return captchas;
}

/**
 * The form's payment field (a form has at most one) and its flow, or null when it has none.
 * `show` puts messages on the field (none clears them); `error`, when given, is reported.
 *
 * @example
 * const payment = mountPayment(element, session, (handle, messages) => showFieldMessages(targets, handle, messages));
 */
export function mountPayment(
  host: HTMLElement,
  session: FormSession,
  show: (handle: string, messages: readonly string[], error?: unknown) => void,
): PaymentFlow | null {
  const field = paymentFieldOf(session.manifest);
  if (!field) return null;
  const payment: PaymentFlow = new PaymentFlow({ session, field, showErrors: (messages, error) => show(payment.handle, messages, error) });
  host.append(payment.container);
  return payment;
}
