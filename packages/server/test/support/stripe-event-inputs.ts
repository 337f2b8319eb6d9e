/**
 * Stripe webhook bodies that carry a valid signature but not a readable event (issue #32 items 5
 * and 6), for the fuzz suite and the edge-input tests. A signature proves who sent the bytes, not
 * their shape: every one of these must answer 400 with a catalogue code and store nothing, never a
 * 500 that Stripe would retry for days.
 */
import Stripe from 'stripe';
import { randomJson, randomWord, type Rng } from './fuzz-inputs.js';

const intentObject = (id: string) => ({ id, object: 'payment_intent', amount: 2500, currency: 'usd', status: 'succeeded', created: 1, metadata: {} });
const event = (fields: Record<string, unknown>): Record<string, unknown> => ({ id: 'evt_malformed', object: 'event', type: 'payment_intent.succeeded', created: 1, ...fields });

/** The named cases of the issue and their neighbours, each a JSON text (or not quite JSON). */
export function malformedStripeEvents(intentId: string): readonly (readonly [string, string])[] {
  const good = event({ data: { object: intentObject(intentId) } });
  const { id: _id, ...withoutId } = good;
  const { data: _data, ...withoutData } = good;
  const cases: [string, unknown][] = [
    ['data: null', event({ data: null })],
    ['data: {}', event({ data: {} })],
    ['data absent', withoutData],
    ['a JSON array body', [good]],
    ['an empty JSON array', []],
    ['an event without id', withoutId],
    ['an empty id', { ...good, id: '' }],
    ['a numeric id', { ...good, id: 7 }],
    ['data.object a string', event({ data: { object: 'pi_x' } })],
    ['data.object null', event({ data: { object: null } })],
    ['data.object an array', event({ data: { object: [intentObject(intentId)] } })],
    ['no type', { ...good, type: null }],
    ['no created time', { ...good, created: 'yesterday' }],
    ['an intent without amount', event({ data: { object: { ...intentObject(intentId), amount: undefined } } })],
    ['an intent whose amount is text', event({ data: { object: { ...intentObject(intentId), amount: '2500' } } })],
    ['an intent whose metadata is text', event({ data: { object: { ...intentObject(intentId), metadata: 'integration' } } })],
    ['an intent without id', event({ data: { object: { ...intentObject(intentId), id: undefined } } })],
    ['a refund without amounts', event({ type: 'charge.refunded', data: { object: { id: 'ch_1', payment_intent: intentId } } })],
    ['a refund naming its intent by a number', event({ type: 'charge.refunded', data: { object: { id: 'ch_1', amount: 2500, amount_refunded: 2500, payment_intent: 42 } } })],
    ['a dispute naming its intent by an object without id', event({ type: 'charge.dispute.created', data: { object: { id: 'dp_1', payment_intent: {} } } })],
    ['null', null],
    ['a string', 'evt'],
    ['a number', 42],
  ];
  return [...cases.map(([name, value]) => [name, JSON.stringify(value)] as const), ['not JSON', '{"id":"evt_cut","data":{'], ['an empty body', '']];
}

/** One of the cases above, or an event whose `data` is random JSON that is not an object. */
export function malformedStripeEvent(rng: Rng, intentId: string): string {
  if (rng.chance(0.7)) return rng.pick(malformedStripeEvents(intentId))[1];
  let data = randomJson(rng, 2);
  while (typeof data === 'object' && data !== null && !Array.isArray(data)) data = randomJson(rng, 2);
  return JSON.stringify(event({ id: `evt_${randomWord(rng, 1, 20)}`, data: rng.chance(0.5) ? data : { object: data } }));
}

/** The `Stripe-Signature` header the Stripe SDK checks, made with the configured webhook secret. */
export function stripeSignature(payload: string, secret: string): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret });
}
