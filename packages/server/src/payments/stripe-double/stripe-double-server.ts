/**
 * A local stand-in for api.stripe.com and js.stripe.com (issue #12) on a real loopback HTTP server.
 * svc's integration tests point the official `stripe` SDK at it, Chromium loads its fake Stripe.js,
 * and the offline demo (`npm start` without Stripe keys) pays through it. It signs its events with
 * the SDK's own helper and POSTs them to one webhook, which must be on loopback: nothing it does
 * reaches beyond this computer. Tests can fail, hang, replay and reorder what it sends.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { answerReturnPage, answerThreeDs } from './stripe-double-3ds-page.js';
import {
  assertKnownParams, decodePathSegment, FormParamError, isBrowserPath, parseFormBody, readApiKey, readBodyText, readRoute, refuseExpand,
  type FormParams, type Route,
} from './stripe-double-form-body.js';
import {
  createStripeLedger, missingResource, raise, randomAlnum, StripeDoubleError,
  type StripeErrorBody, type StripeEvent, type StripePaymentIntent, type StripeTestCard,
} from './stripe-double-intents.js';
import { CORS_HEADERS, PREFLIGHT_HEADERS, renderStripeJs, STRIPE_JS_HEADERS } from './stripe-js-fake.js';

export type { StripeCharge, StripeEvent, StripePaymentIntent, StripeRefund, StripeTestCard } from './stripe-double-intents.js';

export interface StripeDoubleWebhook { readonly url: string; readonly secret: string }

export interface StripeDoubleOptions {
  /** Defaults: '127.0.0.1' and 0 (an ephemeral port). */
  readonly host?: string; readonly port?: number;
  /** Where events are POSTed, signed with `secret`; a loopback URL. null = none until setWebhook(). */
  readonly webhook?: StripeDoubleWebhook | null;
  /** Defaults: 'sk_test_svc_double' and 'pk_test_svc_double'. */
  readonly secretKey?: string; readonly publishableKey?: string;
}

/** One /v1 request: `path` without the query, `params` from query and body, the key that authenticated it. */
export interface StripeDoubleRequest {
  readonly method: string; readonly path: string; readonly params: Record<string, unknown>; readonly key: 'secret' | 'publishable' | null;
}

/** One webhook POST: the receiver's status, or null and the error when it did not answer. */
export interface StripeDoubleDelivery { readonly eventId: string; readonly status: number | null; readonly error: string | null }

export interface StripeDouble {
  /** `http://127.0.0.1:<port>`, and the fake Stripe.js at `${url}/v3/`. */
  readonly url: string; readonly jsUrl: string; readonly host: string; readonly port: number;
  readonly secretKey: string; readonly publishableKey: string;
  setWebhook(webhook: StripeDoubleWebhook | null): void;
  /** A stored intent (a deep copy), or undefined. */
  intent(id: string): StripePaymentIntent | undefined;
  intents(): StripePaymentIntent[];
  /** Confirm as if the customer paid with a test card, like the confirm route; a decline resolves with the failed intent. */
  confirm(id: string, card: StripeTestCard): Promise<StripePaymentIntent>;
  /** Finish a 3-D Secure challenge as the page's buttons do. */
  completeAction(id: string, outcome: 'succeeded' | 'failed'): Promise<StripePaymentIntent>;
  /** Refund what is left of the succeeded intent's charge (emits charge.refunded and refund.created). */
  refund(id: string): Promise<void>;
  /** Every event created so far, oldest first. */
  events(): StripeEvent[];
  /** POST an existing event to the webhook again; resolves with the receiver's status, 0 when it did not answer. */
  resend(eventId: string): Promise<number>;
  /** POST events one after another in the given order (for out-of-order tests). */
  deliver(eventIds: readonly string[]): Promise<void>;
  /** When false, events are created but not POSTed (tests deliver them by hand). Default true. */
  autoDeliver(on: boolean): void;
  /** Resolves when every webhook POST started so far has finished (answered or failed). */
  settled(): Promise<void>;
  /** The next `count` /v1 requests answer 500 api_error, or hang unanswered until close(). */
  failNext(count: number, mode: 500 | 'hang'): void;
  /** Every /v1 request received, oldest first. */
  readonly requests: readonly StripeDoubleRequest[];
  /** Every webhook POST made, oldest first. */
  readonly deliveries: readonly StripeDoubleDelivery[];
  /** Forget intents, events, requests, deliveries, idempotency keys and fault injection; auto delivery back on. */
  reset(): void;
  close(): Promise<void>;
}

interface Answer { readonly status: number; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> }

const DELIVERY_TIMEOUT_MS = 5000;
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
const TEST_CARDS: Readonly<Record<StripeTestCard, string>> = { succeeds: 'pm_card_visa', requires_action: 'pm_card_authenticationRequired', declined: 'pm_card_chargeDeclined' };

const apiError = (status: number, error: StripeErrorBody | ReturnType<FormParamError['toStripeError']>): Answer => ({ status, body: { error } });
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function checkWebhook(webhook: StripeDoubleWebhook | null): StripeDoubleWebhook | null {
  if (!webhook) return null;
  const url = new URL(webhook.url);
  if (!/^https?:$/.test(url.protocol) || !LOOPBACK_HOST.test(url.hostname)) throw new Error(`stripe double: webhooks go to loopback URLs only, not ${webhook.url}`);
  return { url: webhook.url, secret: webhook.secret };
}

function sendJson(res: ServerResponse, answer: Answer, headers: Readonly<Record<string, string>>): void {
  const base = { 'content-type': 'application/json', 'request-id': `req_${randomAlnum(14)}`, 'stripe-version': Stripe.API_VERSION };
  res.writeHead(answer.status, { ...base, ...headers, ...answer.headers }).end(JSON.stringify(answer.body, null, 2));
}

export async function startStripeDouble(options: StripeDoubleOptions = {}): Promise<StripeDouble> {
  const host = options.host ?? '127.0.0.1';
  const secretKey = options.secretKey ?? 'sk_test_svc_double';
  const publishableKey = options.publishableKey ?? 'pk_test_svc_double';
  let webhook = checkWebhook(options.webhook ?? null);
  let autoDeliver = true;
  let url = '';
  const faults: { count: number; mode: 500 | 'hang' } = { count: 0, mode: 500 };
  const requests: StripeDoubleRequest[] = [];
  const deliveries: StripeDoubleDelivery[] = [];
  const idempotent = new Map<string, { readonly fingerprint: string; readonly answer: Answer }>();
  const hanging = new Set<ServerResponse>();
  const inFlight = new Set<Promise<unknown>>();
  const closing = new AbortController();
  // Automatic deliveries go one at a time in creation order; deliver() exists for other orders.
  let queue: Promise<unknown> = Promise.resolve();

  const track = <T>(promise: Promise<T>): Promise<T> => {
    const done = () => inFlight.delete(promise);
    inFlight.add(promise);
    promise.then(done, done);
    return promise;
  };

  async function post(event: StripeEvent): Promise<number> {
    const target = webhook;
    if (!target) return 0;
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: target.secret });
    try {
      const headers = { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature, 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' };
      const signal = AbortSignal.any([AbortSignal.timeout(DELIVERY_TIMEOUT_MS), closing.signal]);
      const response = await fetch(target.url, { method: 'POST', redirect: 'manual', headers, body: payload, signal });
      await response.arrayBuffer();
      deliveries.push({ eventId: event.id, status: response.status, error: null });
      return response.status;
    } catch (error) {
      // Like Stripe, a failed delivery is only recorded; it never disturbs the API.
      deliveries.push({ eventId: event.id, status: null, error: messageOf(error) });
      return 0;
    }
  }

  const eventsToSend = (ids: readonly string[]): StripeEvent[] => {
    if (!webhook) throw new Error('stripe double: no webhook is set');
    return ids.map((id) => ledger.event(id) ?? raise(new Error(`stripe double: no event ${id}`)));
  };

  const ledger = createStripeLedger({
    apiVersion: Stripe.API_VERSION,
    actionUrl: (id, returnUrl) => `${url}/3ds/${encodeURIComponent(id)}?return_url=${encodeURIComponent(returnUrl)}`,
    onEvent: (event) => {
      if (webhook && autoDeliver) queue = track(queue.then(() => post(event)));
    },
  });

  function answerApi(req: IncomingMessage, method: string, path: string, params: FormParams, key: StripeDoubleRequest['key']): Answer {
    const route = readRoute(method, path);
    if (!route) return apiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
    if (key === null || (key === 'publishable' && !route.browser)) return apiError(401, { type: 'invalid_request_error', message: 'Invalid API Key provided' });
    const clientSecret = ledger.clientSecretOf(route.id);
    if (key === 'publishable' && (clientSecret === undefined || params['client_secret'] !== clientSecret)) return apiError(404, missingResource('payment_intent', route.id, 'intent').error);
    const idempotencyKey = method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const fingerprint = `${path}\n${JSON.stringify(params)}`;
    const saved = typeof idempotencyKey === 'string' ? idempotent.get(idempotencyKey) : undefined;
    if (saved && saved.fingerprint !== fingerprint) {
      return apiError(400, { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${String(idempotencyKey)}'.` });
    }
    if (saved) return { ...saved.answer, headers: { 'idempotent-replayed': 'true' } };
    // Stripe.js authenticates with these two; they are not parameters of the call itself.
    const own: FormParams = route.browser ? Object.fromEntries(Object.entries(params).filter(([k]) => k !== 'key' && k !== 'client_secret')) : params;
    const calls = {
      create: () => ledger.create(own),
      list: () => ledger.list(own),
      retrieve: () => {
        assertKnownParams(own, ['expand']);
        return ledger.retrieve(route.id);
      },
      update: () => ledger.update(route.id, own),
      cancel: () => ledger.cancel(route.id, own),
      confirm: () => ledger.confirm(route.id, own),
      refund: () => ledger.refund(own),
    } satisfies Record<Route['name'], () => unknown>;
    let answer: Answer;
    try {
      refuseExpand(own);
      answer = { status: 200, body: calls[route.name]() };
    } catch (error) {
      if (error instanceof StripeDoubleError) answer = apiError(error.status, error.error);
      else if (error instanceof FormParamError) answer = apiError(400, error.toStripeError());
      else answer = apiError(500, { type: 'api_error', message: `The Stripe test double failed: ${messageOf(error)}` });
    }
    // Stripe keeps a result once the endpoint ran (a success or a card decline), not a refused input.
    if (typeof idempotencyKey === 'string' && (answer.status < 300 || answer.status === 402)) idempotent.set(idempotencyKey, { fingerprint, answer });
    return answer;
  }

  function handleApi(req: IncomingMessage, res: ServerResponse, method: string, target: URL, body: string | null): void {
    const path = target.pathname;
    if (method === 'OPTIONS' && isBrowserPath(path)) return void res.writeHead(204, PREFLIGHT_HEADERS).end();
    const cors = readRoute(method, path)?.browser ? CORS_HEADERS : {};
    let params: FormParams = {};
    let refused: Answer | null = body === null ? apiError(413, { type: 'invalid_request_error', message: 'The request body is too large.' }) : null;
    try {
      params = { ...parseFormBody(target.search.slice(1)), ...(method === 'POST' ? parseFormBody(body ?? '') : {}) };
    } catch (error) {
      if (!(error instanceof FormParamError)) throw error;
      refused ??= apiError(400, error.toStripeError());
    }
    const presented = readApiKey(req, params);
    const key = presented === secretKey ? 'secret' : presented === publishableKey ? 'publishable' : null;
    requests.push({ method, path, params, key });
    if (faults.count > 0) {
      faults.count -= 1;
      if (faults.mode === 500) return sendJson(res, apiError(500, { type: 'api_error', message: 'An unexpected error occurred (injected by the Stripe test double).' }), cors);
      hanging.add(res);
      return void res.once('close', () => hanging.delete(res));
    }
    sendJson(res, refused ?? answerApi(req, method, path, params, key), cors);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const target = new URL(req.url ?? '/', 'http://double.invalid');
    const body = await readBodyText(req);
    if (target.pathname.startsWith('/v1/')) return handleApi(req, res, method, target, body);
    const threeDs = /^\/3ds\/([^/]+)$/.exec(target.pathname);
    const threeDsId = threeDs ? decodePathSegment(threeDs[1] as string) : null;
    const page = threeDsId !== null ? answerThreeDs(ledger, method, threeDsId, target.searchParams, body ?? '') : target.pathname === '/return' ? answerReturnPage(target.searchParams) : null;
    if (page) return void res.writeHead(page.status, page.headers).end(page.body);
    if (target.pathname === '/v3/' || target.pathname === '/v3') {
      if (method === 'OPTIONS') return void res.writeHead(204, PREFLIGHT_HEADERS).end();
      return void res.writeHead(200, STRIPE_JS_HEADERS).end(method === 'HEAD' ? undefined : renderStripeJs(url));
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else sendJson(res, apiError(500, { type: 'api_error', message: `The Stripe test double failed: ${messageOf(error)}` }), {});
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const double: StripeDouble = {
    url, host, port, secretKey, publishableKey, jsUrl: `${url}/v3/`, requests, deliveries,
    setWebhook: (next) => void (webhook = checkWebhook(next)),
    intent: (id) => (ledger.clientSecretOf(id) === undefined ? undefined : ledger.retrieve(id)),
    intents: () => ledger.intents(),
    async confirm(id, card) {
      try {
        return ledger.confirm(id, { payment_method: TEST_CARDS[card], return_url: `${url}/return` });
      } catch (error) {
        if (error instanceof StripeDoubleError && error.status === 402) return ledger.retrieve(id);
        throw error;
      }
    },
    completeAction: async (id, outcome) => ledger.completeAction(id, outcome),
    refund: async (id) => void ledger.refund({ payment_intent: id }),
    events: () => ledger.events(),
    resend: async (eventId) => track(post(eventsToSend([eventId])[0] as StripeEvent)),
    async deliver(eventIds) {
      for (const event of eventsToSend(eventIds)) await track(post(event));
    },
    autoDeliver: (on) => void (autoDeliver = on),
    async settled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    failNext: (count, mode) => void Object.assign(faults, { count, mode }),
    reset() {
      ledger.reset();
      requests.length = 0;
      deliveries.length = 0;
      idempotent.clear();
      faults.count = 0;
      autoDeliver = true;
    },
    async close() {
      closing.abort();
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await double.settled();
    },
  };
  return double;
}
