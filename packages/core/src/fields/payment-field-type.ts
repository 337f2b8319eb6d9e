import { FIELD_MESSAGES, type FieldMessages } from './field-messages.js';
import { accept, reject, withDefault, type FieldTypeChecks } from './field-type-spec.js';

/** A gateway's intent id (`pi_…` at Stripe); anything else is not something a client was given. */
const INTENT_ID = /^[A-Za-z0-9_]{3,255}$/;

/**
 * The value of a payment field is the id of the payment intent the client created for it, as the
 * official Stripe extension sets it (contract §12). It proves nothing: the payment itself is
 * checked with the gateway at the checkpoint and when the submission is made (contract §8).
 */
export const paymentFieldChecks: FieldTypeChecks<'payment'> = {
  type: 'payment',
  normalise: (_field, raw, messages = FIELD_MESSAGES) => {
    if (raw === undefined || raw === null || raw === '') return accept(null);
    return typeof raw === 'string' && INTENT_ID.test(raw) ? accept(raw) : reject(messages.invalidPayment);
  },
  validate: () => [],
};
export const paymentFieldType = /* @__PURE__ */ withDefault(paymentFieldChecks, () => null);
