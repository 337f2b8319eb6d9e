/**
 * What a hosted page's CSP allows for a captcha or payment (issue #36 item 3): for a known
 * provider, its script's origin and what its CSP guide lists; for a script from any other origin
 * (svc's Stripe double, a captcha stand-in), that origin as script, frame and API, and nothing
 * more; for a form without either, nothing. The manifest shapes are the ones svc sends.
 */
import { describe, expect, it } from 'vitest';
import { thirdParties } from './hosted-third-parties.js';

const payment = (scriptUrl: string | null) => ({ fields: { gift: { type: 'select' }, pay: { type: 'payment', frontend: { config: { gateway: 'stripe', scriptUrl } } } } });
const captcha = (scriptUrl: string) => ({ security: { captchas: [{ provider: 'turnstile', siteKey: 'k', scriptUrl }] } });

describe('the third parties of a hosted page', () => {
  it("allows Stripe.js, its frames and Stripe's API for a card payment, nothing else", () => {
    expect(thirdParties(payment('https://js.stripe.com/v3/'))).toEqual({
      script: ['https://js.stripe.com'],
      frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
      connect: ['https://api.stripe.com'],
      style: [],
    });
  });

  it("allows the Stripe double's origin as script, frame and API: its fake Stripe.js calls the double", () => {
    expect(thirdParties(payment('http://127.0.0.1:4010/v3/'))).toEqual({
      script: ['http://127.0.0.1:4010'],
      frame: ['http://127.0.0.1:4010'],
      connect: ['http://127.0.0.1:4010'],
      style: [],
    });
  });

  it("allows Turnstile's script and frame, and a stand-in captcha's own origin", () => {
    expect(thirdParties(captcha('https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit'))).toEqual({
      script: ['https://challenges.cloudflare.com'],
      frame: ['https://challenges.cloudflare.com'],
      connect: [],
      style: [],
    });
    expect(thirdParties(captcha('http://127.0.0.1:5173/fake/turnstile.js')).connect).toEqual(['http://127.0.0.1:5173']);
  });

  it('allows nothing for a form without a captcha or payment, a script on svc itself, or a URL that is no web address', () => {
    const none = { script: [], frame: [], connect: [], style: [] };
    expect(thirdParties({ fields: { name: { type: 'text' } }, security: { honeypot: { name: 'x' } } })).toEqual(none);
    expect(thirdParties(payment(null))).toEqual(none);
    expect(thirdParties(captcha('/svc/fake/turnstile.js'))).toEqual(none);
    expect(thirdParties(captcha('javascript:alert(1)'))).toEqual(none);
  });
});
