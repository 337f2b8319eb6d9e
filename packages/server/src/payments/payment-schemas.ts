/**
 * The payment routes (contract §8) as JSON Schema, for the OpenAPI document (issue #16), shaped as
 * the official Stripe extension calls them.
 */
import { Type } from '@sinclair/typebox';
import { BODY_ERRORS, errorEnvelope, errorResponses, GUARDED_ERRORS, LIMITED_ERRORS } from '../http/error-schemas.js';
import { described, emptyResponse, htmlResponse, metaOf, pathParams, routeSchema } from '../http/route-schema.js';
import { FORM_HANDLE } from '../forms/manifest-schemas.js';
import { SubmitObject, SubmitRequestBody } from '../submissions/submit-schemas.js';

const PAYMENT_ERRORS = [...BODY_ERRORS, ...GUARDED_ERRORS, ...LIMITED_ERRORS, 422, 502] as const;

// null counts as absent for both keys (the service reads them with ??).
const IntentBody = Type.Object({
  values: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'The form values the amount is computed from.' })),
  integration: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: "The payment field's integration token from the manifest (or the FF-STRIPE-INTEGRATION header)." }),
  ),
});
const intentHeaders = Type.Object({
  'x-csrf-token': Type.Optional(Type.String()),
  'ff-stripe-integration': Type.Optional(Type.String({ description: 'The integration token, as the official extension sends it.' })),
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

export const paymentIntentSchema = routeSchema({
  summary: 'Create a payment intent for a payment field',
  tags: ['payments'],
  headers: intentHeaders,
  body: IntentBody,
  response: {
    201: described('The intent: id and client secret at the top, as Freeform answers.', Type.Object(
      { success: Type.Literal(true), id: Type.String(), secret: Type.String({ description: 'The client secret Stripe.js confirms with.' }), amount: Type.Integer(), currency: Type.String() },
      { additionalProperties: false },
    )),
    ...errorResponses(...PAYMENT_ERRORS),
  },
});

export const paymentAmountSchema = routeSchema({
  summary: "Update an intent's amount after the values changed",
  tags: ['payments'],
  params: pathParams({ id: 'The payment intent id.' }),
  headers: intentHeaders,
  body: IntentBody,
  response: {
    200: described('Updated (no client secret: the card need not be entered again).', Type.Object({ success: Type.Literal(true), id: Type.String(), amount: Type.Integer(), currency: Type.String() }, { additionalProperties: false })),
    ...errorResponses(...PAYMENT_ERRORS),
  },
});

export const paymentCheckpointSchema = routeSchema({
  summary: 'Validate the form before the card is charged, and keep its values for the payment',
  description: 'A final submit (intent submit) naming the payment intent; the submission is stored once the payment succeeds.',
  tags: ['payments'],
  params: pathParams(FORM_HANDLE),
  headers: Type.Object({ 'x-csrf-token': Type.Optional(Type.String()), 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
  body: Type.Composite([Type.Omit(SubmitRequestBody, ['intent']), Type.Object({ intent: Type.Optional(Type.Literal('submit')), paymentIntentId: Type.String(), integration: Type.String() })]),
  response: {
    200: Type.Union([
      Type.Object({ success: Type.Literal(true), data: Type.Object({ paymentIntentId: Type.String() }), meta: metaOf() }, { additionalProperties: false }),
      SubmitObject,
    ], { description: 'Checked and held until the payment completes; or the submit object of a refusal answered 200.' }),
    422: Type.Union([SubmitObject, errorEnvelope(422)], { description: 'Refused values (the submit object) or a payment amount that is not valid.' }),
    ...errorResponses(...PAYMENT_ERRORS.filter((status) => status !== 422)),
  },
});

export const paymentCallbackSchema = routeSchema({
  summary: "Where the payer's browser lands after paying",
  description: "Finishes the payment as the webhook would and sends the payer to the field's success or failure URL, or shows a page.",
  tags: ['payments'],
  querystring: Type.Object({
    payment_intent: Type.Optional(Type.String()),
    stripe_token: Type.Optional(Type.String()),
    token: Type.Optional(Type.String()),
    integration: Type.Optional(Type.String()),
    site: Type.Optional(Type.String({ description: "The site whose language the page is drawn in (issue #34); absent or unknown: the site the payment was checkpointed on." })),
  }),
  response: {
    200: htmlResponse('Paid or processing, and the form has no URL to go to.'),
    303: emptyResponse("On to the field's success or failure URL (payment_intent and payment_status added)."),
    402: htmlResponse('The payment did not complete and the field has no failure URL.'),
    ...errorResponses(400, 403, 404, 500, 502, 503),
  },
});

export const paymentWebhookSchema = routeSchema({
  summary: "Stripe's signed webhook",
  description: 'The exact bytes Stripe sent, signed in Stripe-Signature; every authentic event gets a 2xx.',
  tags: ['payments'],
  headers: Type.Object({ 'stripe-signature': Type.String() }),
  body: { content: { 'application/json': { schema: Type.Object({}, { description: 'A Stripe event.' }) } } },
  response: {
    200: described('Received (every authentic event, handled or not).', Type.Object({ received: Type.Literal(true), handled: Type.Unsafe<string>({ type: 'string', enum: ['ignored', 'recorded', 'replayed'] }) }, { additionalProperties: false })),
    ...errorResponses(400, 413, 415, 500, 502, 503),
  },
});
