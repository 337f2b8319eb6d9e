/**
 * The payment field (issue #12): a fieldset whose body shows the form's PaymentFlow container
 * (Stripe's Payment Element, kept in light DOM because Stripe cannot mount in a shadow root)
 * through a named slot, and a status line saying what the payment is doing or why it cannot be made.
 */
import { h } from './dom-builder.js';
import type { ControlView, FieldRenderContext } from './field-view.js';
import { paymentsNotConfigured } from './payment-flow.js';

/**
 * @example
 * const view = renderPayment({ ...ctx, payment: flow }); // <slot name="payment-HANDLE"> + status line
 */
export function renderPayment(ctx: FieldRenderContext): ControlView {
  const flow = ctx.payment ?? null;
  const status = h('p', { part: 'payment-status', class: 'payment-status', role: 'status', id: `${ctx.id}-status` });
  const body = h('div', { part: 'payment', class: 'payment' }, flow ? h('slot', { name: flow.container.slot }) : null, status);
  if (flow) flow.attach(status);
  else status.textContent = paymentsNotConfigured(ctx.session.language);
  return { layout: 'group', body, described: [], focusTarget: () => flow?.focusTarget() ?? null };
}
