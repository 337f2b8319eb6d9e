import { describe, expect, it } from 'vitest';
import type { ManifestField } from './manifest-types.js';
import { paymentCompletionUrl, paymentConfigOf, paymentReturnUrl } from './payment-requests.js';
import { createClient } from './svc-client.js';

const INTEGRATION = 'form-uid.field-uid.sig_-AZ09';

function paymentField(config: Record<string, unknown>): ManifestField {
  return { handle: 'payment', type: 'stripe', frontend: { renderer: 'stripe', extension: 'payment.stripe', config } } as unknown as ManifestField;
}

describe('paymentReturnUrl', () => {
  it('names the callback on the service with the integration and the intent as stripe_token', () => {
    const client = createClient({ baseUrl: 'https://forms.example.com' });
    const url = paymentReturnUrl(client, { callbackUrl: '/svc/payments/stripe/callback', integration: INTEGRATION }, 'pi_123');
    expect(url).toBe(`https://forms.example.com/svc/payments/stripe/callback?integration=${INTEGRATION}&stripe_token=pi_123`);
  });

  it('keeps a base URL path, as every other request of the client does', () => {
    const client = createClient({ baseUrl: 'https://example.com/forms' });
    const url = new URL(paymentReturnUrl(client, { callbackUrl: '/svc/payments/stripe/callback', integration: 'a b&c' }, 'pi_9'));
    expect(url.pathname).toBe('/forms/svc/payments/stripe/callback');
    // An integration is opaque: whatever it holds comes back intact.
    expect(url.searchParams.get('integration')).toBe('a b&c');
    expect(url.searchParams.get('stripe_token')).toBe('pi_9');
  });

  it('uses an absolute callback URL as given', () => {
    const client = createClient({ baseUrl: 'https://forms.example.com' });
    expect(paymentReturnUrl(client, { callbackUrl: 'https://pay.example.com/cb', integration: 'x' }, 'pi_1')).toBe('https://pay.example.com/cb?integration=x&stripe_token=pi_1');
  });
});

describe('paymentCompletionUrl', () => {
  it('adds payment_intent to the return URL, as Stripe does after a redirect', () => {
    const completed = paymentCompletionUrl('https://forms.example.com/svc/payments/stripe/callback?integration=x&stripe_token=pi_1', 'pi_1');
    expect(completed).toBe('https://forms.example.com/svc/payments/stripe/callback?integration=x&stripe_token=pi_1&payment_intent=pi_1');
  });
});

describe('paymentConfigOf', () => {
  it('reads the frontend config the service sends', () => {
    const config = paymentConfigOf(
      paymentField({
        gateway: 'stripe',
        publishableKey: 'pk_test_1',
        scriptUrl: 'https://js.stripe.com/v3/',
        integration: INTEGRATION,
        intentUrl: '/i',
        amountUrlTemplate: '/i/{paymentIntentId}/amount',
        checkpointUrl: '/svc/api/forms/donation/payments/stripe/checkpoint',
        callbackUrl: '/cb',
        amountFields: ['gift', 7],
        currency: 'eur',
        theme: 'night',
        layout: 'accordion',
        floatingLabels: true,
      }),
    );
    expect(config).toEqual({
      handle: 'payment',
      publishableKey: 'pk_test_1',
      scriptUrl: 'https://js.stripe.com/v3/',
      integration: INTEGRATION,
      intentUrl: '/i',
      amountUrlTemplate: '/i/{paymentIntentId}/amount',
      checkpointUrl: '/svc/api/forms/donation/payments/stripe/checkpoint',
      callbackUrl: '/cb',
      amountFields: ['gift'],
      currency: 'eur',
      theme: 'night',
      layout: 'accordion',
      floatingLabels: true,
    });
  });

  it('says payments are off when the service has no publishable key, and fills in the defaults', () => {
    const config = paymentConfigOf(paymentField({ publishableKey: null, integration: null }));
    expect(config).toMatchObject({ publishableKey: null, integration: null, scriptUrl: null, amountFields: [], currency: 'usd', theme: 'stripe', layout: 'tabs', floatingLabels: false });
  });
});
