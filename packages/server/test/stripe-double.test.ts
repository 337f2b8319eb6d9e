/**
 * The local Stripe double (issue #12), exercised with the official `stripe` SDK over loopback: the
 * REST surface svc uses, Stripe's error shapes, fault injection, signed webhooks and the routes the
 * fake Stripe.js calls from a browser.
 */
import { Script } from 'node:vm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseFormBody } from '../src/payments/stripe-double/stripe-double-form-body.js';
import { startStripeDouble, type StripeDouble } from '../src/payments/stripe-double/stripe-double-server.js';
import { startHttpReceiver, type HttpReceiver } from './support/http-receiver.js';

const WEBHOOK_SECRET = 'whsec_test_stripe_double_0123456789';

let double: StripeDouble;
let receiver: HttpReceiver;
let stripe: Stripe;

const sdk = (key: string, extra: Stripe.StripeConfig = {}) =>
  new Stripe(key, { host: '127.0.0.1', port: double.port, protocol: 'http', maxNetworkRetries: 0, telemetry: false, ...extra });
const form = (params: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() });
const raw = (path: string, init: RequestInit = {}) => fetch(`${double.url}${path}`, { redirect: 'manual', ...init });
const authed = (path: string, init: RequestInit = {}) => raw(path, { ...init, headers: { authorization: `Bearer ${double.secretKey}`, ...init.headers } });
const newIntent = (amount = 2000) => stripe.paymentIntents.create({ amount, currency: 'usd', automatic_payment_methods: { enabled: true } });
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected the call to fail'), (error: unknown) => error as InstanceType<typeof Stripe.errors.StripeError>);
const receivedEvents = () => receiver.on('/hook').map((r) => stripe.webhooks.constructEvent(r.rawBody, String(r.headers['stripe-signature']), WEBHOOK_SECRET));

beforeAll(async () => {
  receiver = await startHttpReceiver();
  double = await startStripeDouble({ webhook: { url: receiver.url('/hook'), secret: WEBHOOK_SECRET } });
  stripe = sdk(double.secretKey);
});
afterAll(async () => {
  await double?.close();
  await receiver?.close();
});
beforeEach(async () => {
  await double.settled();
  double.reset();
  double.setWebhook({ url: receiver.url('/hook'), secret: WEBHOOK_SECRET });
  receiver.reset();
});

describe('the Stripe double, through the stripe SDK', () => {
  it('creates a PaymentIntent in Stripe’s shape and retrieves the same object', async () => {
    const created = await stripe.paymentIntents.create({ amount: 1250, currency: 'EUR', description: 'Donation', metadata: { integration: 'int_1' }, automatic_payment_methods: { enabled: true } });
    expect(created).toMatchObject({ object: 'payment_intent', amount: 1250, amount_received: 0, currency: 'eur', description: 'Donation', status: 'requires_payment_method', metadata: { integration: 'int_1' }, livemode: false, latest_charge: null, next_action: null });
    expect(created.id).toMatch(/^pi_[A-Za-z0-9]{24}$/);
    expect(created.client_secret).toMatch(new RegExp(`^${created.id}_secret_[A-Za-z0-9]{24}$`));
    expect(await stripe.paymentIntents.retrieve(created.id)).toEqual(created);
    expect(double.requests[0]).toMatchObject({ method: 'POST', path: '/v1/payment_intents', key: 'secret', params: { amount: '1250', metadata: { integration: 'int_1' }, automatic_payment_methods: { enabled: 'true' } } });
  });

  it('merges metadata on update and removes a key set to the empty string', async () => {
    const pi = await stripe.paymentIntents.create({ amount: 500, currency: 'usd', metadata: { keep: '1', drop: '2' } });
    const updated = await stripe.paymentIntents.update(pi.id, { amount: 700, metadata: { drop: '', added: '3' } });
    expect(updated).toMatchObject({ amount: 700, metadata: { keep: '1', added: '3' } });
    expect(updated.metadata).not.toHaveProperty('drop');
  });

  it('lists newest first, filters on created and pages through everything with auto-pagination', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 25; i += 1) ids.push((await newIntent(100 + i)).id);
    const first = await stripe.paymentIntents.list({ limit: 10 });
    expect(first).toMatchObject({ object: 'list', has_more: true, url: '/v1/payment_intents' });
    expect(first.data.map((pi) => pi.id)).toEqual(ids.slice().reverse().slice(0, 10));
    const all: string[] = [];
    for await (const pi of stripe.paymentIntents.list({ limit: 10, created: { gte: 0 } })) all.push(pi.id);
    expect(all).toEqual(ids.slice().reverse());
    expect((await stripe.paymentIntents.list({ created: { gt: Math.floor(Date.now() / 1000) + 60 } })).data).toEqual([]);
  });

  it('cancels with the given reason and refuses to cancel or update a second time', async () => {
    const pi = await newIntent();
    expect(await stripe.paymentIntents.cancel(pi.id, { cancellation_reason: 'abandoned' })).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned', canceled_at: expect.any(Number) });
    for (const call of [stripe.paymentIntents.cancel(pi.id), stripe.paymentIntents.update(pi.id, { amount: 900 })]) {
      expect(await failure(call)).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', code: 'payment_intent_unexpected_state' });
    }
  });

  it('confirms pm_card_visa to succeeded with a charge, and refunds it once', async () => {
    const pi = await newIntent(3000);
    const paid = await stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' });
    expect(paid).toMatchObject({ status: 'succeeded', amount_received: 3000, last_payment_error: null });
    expect(paid.latest_charge).toMatch(/^ch_/);
    expect(paid.payment_method).toMatch(/^pm_/);
    const refund = await stripe.refunds.create({ payment_intent: pi.id });
    expect(refund).toMatchObject({ object: 'refund', amount: 3000, currency: 'usd', payment_intent: pi.id, status: 'succeeded' });
    const refunded = double.events().find((e) => e.type === 'charge.refunded');
    expect(refunded?.data.object).toMatchObject({ object: 'charge', id: paid.latest_charge, amount: 3000, amount_refunded: 3000, refunded: true, payment_intent: pi.id });
    expect(double.events().map((e) => e.type)).toEqual(['payment_intent.created', 'charge.succeeded', 'payment_intent.succeeded', 'charge.refunded', 'refund.created']);
    expect(await failure(stripe.refunds.create({ payment_intent: pi.id }))).toMatchObject({ code: 'charge_already_refunded' });
  });

  it('answers a declined card with a 402 card_error and returns the intent to requires_payment_method', async () => {
    const pi = await newIntent();
    const error = await failure(stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_chargeDeclined' }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({ statusCode: 402, code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' });
    expect(double.intent(pi.id)).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'card_declined', type: 'card_error' } });
    expect(double.events().at(-1)?.type).toBe('payment_intent.payment_failed');
  });

  it('sends pm_card_authenticationRequired to a 3-D Secure page whose buttons redirect back with 303', async () => {
    const returnUrl = 'http://127.0.0.1:9/thanks?form=donation';
    const outcomes = [['succeeded', 'succeeded'], ['failed', 'requires_payment_method']] as const;
    for (const [outcome, status] of outcomes) {
      const pi = await newIntent();
      const pending = await stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_authenticationRequired', return_url: returnUrl });
      expect(pending).toMatchObject({ status: 'requires_action', next_action: { type: 'redirect_to_url', redirect_to_url: { return_url: returnUrl } } });
      const pageUrl = pending.next_action?.redirect_to_url?.url ?? '';
      expect(pageUrl.startsWith(`${double.url}/3ds/${pi.id}?return_url=`)).toBe(true);
      const page = await (await fetch(pageUrl)).text();
      expect(page).toContain('Stripe test double — 3-D Secure (offline, no real card)');
      expect(page).toContain(`<form method="post" action="/3ds/${pi.id}">`);
      const answer = await raw(`/3ds/${pi.id}`, form({ outcome, return_url: returnUrl }));
      expect(answer.status).toBe(303);
      const location = new URL(answer.headers.get('location') ?? '');
      expect(Object.fromEntries(location.searchParams)).toEqual({ form: 'donation', payment_intent: pi.id, payment_intent_client_secret: pi.client_secret, redirect_status: outcome });
      expect(double.intent(pi.id)?.status).toBe(status);
    }
    expect(double.intents()[1]?.last_payment_error?.code).toBe('payment_intent_authentication_failure');
  });

  it('plays a customer’s payment from the test helpers: 3-D Secure, then a refund', async () => {
    const pi = await newIntent();
    expect((await double.confirm(pi.id, 'requires_action')).status).toBe('requires_action');
    expect((await double.completeAction(pi.id, 'succeeded')).status).toBe('succeeded');
    await double.refund(pi.id);
    expect(double.events().map((e) => e.type)).toContain('charge.refunded');
    expect((await double.confirm((await newIntent()).id, 'declined')).last_payment_error?.code).toBe('card_declined');
  });

  it('refuses a wrong secret key with 401 and an unknown intent with resource_missing', async () => {
    const bad = await failure(sdk('sk_test_wrong').paymentIntents.list());
    expect(bad).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(bad).toMatchObject({ statusCode: 401, message: 'Invalid API Key provided' });
    const missing = await failure(stripe.paymentIntents.retrieve('pi_unknown'));
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'intent' });
  });

  it('replays the first answer for a repeated Idempotency-Key and refuses it for other parameters', async () => {
    const params = { amount: 4200, currency: 'usd' };
    const first = await stripe.paymentIntents.create(params, { idempotencyKey: 'order-1' });
    const again = await stripe.paymentIntents.create(params, { idempotencyKey: 'order-1' });
    expect(again.id).toBe(first.id);
    expect(double.intents()).toHaveLength(1);
    expect(await failure(stripe.paymentIntents.create({ ...params, amount: 1 }, { idempotencyKey: 'order-1' }))).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('fails the next call with a 500 api_error, or hangs it until the SDK times out, when told to', async () => {
    double.failNext(1, 500);
    expect(await failure(newIntent())).toMatchObject({ statusCode: 500, type: 'StripeAPIError' });
    double.failNext(1, 'hang');
    expect(await failure(sdk(double.secretKey, { timeout: 300 }).paymentIntents.list())).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect((await stripe.paymentIntents.list()).data).toHaveLength(0);
    expect(double.requests.map((r) => r.path)).toEqual(['/v1/payment_intents', '/v1/payment_intents', '/v1/payment_intents']);
  });

  it('answers unknown routes, unknown parameters and malformed bodies with Stripe-shaped errors', async () => {
    const answers = [
      [await authed('/v1/customers'), 404, undefined],
      [await authed('/v1/payment_intents', form({ amount: '100', currency: 'usd', colour: 'red' })), 400, 'parameter_unknown'],
      [await authed('/v1/payment_intents', form({ amount: 'ten', currency: 'usd' })), 400, 'parameter_invalid_integer'],
      [await authed('/v1/payment_intents', form({ 'metadata[a': 'x', amount: '100', currency: 'usd' })), 400, 'parameter_invalid'],
      [await authed('/v1/payment_intents', form({ currency: 'usd' })), 400, 'parameter_missing'],
    ] as const;
    for (const [answer, status, code] of answers) {
      expect(answer.status).toBe(status);
      expect(await answer.json()).toMatchObject({ error: { type: 'invalid_request_error', ...(code ? { code } : {}), message: expect.any(String) } });
    }
  });
});

describe('the Stripe double’s webhooks', () => {
  it('POSTs every event signed so that stripe.webhooks.constructEvent accepts it', async () => {
    const pi = await newIntent();
    await stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' });
    await double.settled();
    const events = receivedEvents();
    expect(events.map((e) => e.type)).toEqual(['payment_intent.created', 'charge.succeeded', 'payment_intent.succeeded']);
    expect(events.map((e) => e.id)).toEqual(double.events().map((e) => e.id));
    expect(events.map((e) => e.id)).toEqual(events.map((e) => e.id).sort());
    expect(events[2]).toMatchObject({ object: 'event', api_version: Stripe.API_VERSION, livemode: false, data: { object: { id: pi.id, status: 'succeeded' } } });
    expect(receiver.on('/hook')[0]?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(() => stripe.webhooks.constructEvent(receiver.on('/hook')[0]?.rawBody ?? '', String(receiver.on('/hook')[0]?.headers['stripe-signature']), 'whsec_other')).toThrow();
  });

  it('holds events while auto delivery is off, then delivers them in the order asked and replays one', async () => {
    double.autoDeliver(false);
    await double.confirm((await newIntent()).id, 'succeeds');
    await double.settled();
    expect(receiver.on('/hook')).toHaveLength(0);
    const ids = double.events().map((e) => e.id).reverse();
    await double.deliver(ids);
    expect(receivedEvents().map((e) => e.id)).toEqual(ids);
    expect(await double.resend(ids[0] as string)).toBe(200);
    expect(receivedEvents().map((e) => e.id)).toEqual([...ids, ids[0]]);
  });

  it('records a failed delivery without disturbing the API, and sends only to loopback', async () => {
    receiver.script('/hook', 500);
    await newIntent();
    await double.settled();
    expect(double.deliveries).toEqual([expect.objectContaining({ status: 500, error: null })]);
    double.setWebhook({ url: 'http://127.0.0.1:9/closed', secret: WEBHOOK_SECRET });
    await newIntent();
    await double.settled();
    expect(double.deliveries[1]).toMatchObject({ status: null, error: expect.any(String) });
    expect(() => double.setWebhook({ url: 'https://hooks.example.com/stripe', secret: WEBHOOK_SECRET })).toThrow(/loopback/);
  });
});

describe('the Stripe double’s browser side', () => {
  it('lets Stripe.js retrieve and confirm with the publishable key and the client secret, across origins', async () => {
    const pi = await newIntent();
    const browser = { key: double.publishableKey, client_secret: pi.client_secret ?? '' };
    const retrieved = await raw(`/v1/payment_intents/${pi.id}?${new URLSearchParams(browser)}`, { headers: { origin: 'http://localhost:5173' } });
    expect(retrieved.headers.get('access-control-allow-origin')).toBe('*');
    expect(await retrieved.json()).toMatchObject({ id: pi.id, status: 'requires_payment_method' });
    const wrongSecret = await raw(`/v1/payment_intents/${pi.id}?${new URLSearchParams({ ...browser, client_secret: `${pi.id}_secret_nope` })}`);
    expect([wrongSecret.status, (await wrongSecret.json()).error.code]).toEqual([404, 'resource_missing']);
    expect((await raw(`/v1/payment_intents?key=${double.publishableKey}`)).status).toBe(401);
    const preflight = await raw(`/v1/payment_intents/${pi.id}/confirm`, { method: 'OPTIONS' });
    expect([preflight.status, preflight.headers.get('access-control-allow-headers')]).toEqual([204, 'Content-Type, Authorization']);
    const confirmed = await raw(`/v1/payment_intents/${pi.id}/confirm`, form({ ...browser, payment_method: 'pm_card_visa' }));
    expect(await confirmed.json()).toMatchObject({ status: 'succeeded' });
    expect(double.requests.at(-1)).toMatchObject({ key: 'publishable', path: `/v1/payment_intents/${pi.id}/confirm` });
  });

  it('serves the fake Stripe.js as JavaScript that defines window.Stripe and knows the double’s URL', async () => {
    const answer = await fetch(double.jsUrl);
    expect(answer.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    const source = await answer.text();
    expect(source).toContain('window.Stripe = Stripe');
    expect(source).toContain(JSON.stringify(double.url));
    expect(() => new Script(source)).not.toThrow();
  });
});

describe('parseFormBody', () => {
  it('reads bracket keys into nested objects and lists, as the SDK writes them', () => {
    const parsed = parseFormBody('amount=100&metadata[integration]=x&automatic_payment_methods[enabled]=true&created[gte]=123&expand[0]=latest_charge&types[]=card&types[]=link&note=a+b%26c');
    expect(parsed).toEqual({ amount: '100', metadata: { integration: 'x' }, automatic_payment_methods: { enabled: 'true' }, created: { gte: '123' }, expand: ['latest_charge'], types: ['card', 'link'], note: 'a b&c' });
  });

  it('drops every key that could reach a prototype', async () => {
    const parsed = parseFormBody('__proto__[polluted]=1&a[__proto__][polluted]=1&constructor[prototype][polluted]=1&b[constructor]=x&%5F%5Fproto%5F%5F[polluted]=1&ok=1');
    expect(parsed).toEqual({ ok: '1' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    const pi = await authed('/v1/payment_intents', form({ amount: '100', currency: 'usd', 'metadata[__proto__]': 'x', 'metadata[safe]': 'y' }));
    expect((await pi.json()).metadata).toEqual({ safe: 'y' });
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });
});
