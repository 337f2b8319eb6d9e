/**
 * One person filling one form: values, page, state token, draft and upload token, with local
 * validation and conditional rules from @svc/core, and submits that carry CSRF and `meta`
 * exactly as the server expects (JSON, or multipart when files are attached).
 */
import { fieldMessages, normaliseFieldValue, validateValues, visibilityOf, type FieldMessages, type FieldValue, type RuleLayout, type Values, type Visibility } from '@svc/core';
import { SvcClientError, refusalError } from './client-error.js';
import { formFromManifest, ruleLayoutFromManifest, type ClientForm } from './manifest-model.js';
import type { Manifest, SubmitResponse, UploadedFile } from './manifest-types.js';
import { randomId, withPendingCell } from './pending-files.js';
import type { ProfileAccess } from './profile-access.js';
import type { SessionClient } from './client-types.js';

type Intent = 'submit' | 'next' | 'back' | 'validate' | 'saveDraft';
/** `url` and `extra`: a final submit to another route that takes the submit body (submitTo). */
type SendOptions = { readonly skipLocal?: boolean; readonly url?: string; readonly extra?: Readonly<Record<string, unknown>> };
/**
 * Messages per field handle, as the server and local validation give them.
 *
 * @example
 * const errors: FieldErrors = form.validate(); // { email: ['Enter a valid email address'] }
 */
export type FieldErrors = Readonly<Record<string, readonly string[]>>;

/**
 * @example
 * const form = await client.session('application');
 * form.setValue('fullName', 'Ann Lee');
 * const step = await form.next();          // validated locally, then by the server
 * if (step.status === 'validation_failed') showErrors(form.errors.fields);
 */
export class FormSession {
  readonly manifest: Manifest;
  readonly model: ClientForm;
  /** Raw values as the person entered them, by field handle. */
  values: Record<string, unknown> = {};
  pageIndex = 0;
  stateToken: string | null = null;
  draft: { token: string; key: string; resumeUrl: string | null } | null = null;
  errors: { fields: FieldErrors; form: readonly string[] } = { fields: {}, form: [] };
  /**
   * The BCP 47 tag local checks speak and read numbers and dates in: the manifest's
   * `site.language` (issue #34), English when it names none. A page may set another.
   *
   * @example
   * form.language = 'de-DE';
   * form.validate(); // { email: ['Geben Sie eine gültige E-Mail-Adresse ein'] }
   */
  language: string;
  /** Made on the first drag-and-drop upload; names its uploads in the submit. */
  uploadToken: string | null = null;
  /**
   * Uploads the values name whose details are known, by field handle: those uploaded in this
   * session, and a resumed draft's (its answer's `state.files`), so they can be listed by name.
   *
   * @example
   * for (const file of form.uploadedFiles.get('portfolio') ?? []) list.append(`${file.name} (${file.size} bytes)`);
   */
  readonly uploadedFiles = new Map<string, UploadedFile[]>();
  /** Files for a multipart submit, by field handle (plain file inputs). */
  readonly files = new Map<string, File[]>();
  /** Files for table `file` cells, keyed `handle/row/column`; sent as `files[handle][row][column][]`. */
  readonly cellFiles = new Map<string, { handle: string; row: number; column: number; files: File[] }>();
  private readonly captchas = new Map<string, string>();
  /** The client this session sends through (payments reuse its transport and CSRF). */
  readonly client: SessionClient;
  /** Set while a resumed draft is carried to the next request. */
  private draftContext: { draftToken: string; draftKey: string } | null = null;
  /** The manifest's conditional rules, laid out once for every visibility check. */
  private readonly rules: RuleLayout;

  /**
   * `access`: the named profile this session fills the form through (client.profileSession).
   * `site`: the site handle every step sends as `context.site` (issue #34), so the server answers
   * in that site's language; null sends none (the default site, bodies as before sites existed).
   */
  constructor(
    client: SessionClient,
    manifest: Manifest,
    readonly access: ProfileAccess | null = null,
    readonly site: string | null = null,
  ) {
    this.client = client;
    this.manifest = manifest;
    this.model = formFromManifest(manifest);
    this.language = typeof manifest.site?.language === 'string' && manifest.site.language !== '' ? manifest.site.language : 'en';
    this.rules = ruleLayoutFromManifest(manifest, this.model);
    for (const field of Object.values(manifest.fields)) {
      if (field.defaultValue !== null && field.defaultValue !== undefined) this.values[field.handle] = field.defaultValue;
    }
  }

  get totalPages(): number {
    return this.manifest.layout.pages.length;
  }

  /** @example form.setValue('email', 'ann@example.test'); */
  setValue(handle: string, value: unknown): void {
    this.values[handle] = value;
  }

  /** A captcha response (from the provider's widget) for the next submit. */
  setCaptcha(name: string, value: string): void {
    this.captchas.set(name, value);
  }

  /** Files picked for a plain file field; sent with the next submit as multipart. */
  setFiles(handle: string, files: readonly File[]): void {
    if (files.length === 0) this.files.delete(handle);
    else this.files.set(handle, [...files]);
  }

  /** Files picked for one `file` cell of a table (row and column from 0); sent like setFiles(). */
  setCellFiles(handle: string, row: number, column: number, files: readonly File[]): void {
    const key = `${handle}/${row}/${column}`;
    if (files.length === 0) this.cellFiles.delete(key);
    else this.cellFiles.set(key, { handle, row, column, files: [...files] });
  }

  /** Whether the next submit (other than `back`) goes as multipart. */
  get hasPendingFiles(): boolean {
    return this.files.size > 0 || this.cellFiles.size > 0;
  }

  /** The field messages in `language` (@svc/core's catalogue), as local validation words them. */
  get messages(): FieldMessages {
    return fieldMessages(this.language);
  }

  /** Values normalised by the field types, as rules and validation see them. */
  normalisedValues(): Values {
    const out: Record<string, FieldValue> = {};
    for (const field of this.model.fields) {
      const handle = field.handle as string;
      const outcome = normaliseFieldValue(field, this.values[handle], this.messages);
      out[handle] = outcome.ok ? outcome.value : null;
    }
    return out;
  }

  /** Which fields (by handle) and pages (by index) the conditional rules hide for the values so far. */
  private visibility(): Visibility {
    return visibilityOf(this.rules, this.normalisedValues());
  }

  /** Handles of the fields shown on a page (the current one by default), rules applied. */
  visibleFields(pageIndex = this.pageIndex): string[] {
    const visibility = this.visibility();
    if (visibility.hiddenPages.has(pageIndex)) return [];
    return this.model.fields.filter((f) => f.pageIndex === pageIndex && !visibility.hiddenFields.has(f.handle as string)).map((f) => f.handle as string);
  }

  /** Indexes of the pages the rules show, in order. */
  visiblePages(): number[] {
    const visibility = this.visibility();
    return this.manifest.layout.pages.map((p) => p.index).filter((index) => !visibility.hiddenPages.has(index));
  }

  /** Checks the shown fields of this page (every page for `submit` on a single-page form) locally. */
  validate(scope: 'page' | 'form' = 'page'): FieldErrors {
    const pages = scope === 'form' ? this.manifest.layout.pages.map((p) => p.index) : [this.pageIndex];
    const shown = new Set(pages.flatMap((p) => this.visibleFields(p)));
    const fields = this.model.fields.filter((f) => shown.has(f.handle as string));
    const raw: Record<string, unknown> = { ...this.values };
    // A file picked for multipart counts as a value for `required`; the server checks the rest.
    for (const [handle, list] of this.files) raw[handle] = [...(Array.isArray(raw[handle]) ? (raw[handle] as unknown[]) : []), ...list.map((_f, i) => `pending${i}`)];
    for (const { handle, row, column, files } of this.cellFiles.values()) raw[handle] = withPendingCell(raw[handle], row, column, files.length);
    const { errors } = validateValues(fields, raw, this.normalisedValues(), this.messages);
    this.errors = { fields: errors, form: [] };
    return errors;
  }

  next(): Promise<SubmitResponse> {
    return this.send('next');
  }

  back(): Promise<SubmitResponse> {
    return this.send('back');
  }

  submit(): Promise<SubmitResponse> {
    return this.send('submit');
  }

  saveDraft(): Promise<SubmitResponse> {
    return this.send('saveDraft');
  }

  /**
   * The final submit, sent to another route that takes the same JSON body plus `extra` keys (the
   * payment checkpoint, contract §8), with submit()'s local checks, CSRF and idempotency key. A
   * refusal's submit object is absorbed and returned as submit() would; null means the route
   * accepted. Always JSON: files picked for multipart are not sent (upload them first).
   *
   * @example
   * const refusal = await form.submitTo(checkpointUrl, { integration, paymentIntentId });
   * if (refusal) showErrors(refusal.errors.fields);
   */
  submitTo(url: string, extra: Readonly<Record<string, unknown>>): Promise<SubmitResponse | null> {
    return this.send('submit', { url, extra });
  }

  /**
   * Loads a saved draft (values and page) from its token and key. A draft that is unknown,
   * expired or whose key is wrong loads nothing: the answer carries the warning
   * `draft_not_loaded` and the session goes on empty, with `draft` null (contract §5).
   */
  async resume(token: string, key: string): Promise<SubmitResponse> {
    this.draftContext = { draftToken: token, draftKey: key };
    this.draft = { token, key, resumeUrl: null };
    const response = await this.send('validate', { skipLocal: true });
    // Loading is not a check: the page's errors are shown when the person acts, not on arrival.
    this.errors = { fields: {}, form: response.status === 'context_invalid' ? response.errors.form : [] };
    if (response.status === 'context_invalid' || response.warnings.includes('draft_not_loaded')) {
      this.draft = null;
      this.draftContext = null;
    }
    return response;
  }

  /** Uploads one file for a drag-and-drop file field and adds its id to the field's value. */
  async upload(handle: string, file: File): Promise<UploadedFile> {
    const uploadToken = (this.uploadToken ??= randomId());
    const { body: answer } = await this.client.withCsrf((csrf) => {
      const body = new FormData();
      if (csrf) body.append(csrf.name, csrf.value);
      body.append(handle, file, file.name);
      return this.client.transport.json<{ data: UploadedFile }>(
        `/svc/api/forms/${encodeURIComponent(this.manifest.form.handle)}/files/${encodeURIComponent(handle)}`,
        { method: 'POST', idempotent: false, body, headers: { 'x-svc-upload-token': uploadToken, ...(csrf ? { 'x-csrf-token': csrf.value } : {}) } },
      );
    });
    const current = Array.isArray(this.values[handle]) ? (this.values[handle] as string[]) : [];
    this.values[handle] = [...current, answer.data.id];
    this.knowFiles(handle, [answer.data]);
    return answer.data;
  }

  /** Deletes a drag-and-drop upload and removes it from the field's value. */
  async removeUpload(handle: string, id: string): Promise<void> {
    const uploadToken = this.uploadToken;
    if (!uploadToken) throw new SvcClientError('FILE_NOT_FOUND', 'Nothing was uploaded in this session.', 404);
    try {
      await this.client.withCsrf((csrf) =>
        this.client.transport.json(`/svc/api/forms/${encodeURIComponent(this.manifest.form.handle)}/files/${encodeURIComponent(handle)}/delete`, {
          method: 'POST',
          idempotent: true,
          headers: { 'content-type': 'application/json', 'x-svc-upload-token': uploadToken, ...(csrf ? { 'x-csrf-token': csrf.value } : {}) },
          body: JSON.stringify({ id }),
        }),
      );
    } catch (error) {
      // A retried delete whose first answer was lost finds nothing: the file is gone either way.
      if (!(error instanceof SvcClientError) || error.code !== 'FILE_NOT_FOUND') throw error;
    }
    const current = Array.isArray(this.values[handle]) ? (this.values[handle] as string[]) : [];
    this.values[handle] = current.filter((value) => value !== id);
    const known = (this.uploadedFiles.get(handle) ?? []).filter((file) => file.id !== id);
    if (known.length > 0) this.uploadedFiles.set(handle, known);
    else this.uploadedFiles.delete(handle);
  }

  /** Adds upload details for `handle`, each id once. */
  private knowFiles(handle: string, files: readonly UploadedFile[]): void {
    const known = this.uploadedFiles.get(handle) ?? [];
    const added = files.filter((file) => !known.some((k) => k.id === file.id)).map(({ id, name, extension, size }) => ({ id, name, extension, size }));
    if (added.length > 0) this.uploadedFiles.set(handle, [...known, ...added]);
  }

  /** The `meta` block the manifest asks for: honeypot (empty), javascript test, captchas. */
  meta(): Record<string, unknown> {
    const { honeypot, javascriptTest } = this.manifest.security;
    const meta: Record<string, unknown> = {};
    if (honeypot) meta.honeypot = { name: honeypot.name, value: '', ...(honeypot.timestamp ? { timestamp: honeypot.timestamp } : {}) };
    if (javascriptTest) meta.javascriptTest = { name: javascriptTest.name, value: javascriptTest.value };
    if (this.captchas.size > 0) meta.captchas = [...this.captchas].map(([name, value]) => ({ name, value }));
    return meta;
  }

  private localFailure(errors: FieldErrors): SubmitResponse {
    return {
      success: false,
      status: 'validation_failed',
      complete: false,
      submission: null,
      message: typeof this.manifest.settings.errorMessage === 'string' ? this.manifest.settings.errorMessage : null,
      redirect: null,
      page: { currentIndex: this.pageIndex, total: this.totalPages },
      state: { values: this.values, pageIndex: this.pageIndex, token: this.stateToken },
      draft: null,
      errors: { fields: errors, form: [] },
      warnings: [],
    };
  }

  private send(intent: Intent, options?: { readonly skipLocal?: boolean }): Promise<SubmitResponse>;
  private send(intent: Intent, options: SendOptions): Promise<SubmitResponse | null>;
  private async send(intent: Intent, options: SendOptions = {}): Promise<SubmitResponse | null> {
    if (!options.skipLocal && (intent === 'next' || intent === 'submit')) {
      const scope = intent === 'submit' && this.totalPages === 1 ? 'form' : 'page';
      const errors = this.validate(scope);
      if (Object.keys(errors).length > 0) return this.localFailure(errors);
    }
    const context: Record<string, string> = {};
    if (this.stateToken) context.stateToken = this.stateToken;
    if (this.uploadToken) context.uploadToken = this.uploadToken;
    if (this.draftContext) Object.assign(context, this.draftContext);
    else if (this.draft && (intent === 'saveDraft' || intent === 'submit')) Object.assign(context, { draftToken: this.draft.token, draftKey: this.draft.key });
    if (this.site) context.site = this.site;
    const plain = { ...options.extra, intent, values: this.values, meta: this.meta(), context };
    // A profile's session carries its properties, link token and bearer token with every step.
    const payload = this.access ? this.access.decorate(plain) : plain;
    const auth = this.access ? await this.access.headers() : {};
    // One key per logical submit: a retry after a network failure replays, never submits twice.
    const idempotencyKey = randomId();
    const send = async (csrf: Awaited<ReturnType<SessionClient['csrf']>>) => {
      // The manifest names the submit URL (contract §2); it is used as given.
      const url = options.url ?? this.manifest.endpoints.submit.url;
      const accept = [422, 429];
      if (!options.url && this.hasPendingFiles && intent !== 'back') {
        const body = new FormData();
        // CSRF and the JSON part first: the server refuses files that arrive before the token.
        if (csrf) body.append(csrf.name, csrf.value);
        body.append('_svc', JSON.stringify(payload));
        for (const [handle, list] of this.files) for (const file of list) body.append(`files[${handle}][]`, file, file.name);
        for (const { handle, row, column, files } of this.cellFiles.values()) {
          for (const file of files) body.append(`files[${handle}][${row}][${column}][]`, file, file.name);
        }
        return this.client.transport.json<SubmitResponse>(url, { method: 'POST', idempotent: true, body, headers: { 'idempotency-key': idempotencyKey, ...auth }, accept });
      }
      return this.client.transport.json<SubmitResponse>(url, {
        method: 'POST',
        idempotent: true,
        body: JSON.stringify(payload),
        headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey, ...auth, ...(csrf ? { 'x-csrf-token': csrf.value } : {}) },
        accept,
      });
    };
    // An expired token is replaced once (withCsrf); the request is otherwise the same.
    const answer = await this.client.withCsrf(send);
    const body = answer.body as SubmitResponse | { code?: unknown; message?: unknown };
    // 422 and 429 carry submit objects, except refusals thrown before one exists (RATE_LIMITED).
    if (typeof (body as { status?: unknown }).status !== 'string') {
      // submitTo's route answers its own acceptance (the checkpoint's `{success, data}`), not a submit object.
      if (options.url && answer.status < 300) return null;
      throw refusalError(answer.status, body);
    }
    return this.absorb(body as SubmitResponse, intent);
  }

  private absorb(response: SubmitResponse, intent: Intent): SubmitResponse {
    this.errors = { fields: response.errors.fields, form: response.errors.form };
    if (response.status === 'context_invalid') return response;
    this.draftContext = null;
    this.pageIndex = response.page.currentIndex;
    this.stateToken = response.state.token;
    // Loading a draft takes the server's values; otherwise what the person typed last wins, and
    // the server fills in what only it knows (other pages of a resumed draft).
    this.values = intent === 'validate' ? { ...this.values, ...response.state.values } : { ...response.state.values, ...this.values };
    // A loaded draft names its uploads (contract §5): kept so they are listed by name, not id.
    for (const [handle, files] of Object.entries(response.state.files ?? {})) this.knowFiles(handle, files);
    if (response.status === 'draft_saved' && response.draft) this.draft = response.draft;
    if (response.status === 'submitted') {
      this.files.clear();
      this.cellFiles.clear();
      this.draft = null;
      this.stateToken = null;
    } else if (this.hasPendingFiles && intent !== 'back' && response.status !== 'validation_failed') {
      // Files sent with a step are upload ids in the state now; they are not sent again.
      for (const handle of this.files.keys()) this.values[handle] = response.state.values[handle];
      for (const { handle } of this.cellFiles.values()) this.values[handle] = response.state.values[handle];
      this.files.clear();
      this.cellFiles.clear();
    }
    return response;
  }
}
