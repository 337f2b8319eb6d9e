/**
 * Captcha verification (issue #4): reCAPTCHA v2/v3, hCaptcha and Turnstile share one protocol, a
 * form-encoded POST of secret + response to the provider's verify URL. A captcha counts only when
 * the form enables it and its provider has keys configured; then a missing or rejected response
 * fails, and so does a provider that cannot be reached (fail closed).
 */
import type { Form } from '@svc/core';
import type { Config } from '../config/config-schema.js';
import type { NameValue } from '../submissions/submit-request.js';

export const CAPTCHA_FIELD_NAMES = {
  recaptchaV2: 'g-recaptcha-response',
  recaptchaV3: 'g-recaptcha-response',
  hcaptcha: 'h-captcha-response',
  turnstile: 'cf-turnstile-response',
} as const;

export type CaptchaProvider = keyof typeof CAPTCHA_FIELD_NAMES;

export interface ActiveCaptcha {
  readonly provider: CaptchaProvider;
  /** The field name the response is sent under (contract §2 `security.captchas[].name`). */
  readonly name: string;
  readonly siteKey: string;
  /** The provider's script the element loads (reCAPTCHA v3's with the site key filled in). */
  readonly scriptUrl: string;
  /** reCAPTCHA v3 only: the action the element asks tokens for (null: the element's default). */
  readonly action?: string | null;
}

export type CaptchaVerdict = 'ok' | 'failed' | 'unavailable';

export interface CaptchaVerifier {
  activeFor(form: Form): ActiveCaptcha | null;
  verify(form: Form, responses: readonly NameValue[] | undefined, ip: string | null): Promise<CaptchaVerdict>;
}

function isProvider(value: unknown): value is CaptchaProvider {
  return typeof value === 'string' && Object.hasOwn(CAPTCHA_FIELD_NAMES, value);
}

export function createCaptchaVerifier(config: Config['captcha'], fetchImpl: typeof fetch = fetch): CaptchaVerifier {
  const activeFor = (form: Form): ActiveCaptcha | null => {
    const { enabled, provider: own } = form.settings.captcha;
    const provider = own ?? config.provider;
    if (!enabled || !isProvider(provider)) return null;
    const keys = config[provider];
    if (!keys.siteKey || !keys.secretKey) return null;
    const scriptUrl = keys.scriptUrl.replaceAll('{siteKey}', encodeURIComponent(keys.siteKey));
    const active: ActiveCaptcha = { provider, name: CAPTCHA_FIELD_NAMES[provider], siteKey: keys.siteKey, scriptUrl };
    return provider === 'recaptchaV3' ? { ...active, action: config.recaptchaV3.action } : active;
  };

  return {
    activeFor,
    async verify(form, responses, ip) {
      const active = activeFor(form);
      if (!active) return 'ok';
      const response = responses?.find((r) => r.name === active.name)?.value;
      if (!response || response.length > 10_000) return 'failed';
      const settings = config[active.provider];
      const body = new URLSearchParams({ secret: settings.secretKey as string, response });
      if (ip) body.set('remoteip', ip);
      let answer: { success?: unknown; score?: unknown; action?: unknown };
      try {
        const res = await fetchImpl(settings.verifyUrl, {
          method: 'POST',
          body,
          redirect: 'error',
          signal: AbortSignal.timeout(config.timeoutMs),
        });
        if (!res.ok) return 'unavailable';
        answer = (await res.json()) as typeof answer;
      } catch {
        return 'unavailable';
      }
      if (answer.success !== true) return 'failed';
      if (active.provider === 'recaptchaV3') {
        const v3 = config.recaptchaV3;
        if (typeof answer.score !== 'number' || answer.score < v3.scoreThreshold) return 'failed';
        if (v3.action !== null && answer.action !== v3.action) return 'failed';
      }
      return 'ok';
    },
  };
}
