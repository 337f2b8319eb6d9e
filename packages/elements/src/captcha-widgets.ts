/**
 * Captchas for `<svc-form>`: the manifest's `security.captchas` entries, rendered with each
 * provider's explicit-render API. Providers do not work inside shadow roots, so their scripts go
 * into document.head and their widgets into a light-DOM `<div slot="captcha">` of the element,
 * which the form shows through `<slot name="captcha">` above the submit button of its last page.
 * Tokens reach the server through `session.setCaptcha` (`meta.captchas`).
 */
import type { FormSession, ManifestCaptcha } from '@svc/client';
import { h } from './dom-builder.js';
import { loadScript, waitForGlobal } from './script-loader.js';

/** What Turnstile, hCaptcha and reCAPTCHA share: `render(el, options)` and `reset(id)`. */
interface WidgetApi {
  render(element: HTMLElement, options: Record<string, unknown>): unknown;
  reset?(widgetId?: unknown): void;
  execute?(siteKey: string, options: { action: string }): Promise<string>;
  ready?(callback: () => void): void;
}

const GLOBALS: Readonly<Record<string, string>> = { turnstile: 'turnstile', hcaptcha: 'hcaptcha', recaptchaV2: 'grecaptcha', recaptchaV3: 'grecaptcha' };

/** Which widget an entry needs: the manifest names reCAPTCHA as Freeform does, `recaptcha` with a version. */
function kindOf(entry: ManifestCaptcha): string {
  if (entry.provider !== 'recaptcha') return entry.provider;
  return entry.version === 'v3' ? 'recaptchaV3' : 'recaptchaV2';
}

/** The provider's global once its script has set it up (reCAPTCHA also via `ready`). */
async function apiOf(entry: ManifestCaptcha): Promise<WidgetApi> {
  const name = GLOBALS[kindOf(entry)];
  if (!name) throw new Error(`Unknown captcha provider ${entry.provider}.`);
  const scriptUrl = typeof entry.scriptUrl === 'string' ? entry.scriptUrl : null;
  if (scriptUrl) await loadScript(scriptUrl, 'captcha');
  const isApi = (value: unknown) => {
    const api = value as Partial<WidgetApi> | undefined;
    return !!api && (typeof api.render === 'function' || typeof api.execute === 'function');
  };
  const api = await waitForGlobal<WidgetApi>(name, isApi, `The ${entry.provider} captcha`);
  const ready = api.ready;
  if (typeof ready === 'function') await new Promise<void>((resolve) => ready.call(api, resolve));
  return api;
}

interface Widget {
  readonly entry: ManifestCaptcha;
  readonly api: Promise<WidgetApi>;
  id: unknown;
}

export class CaptchaWidgets {
  /** The light-DOM child the widgets render into; slotted into the form's last page. */
  readonly container: HTMLElement;
  readonly #session: FormSession;
  readonly #widgets: Widget[] = [];

  /** Starts loading every provider script; `failed` hears of one that cannot load. */
  constructor(session: FormSession, failed: (error: unknown) => void) {
    this.#session = session;
    this.container = h('div', { slot: 'captcha', class: 'svc-captcha' });
    for (const entry of session.manifest.security.captchas ?? []) {
      const widget: Widget = { entry, api: apiOf(entry), id: undefined };
      this.#widgets.push(widget);
      if (kindOf(entry) === 'recaptchaV3') {
        widget.api.catch(failed); // invisible: a token is fetched per submit
        continue;
      }
      const target = h('div', { class: `svc-captcha-${kindOf(entry)}` });
      this.container.append(target);
      widget.api.then(
        (api) => {
          widget.id = api.render(target, {
            sitekey: entry.siteKey,
            callback: (token: string) => session.setCaptcha(entry.name, token),
            'expired-callback': () => session.setCaptcha(entry.name, ''),
          });
        },
        failed,
      );
    }
  }

  get count(): number {
    return this.#widgets.length;
  }

  /** reCAPTCHA v3: a fresh token right before each submit (tokens expire and are single-use). */
  async beforeSubmit(): Promise<void> {
    for (const { entry, api } of this.#widgets) {
      if (kindOf(entry) !== 'recaptchaV3') continue;
      const v3 = await api;
      if (typeof v3.execute !== 'function') throw new Error('The reCAPTCHA v3 script has no execute().');
      const action = typeof entry.action === 'string' && entry.action !== '' ? entry.action : 'submit';
      this.#session.setCaptcha(entry.name, await v3.execute(entry.siteKey, { action }));
    }
  }

  /** After `captcha_failed`: the used token is dropped and each widget asks again. */
  reset(): void {
    for (const widget of this.#widgets) {
      this.#session.setCaptcha(widget.entry.name, '');
      if (kindOf(widget.entry) === 'recaptchaV3') continue;
      void widget.api.then((api) => api.reset?.(widget.id), () => undefined);
    }
  }

  remove(): void {
    this.container.remove();
  }
}
