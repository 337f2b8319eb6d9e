/**
 * The fake Stripe.js the double serves at `/v3/`: a self-contained ES2019 browser script that
 * defines `window.Stripe` with the surface the Freeform Stripe extension and svc's own client use
 * (elements, the payment element, confirmPayment, retrievePaymentIntent). It renders a plain card
 * number box instead of Stripe's iframe and talks to the double as Stripe.js talks to
 * api.stripe.com: form-encoded, with the publishable key and the client secret, across origins.
 */

/** CORS of the routes Stripe.js calls from the merchant's origin, as api.stripe.com answers them. */
export const CORS_HEADERS: Readonly<Record<string, string>> = { 'access-control-allow-origin': '*' };
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...CORS_HEADERS,
  'access-control-allow-headers': 'Content-Type, Authorization',
  'access-control-allow-methods': 'GET, POST',
  'access-control-max-age': '600',
};
export const STRIPE_JS_HEADERS: Readonly<Record<string, string>> = {
  ...CORS_HEADERS,
  'content-type': 'application/javascript; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** Test card numbers → Stripe's test PaymentMethods; other 16-digit numbers decline. */
const CARD_METHODS: Readonly<Record<string, string>> = {
  '4242424242424242': 'pm_card_visa',
  '4000002760003184': 'pm_card_authenticationRequired',
  '4000000000000002': 'pm_card_chargeDeclined',
};

/** JSON is valid JS; escaping `<` and the two line separators keeps it safe in any context. */
const toJsLiteral = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/**
 * The script text, with the double's own URL baked in.
 * @example renderStripeJs('http://127.0.0.1:4010') // "(function () { … window.Stripe = Stripe; … })();"
 */
export function renderStripeJs(doubleUrl: string): string {
  return `/* Offline Stripe.js test double (svc). No real card is charged; nothing leaves this computer. */
(function () {
  'use strict';
  var API = ${toJsLiteral(doubleUrl.replace(/\/+$/, ''))};
  var CARDS = ${toJsLiteral(CARD_METHODS)};
  var HINT = 'Test cards: 4242 4242 4242 4242 (succeeds), 4000 0027 6000 3184 (3-D Secure), 4000 0000 0000 0002 (declined).';
  var INCOMPLETE = { type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' };

  function digitsOf(value) { return String(value == null ? '' : value).replace(/\\s+/g, ''); }
  function isComplete(number) { return /^\\d{16}$/.test(number); }
  function intentIdOf(clientSecret) {
    var at = String(clientSecret || '').indexOf('_secret_');
    return at > 0 ? String(clientSecret).slice(0, at) : null;
  }
  function methodOf(number) {
    return Object.prototype.hasOwnProperty.call(CARDS, number) ? CARDS[number] : 'pm_card_chargeDeclined';
  }
  function encodeForm(params) {
    return Object.keys(params).filter(function (k) { return params[k] != null; }).map(function (k) {
      return encodeURIComponent(k) + '=' + encodeURIComponent(params[k]);
    }).join('&');
  }
  function withReturnParams(returnUrl, intent) {
    var target = new URL(returnUrl, window.location.href);
    target.searchParams.append('payment_intent', intent.id);
    target.searchParams.append('payment_intent_client_secret', intent.client_secret);
    target.searchParams.append('redirect_status', 'succeeded');
    return target.toString();
  }
  function never() { return new Promise(function () {}); }
  function connectionError(error) {
    var message = error && error.message ? error.message : String(error);
    return { error: { type: 'api_connection_error', message: 'Could not reach the Stripe test double: ' + message } };
  }
  function integrationError(message) { return Promise.resolve({ error: { type: 'invalid_request_error', message: message } }); }
  // A form-encoded POST or a plain GET is a "simple" request: no CORS preflight, as with Stripe.js.
  function call(method, path, params) {
    var init = { method: method, headers: {} };
    var url = API + path;
    if (method === 'GET') url += '?' + encodeForm(params);
    else { init.headers['Content-Type'] = 'application/x-www-form-urlencoded'; init.body = encodeForm(params); }
    return fetch(url, init).then(function (response) { return response.json(); });
  }

  function createPaymentElement(owner) {
    var handlers = Object.create(null);
    var root = null;
    var input = null;
    var value = '';
    function emit(name, payload) {
      (handlers[name] || []).slice().forEach(function (handler) {
        try { handler(payload); } catch (error) { setTimeout(function () { throw error; }, 0); }
      });
    }
    function state() {
      var number = digitsOf(value);
      return { elementType: 'payment', complete: isComplete(number), empty: number.length === 0, value: { type: 'card' } };
    }
    function build() {
      root = document.createElement('div');
      root.setAttribute('data-stripe-double', 'payment-element');
      root.style.cssText = 'border:1px solid #8c8c8c;border-radius:6px;padding:12px;font:14px/1.4 system-ui,sans-serif;';
      var title = document.createElement('p');
      title.style.cssText = 'margin:0 0 8px;font-weight:600;';
      title.textContent = 'Offline Stripe test double \\u2014 no real card is charged';
      input = document.createElement('input');
      var attributes = { type: 'text', name: 'cardnumber', autocomplete: 'off', inputmode: 'numeric', 'aria-label': 'Card number', placeholder: '4242 4242 4242 4242' };
      Object.keys(attributes).forEach(function (name) { input.setAttribute(name, attributes[name]); });
      input.style.cssText = 'box-sizing:border-box;width:100%;padding:8px;font:inherit;';
      input.value = value;
      input.addEventListener('input', function () { value = input.value; emit('change', state()); });
      input.addEventListener('focus', function () { emit('focus', { elementType: 'payment' }); });
      input.addEventListener('blur', function () { emit('blur', { elementType: 'payment' }); });
      var hint = document.createElement('p');
      hint.style.cssText = 'margin:8px 0 0;font-size:12px;color:#555;';
      hint.textContent = HINT;
      root.appendChild(title);
      root.appendChild(input);
      root.appendChild(hint);
    }
    var element = {
      mount: function (target) {
        var host = typeof target === 'string' ? document.querySelector(target) : target;
        if (!host || typeof host.appendChild !== 'function') throw new Error('IntegrationError: the mount target of the payment element was not found: ' + target);
        if (!root) build();
        host.appendChild(root);
        setTimeout(function () { emit('ready', { elementType: 'payment' }); }, 0);
      },
      unmount: function () { if (root && root.parentNode) root.parentNode.removeChild(root); },
      destroy: function () { element.unmount(); root = null; input = null; handlers = Object.create(null); owner.forget(element); },
      on: function (name, handler) { (handlers[name] = handlers[name] || []).push(handler); return element; },
      off: function (name, handler) {
        handlers[name] = (handlers[name] || []).filter(function (h) { return h !== handler; });
        return element;
      },
      update: function () {},
      focus: function () { if (input) input.focus(); },
      blur: function () { if (input) input.blur(); },
      clear: function () { value = ''; if (input) input.value = ''; emit('change', state()); },
      cardNumber: function () { return digitsOf(input ? input.value : value); }
    };
    return element;
  }

  function createElements(stripe, options) {
    var clientSecret = (options && options.clientSecret) || null;
    var payment = null;
    var elements = {
      create: function (type) {
        if (type !== 'payment') throw new Error('IntegrationError: the offline Stripe test double offers only the "payment" element, not "' + type + '".');
        if (payment) throw new Error('IntegrationError: Can only create one Element of type payment.');
        payment = createPaymentElement({ forget: function (el) { if (payment === el) payment = null; } });
        return payment;
      },
      getElement: function (type) { return type === 'payment' ? payment : null; },
      submit: function () { return Promise.resolve(isComplete(elements.cardNumber()) ? {} : { error: INCOMPLETE }); },
      fetchUpdates: function () {
        if (!clientSecret) return Promise.resolve({});
        return stripe.retrievePaymentIntent(clientSecret).then(function (result) { return result.error ? { error: result.error } : {}; });
      },
      update: function () {},
      clientSecret: function () { return clientSecret; },
      cardNumber: function () { return payment ? payment.cardNumber() : ''; }
    };
    return elements;
  }

  function Stripe(publishableKey) {
    if (typeof publishableKey !== 'string' || publishableKey.indexOf('pk_') !== 0) {
      throw new Error('IntegrationError: Invalid value for Stripe(): apiKey should be a publishable key (pk_...).');
    }
    var stripe = {
      elements: function (options) { return createElements(stripe, options); },
      retrievePaymentIntent: function (clientSecret) {
        var id = intentIdOf(clientSecret);
        if (!id) return integrationError('Invalid value for retrievePaymentIntent: clientSecret should be a client secret.');
        return call('GET', '/v1/payment_intents/' + encodeURIComponent(id), { key: publishableKey, client_secret: clientSecret })
          .then(function (body) { return body.error ? { error: body.error } : { paymentIntent: body }; }, connectionError);
      },
      confirmPayment: function (params) {
        params = params || {};
        var elements = params.elements;
        var returnUrl = (params.confirmParams || {}).return_url;
        var clientSecret = params.clientSecret || (elements && elements.clientSecret());
        var id = intentIdOf(clientSecret);
        if (!elements || typeof elements.cardNumber !== 'function') return integrationError('confirmPayment needs the elements instance that holds the payment element.');
        if (!id) return integrationError('confirmPayment needs a clientSecret (in stripe.elements() or confirmPayment()).');
        if (!returnUrl && params.redirect !== 'if_required') return integrationError('confirmPayment needs confirmParams.return_url.');
        var number = elements.cardNumber();
        if (!isComplete(number)) return Promise.resolve({ error: INCOMPLETE });
        var body = { key: publishableKey, client_secret: clientSecret, payment_method: methodOf(number), return_url: returnUrl };
        return call('POST', '/v1/payment_intents/' + encodeURIComponent(id) + '/confirm', body).then(function (intent) {
          if (intent.error) return { error: intent.error };
          if (intent.status === 'requires_action' && intent.next_action && intent.next_action.redirect_to_url) {
            window.location.assign(intent.next_action.redirect_to_url.url);
            return never();
          }
          if (intent.status === 'succeeded' && params.redirect !== 'if_required') {
            window.location.assign(withReturnParams(returnUrl, intent));
            return never();
          }
          return { paymentIntent: intent };
        }, connectionError);
      }
    };
    return stripe;
  }

  window.Stripe = Stripe;
})();
`;
}
