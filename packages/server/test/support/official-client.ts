/**
 * An emulator of the official Freeform headless client (core 0.1.16 under @solspace/freeform-react
 * 1.1.0, with the recommended extensions), brand-swapped to svc (contract §12): manifest load and
 * version check, CSRF, the submit of every intent (JSON or multipart), captcha tokens in `meta`,
 * and the stock buttons. Drag-and-drop uploads and the demos' GraphQL fetch adapter are in
 * official-client-extensions.ts, the form state in official-client-state.ts, renderer selection in
 * official-client-renderers.ts, and request recording in official-client-recorder.ts.
 *
 * Written from the research notes (/tmp/research/*.md) in our own structure; no Freeform code.
 */
import { createRecorder, type Recorder } from './official-client-recorder.js';
import {
  buttonIntent,
  formSubmitIntent,
  OfficialFormState,
  stockButtons,
  type FormStateOptions,
  type OfficialCaptcha,
  type OfficialField,
  type OfficialManifest,
  type OfficialSubmitResponse,
  type StockButton,
  type SubmitIntent,
} from './official-client-state.js';

export const REACT_CLIENT = '@solspace/freeform-react';
export const REACT_CLIENT_VERSION = '1.1.0';
export const CORE_CLIENT_VERSION = '0.1.16';

/** The names `recommendedExtensions` registers, in their `beforeSubmit` order. */
export const REGISTERED_EXTENSIONS = [
  'captcha.turnstile', 'captcha.recaptcha', 'captcha.hcaptcha', 'captcha.friendly-captcha', 'calculation', 'datetime',
  'file-dnd', 'table', 'signature', 'payment.stripe', 'payment.square', 'payment.paypal', 'payment.mollie',
] as const;

export interface OfficialClientOptions {
  /** The `baseUrl` given to `<Freeform>`: svc's origin. */
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  readonly clientVersion?: string;
  /** `window.location.href` of the page hosting the form (sent as `context.sourceUrl`). */
  readonly pageUrl?: string;
}

/** `resolveUrl`: absolute http(s) URLs pass; otherwise base without its trailing `/` + `/` + path. */
export function resolveUrl(baseUrl: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${baseUrl.replace(/\/$/, '')}/${path.replace(/^\//, '')}`;
}

/** Dotted numeric comparison after stripping leading non-digits; prerelease tails parse to their number. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.replace(/^[^0-9]+/, '').split('.').map((p) => Number.parseInt(p, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const diff = (x[i] ?? 0) - (y[i] ?? 0);
    if (diff !== 0) return diff < 0 ? -1 : 1;
  }
  return 0;
}

export interface CsrfToken {
  readonly name: string;
  readonly value: string;
}

const CAPTCHA_NAMES: Readonly<Record<string, string>> = {
  'cf-turnstile-response': 'turnstile',
  'g-recaptcha-response': 'recaptcha',
  'h-captcha-response': 'hcaptcha',
  'frc-captcha-response': 'friendly-captcha',
};

/** `inferCaptchaProvider`: the manifest's provider, else the conventional response field name. */
export function inferCaptchaProvider(captcha: OfficialCaptcha): string | null {
  return captcha.provider || CAPTCHA_NAMES[captcha.name] || null;
}

/** Per provider, in extension order: intents that collect no token, and whether any answer resets the widget. */
const CAPTCHA_EXTENSIONS = [
  { provider: 'turnstile', skip: ['back', 'validate'], resetAlways: false },
  { provider: 'recaptcha', skip: ['back', 'validate'], resetAlways: true },
  { provider: 'hcaptcha', skip: ['back'], resetAlways: true },
  { provider: 'friendly-captcha', skip: ['back', 'validate'], resetAlways: true },
] as const;

export interface SubmitOutcome {
  readonly response: OfficialSubmitResponse;
  /** The HTTP status, or null when the client failed before an answer (thrown and shown as a form error). */
  readonly httpStatus: number | null;
}

export class OfficialClient {
  readonly recorder: Recorder;

  constructor(readonly options: OfficialClientOptions) {
    this.recorder = createRecorder(options.fetch);
  }

  get clientVersion(): string {
    return this.options.clientVersion ?? REACT_CLIENT_VERSION;
  }

  get pageUrl(): string {
    return this.options.pageUrl ?? 'http://localhost:5173/forms/demo?utm=1';
  }

  url(path: string): string {
    return resolveUrl(this.options.baseUrl, path);
  }

  /** `loadManifest({handle})`: envelope, schema and client version, then `requiredExtensions`. */
  async loadManifest(handle: string): Promise<OfficialManifest> {
    const response = await this.recorder.fetch(this.url(`/svc/api/forms/${encodeURIComponent(handle)}/manifest`), {
      credentials: 'include',
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`Failed to fetch manifest (${response.status}).`);
    const envelope = (await response.json()) as { success?: boolean; data?: OfficialManifest; message?: string };
    if (!envelope.success || !envelope.data) throw new Error(envelope.message ?? 'Manifest response was not successful.');
    const manifest = envelope.data;
    if (manifest.schemaVersion !== '1.0') throw new Error(`Unsupported manifest schema version ${String(manifest.schemaVersion)}.`);
    if (manifest.minimumClientVersion && compareVersions(this.clientVersion, manifest.minimumClientVersion) < 0) {
      throw new Error(`Manifest requires client >= ${manifest.minimumClientVersion}, but ${this.clientVersion} is installed.`);
    }
    for (const required of manifest.requiredExtensions ?? []) {
      const registered = (REGISTERED_EXTENSIONS as readonly string[]).includes(required.name);
      if (!registered && required.severity === 'error') {
        throw new Error(`Required extension "${required.name}" (${required.package}) is not registered.`);
      }
    }
    return manifest;
  }

  /** `<Freeform handle>`: load the manifest and set up the form state (draft credentials as props). */
  async open(handle: string, options: FormStateOptions = {}): Promise<OfficialForm> {
    return new OfficialForm(this, new OfficialFormState(await this.loadManifest(handle), options));
  }

  /** The submit client's CSRF read: `GET tokenEndpoint`; a token only when both name and value come back. */
  async fetchSubmitCsrf(manifest: OfficialManifest): Promise<CsrfToken | null> {
    const endpoint = manifest.security.csrf?.tokenEndpoint ?? manifest.endpoints.csrf?.url ?? '/svc/tokens';
    const response = await this.recorder.fetch(this.url(endpoint), { credentials: 'include', headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`Failed to fetch CSRF token (${response.status}).`);
    const body = (await response.json()) as { csrf?: { name?: string; value?: string } };
    return body.csrf?.name && body.csrf.value ? { name: body.csrf.name, value: body.csrf.value } : null;
  }
}

/** Files leave `values`: File/Blob values and non-empty lists of them; table file cells become `[]`. */
export function prepareSubmitValues(values: Record<string, unknown>, fields: Readonly<Record<string, OfficialField>>) {
  const out: Record<string, unknown> = {};
  const files: [string, Blob[]][] = [];
  const isFile = (v: unknown): v is Blob => v instanceof Blob;
  const fileList = (v: unknown): Blob[] | null => (isFile(v) ? [v] : Array.isArray(v) && v.length > 0 && v.every(isFile) ? v : null);
  for (const [handle, value] of Object.entries(values)) {
    const field = fields[handle];
    const table = field && (field.type === 'table' || field.frontend?.renderer === 'table' || field.frontend?.extension === 'table');
    if (table && Array.isArray(value)) {
      out[handle] = value.map((row: unknown, r) =>
        Array.isArray(row)
          ? row.map((cell: unknown, c) => {
              const list = fileList(cell);
              if (!list) return cell;
              files.push([`files[${handle}][${r}][${c}][]`, list]);
              return [];
            })
          : row,
      );
      continue;
    }
    const list = fileList(value);
    if (list) files.push([`files[${handle}][]`, list]);
    else out[handle] = value;
  }
  return { values: out, files };
}

export interface SubmitExtras {
  /** Page URL at the time of the request (default: the client's `pageUrl`). */
  readonly sourceUrl?: string;
}

/** One mounted `<Freeform>`: its state, captcha widgets, completion, and the last answer. */
export class OfficialForm {
  /** Tokens the captcha widgets hold, by `security.captchas[].name` (a solved widget, or v3's execute). */
  readonly captchaTokens = new Map<string, string>();
  isComplete = false;
  successMessage: string | null = null;
  last: SubmitOutcome | null = null;

  constructor(
    readonly client: OfficialClient,
    readonly state: OfficialFormState,
  ) {}

  get manifest(): OfficialManifest {
    return this.state.manifest;
  }

  set(values: Record<string, unknown>): this {
    for (const [handle, value] of Object.entries(values)) this.state.setValue(handle, value);
    return this;
  }

  buttons(): Partial<Record<StockButton, string>> {
    return stockButtons(this.state);
  }

  /** Clicks a stock button; the button must be shown on the current page. */
  click(button: StockButton): Promise<SubmitOutcome> {
    if (this.buttons()[button] === undefined) throw new Error(`no ${button} button on page ${this.state.currentPageIndex}`);
    return this.submit(buttonIntent(this.state, button));
  }

  /** Enter in a field: the form's onSubmit. */
  pressEnter(): Promise<SubmitOutcome> {
    return this.submit(formSubmitIntent(this.state));
  }

  /** The security meta and what each registered extension adds (`collectExtensionSubmitMeta`). */
  private buildMeta(intent: SubmitIntent): Record<string, unknown> {
    const security = this.manifest.security;
    const meta: Record<string, unknown> = {};
    if (security.honeypot?.name) meta.honeypot = { name: security.honeypot.name, value: '' };
    if (security.javascriptTest?.name) meta.javascriptTest = { name: security.javascriptTest.name, value: security.javascriptTest.value ?? '' };
    for (const extension of CAPTCHA_EXTENSIONS) {
      for (const captcha of security.captchas ?? []) {
        if (inferCaptchaProvider(captcha) !== extension.provider || (extension.skip as readonly string[]).includes(intent)) continue;
        const token = this.captchaTokens.get(captcha.name);
        if (!token) throw new Error('Timed out waiting for captcha token.');
        const entry = { name: captcha.name, value: token };
        const list = ((meta.captchas as { name: string; value: string }[] | undefined) ?? []).filter((c) => c.name !== captcha.name);
        meta.captchas = [...list, entry];
        meta.captcha = entry;
      }
    }
    return meta;
  }

  private resetCaptchas(response: OfficialSubmitResponse): void {
    for (const captcha of this.manifest.security.captchas ?? []) {
      const extension = CAPTCHA_EXTENSIONS.find((e) => e.provider === inferCaptchaProvider(captcha));
      if (!extension) continue;
      if (extension.resetAlways || response.success || response.status === 'validation_failed') this.captchaTokens.delete(captcha.name);
    }
  }

  /** `submit(intent)` of useFreeform: any thrown error becomes the single form error. */
  async submit(intent: SubmitIntent, extras: SubmitExtras = {}): Promise<SubmitOutcome> {
    let outcome: SubmitOutcome;
    try {
      outcome = await this.send(intent, extras);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.state.formErrors = [message];
      this.state.fieldErrors = {};
      this.state.pageErrors = [];
      outcome = { httpStatus: null, response: { success: false, status: 'error', complete: false, errors: { fields: {}, form: [message], page: [] } } };
    }
    this.last = outcome;
    return outcome;
  }

  /**
   * What `submit(intent)` would send, and what extensions' `beforeSubmit` receive as
   * `context.values`, `.context` and `.meta` (the Stripe extension posts them to the checkpoint).
   */
  submitBody(intent: SubmitIntent, extras: SubmitExtras = {}) {
    const { manifest, client } = this;
    const { values, files } = prepareSubmitValues(this.state.getValuesForSubmit(), manifest.fields);
    const context = { ...this.state.getSubmitContext(), sourceUrl: extras.sourceUrl ?? client.pageUrl };
    const meta = { client: REACT_CLIENT, clientVersion: client.clientVersion, ...this.buildMeta(intent) };
    return { body: { values, intent, context, meta }, files };
  }

  private async send(intent: SubmitIntent, extras: SubmitExtras): Promise<SubmitOutcome> {
    const { manifest, client } = this;
    const { body, files } = this.submitBody(intent, extras);
    const csrf = manifest.security.csrf?.required ? await client.fetchSubmitCsrf(manifest) : null;
    const url = client.url(manifest.endpoints.submit.url);
    let init: RequestInit;
    if (files.length > 0) {
      const form = new FormData();
      form.append('_svc', JSON.stringify(body));
      if (csrf) form.append(csrf.name, csrf.value);
      for (const [key, list] of files) for (const file of list) form.append(key, file);
      init = { method: 'POST', credentials: 'include', headers: { Accept: 'application/json' }, body: form };
    } else {
      const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
      if (csrf) headers['X-CSRF-Token'] = csrf.value;
      init = { method: 'POST', credentials: 'include', headers, body: JSON.stringify(body) };
    }
    const answer = await client.recorder.fetch(url, init);
    const parsed = (await answer.json()) as Partial<OfficialSubmitResponse>;
    const response = { ...parsed, errors: { fields: {}, form: [], page: [], ...(parsed.errors ?? {}) } } as OfficialSubmitResponse;
    this.state.applySubmitResponse(response);
    this.resetCaptchas(response);
    if (response.complete) {
      this.isComplete = true;
      this.successMessage = response.message ?? manifest.settings.successMessage ?? 'Thank you for your submission.';
    }
    return { response, httpStatus: answer.status };
  }
}

export function createOfficialClient(options: OfficialClientOptions): OfficialClient {
  return new OfficialClient(options);
}
