/**
 * The other origins a hosted page must allow for a form's captcha or card payment (issue #36
 * items 1 and 3): the script each names in the manifest (`scriptUrl`, as configured) and the
 * frames, APIs and styles that provider's script is documented to use. A script from any other
 * origin (svc's offline Stripe double on its own port, a captcha stand-in, a mirror) may frame
 * and call its own origin and nothing else: the Stripe double's fake Stripe.js calls the double
 * as Stripe.js calls api.stripe.com. Nothing is allowed for a form without a captcha or payment.
 */

export interface ThirdParties {
  readonly script: readonly string[];
  readonly frame: readonly string[];
  readonly connect: readonly string[];
  readonly style: readonly string[];
}

/** What each provider's script loads beyond its own origin (their CSP guides). */
const PROVIDERS: readonly { readonly host: RegExp; readonly add: Partial<ThirdParties> }[] = [
  { host: /(^|\.)google\.com$|(^|\.)gstatic\.com$|(^|\.)recaptcha\.net$/, add: { script: ['https://www.google.com', 'https://www.gstatic.com'], frame: ['https://www.google.com', 'https://recaptcha.google.com'] } },
  { host: /(^|\.)hcaptcha\.com$/, add: { script: ['https://hcaptcha.com', 'https://*.hcaptcha.com'], frame: ['https://hcaptcha.com', 'https://*.hcaptcha.com'], connect: ['https://hcaptcha.com', 'https://*.hcaptcha.com'], style: ['https://hcaptcha.com', 'https://*.hcaptcha.com'] } },
  { host: /(^|\.)challenges\.cloudflare\.com$/, add: { frame: ['https://challenges.cloudflare.com'] } },
  { host: /(^|\.)stripe\.com$/, add: { frame: ['https://js.stripe.com', 'https://hooks.stripe.com'], connect: ['https://api.stripe.com'] } },
];

/** Every `scriptUrl` in the manifest (captchas under `security`, a payment field's config). */
function scriptUrls(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) scriptUrls(item, out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'scriptUrl' && typeof inner === 'string') out.push(inner);
      else scriptUrls(inner, out);
    }
  }
  return out;
}

/**
 * @example
 * thirdParties(manifest.data).script; // ['https://challenges.cloudflare.com'] for a Turnstile form
 */
export function thirdParties(manifest: unknown): ThirdParties {
  const sets = { script: new Set<string>(), frame: new Set<string>(), connect: new Set<string>(), style: new Set<string>() };
  for (const raw of scriptUrls(manifest)) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue; // a path: svc's own ('self')
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') continue;
    sets.script.add(url.origin);
    const provider = PROVIDERS.find((known) => known.host.test(url.hostname));
    if (!provider) {
      sets.frame.add(url.origin);
      sets.connect.add(url.origin);
      continue;
    }
    for (const kind of ['script', 'frame', 'connect', 'style'] as const) for (const origin of provider.add[kind] ?? []) sets[kind].add(origin);
  }
  return { script: [...sets.script], frame: [...sets.frame], connect: [...sets.connect], style: [...sets.style] };
}
