/**
 * `<svc-form>`: renders one svc form from its manifest and submits it through @svc/client.
 * The element owns the lifecycle (load, resume, page changes, submit states, events); field
 * markup comes from the renderers and never re-renders while the person types, so focus and
 * caret stay put and only visibility and error state are updated live.
 */
import { SvcClientError, type FormSession, type ProfileOptions, type SubmitResponse, type SvcClient, type UploadedFile } from '@svc/client';
import { formatMessage, textDirection } from '@svc/core';
import type { CaptchaWidgets } from './captcha-widgets.js';
import { h } from './dom-builder.js';
import { ErrorSummary } from './error-summary.js';
import { renderField, type FieldElement } from './field-renderers.js';
import type { FieldRenderContext } from './field-view.js';
import { openSession, readFormSource, SOURCE_ATTRIBUTES, takeEarlyProperty } from './form-source.js';
import { FORM_STYLES } from './form-styles.js';
import {
  handleSubmitResponse, pickedFilesRefusal, recheckFields, showErrors, showFieldMessages, type ErrorTargets, type ResponseHost,
} from './form-response-handling.js';
import { progressText, renderButtonBar, renderDraftNotice, resumeLinkOf, type ButtonBar } from './form-status-views.js';
import type { PaymentFlow } from './payment-flow.js';
import { mountCaptchas, mountPayment } from './light-dom-widgets.js';

type Intent = 'submit' | 'next' | 'back' | 'saveDraft';

/** Detail of `svc:error`: a refusal the server answered, or an error the client threw. */
export type SvcErrorDetail = { readonly response: SubmitResponse } | { readonly error: unknown };

function messageOf(error: unknown, language = 'en'): string {
  if (error instanceof SvcClientError || error instanceof Error) return error.message;
  return formatMessage(language, 'element.somethingWrong');
}

/**
 * What a person reads of a failed upload: the reasons the server gave (FILE_REJECTED and
 * PAYLOAD_TOO_LARGE list them, naming the file), else the error's own message.
 */
function messagesOf(error: unknown): string[] {
  const details = error instanceof SvcClientError && Array.isArray(error.details) ? error.details.filter((d): d is string => typeof d === 'string' && d !== '') : [];
  return details.length > 0 ? details : [messageOf(error)];
}

/**
 * @example
 * <script type="module" src="https://forms.example.com/demo/svc-elements.js"></script>
 * <svc-form base-url="https://forms.example.com" handle="contact" allow-save></svc-form>
 * <!-- A named profile (contract §9): its properties, a signed link's token; locked fields are read-only. -->
 * <svc-form base-url="https://forms.example.com" profile="event-feedback" properties='{"eventId": 42}' token="…"></svc-form>
 * <!-- Its own words follow the manifest's site.language; `lang` chooses another (and `dir` follows). -->
 * <svc-form base-url="https://forms.example.com" handle="contact" lang="ar"></svc-form>
 * <!-- A site (issue #34): labels, server answers and the element's words in the site's language
 *      (de-DE here); changing `site` loads the form again. No `site`: the default site. -->
 * <svc-form base-url="https://forms.example.com" handle="contact" site="de"></svc-form>
 * <!-- A saved draft's link comes back to this page (issue #36): `{token}` and `{key}` are filled in. -->
 * <svc-form handle="application" allow-save resume-url="/f/application?token={token}&amp;key={key}"></svc-form>
 * <!-- A form with a payment field pays on submit and leaves for the service's payment callback,
 *      which stores the submission and shows or redirects to the outcome (no svc:submitted). -->
 * <script type="module">
 *   const form = document.querySelector('svc-form');
 *   form.addEventListener('svc:submitted', (event) => console.log(event.detail.submission));
 *   await form.ready;
 * </script>
 */
export class SvcFormElement extends HTMLElement {
  static readonly observedAttributes = [...SOURCE_ATTRIBUTES, 'allow-save', 'lang'];

  /** Resolves after the first render: the form, or the message saying why it could not load. */
  readonly ready: Promise<void>;
  #resolveReady: () => void = () => undefined;
  readonly #root: ShadowRoot;
  #client: SvcClient | null = null;
  #session: FormSession | null = null;
  #loadedKey: string | null = null;
  #loadCount = 0;
  #loadScheduled = false;
  #busy = false;
  readonly #fields = new Map<string, FieldElement>();
  readonly #invalid = new Set<string>();
  /** Fields whose file input holds chosen files, with those files' problems (none = fine). */
  readonly #picked = new Map<string, readonly string[]>();
  /** Drag-and-drop uploads by field, kept across page changes so their names stay listed. */
  readonly #uploads = new Map<string, UploadedFile[]>();
  #summary: ErrorSummary | null = null;
  #buttons: ButtonBar | null = null;
  #form: HTMLFormElement | null = null;
  #progress: HTMLElement | null = null;
  #draftNotice: HTMLElement | null = null;
  #captchas: CaptchaWidgets | null = null;
  #payment: PaymentFlow | null = null;
  #auth: ProfileOptions['auth'] | null = null;
  #authVersion = 0;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    // A page may set `auth` before this script defines the element: that value is taken over.
    this.#auth = takeEarlyProperty<ProfileOptions['auth'] | null>(this, 'auth') ?? null;
    this.ready = new Promise((resolve) => {
      this.#resolveReady = resolve;
    });
  }

  /** The client talking to `base-url`; null until the form has loaded. */
  get client(): SvcClient | null {
    return this.#client;
  }

  /** The form session (values, page, errors, draft); null until the form has loaded. */
  get session(): FormSession | null {
    return this.#session;
  }

  /**
   * For a `requiresAuth` profile: returns the signed-in person's JWT, asked before every request.
   *
   * @example
   * form.auth = () => session.accessToken; // then <svc-form profile="member">
   */
  get auth(): ProfileOptions['auth'] | null {
    return this.#auth;
  }

  set auth(callback: ProfileOptions['auth'] | null) {
    this.#auth = callback;
    this.#authVersion += 1;
    if (this.isConnected) this.#scheduleLoad();
  }

  connectedCallback(): void {
    this.#scheduleLoad();
  }

  attributeChangedCallback(name: string, previous: string | null, value: string | null): void {
    if (previous === value || !this.isConnected) return;
    if (name === 'allow-save' || name === 'lang') {
      if (this.#session) this.#session.language = this.#languageOf(this.#session);
      if (this.#session && this.#form) this.#renderForm();
      return;
    }
    this.#scheduleLoad();
  }

  /** The element's `lang` when the page gives one, else the manifest's site language (issue #34). */
  #languageOf(session: FormSession | null): string {
    return this.getAttribute('lang') || session?.manifest.site?.language || 'en';
  }

  /** `key` in the language the element speaks now. */
  #say(key: 'element.loadingForm' | 'element.loadFailed' | 'element.draftMissing', values?: Readonly<Record<string, string>>): string {
    return formatMessage(this.#languageOf(this.#session), key, values);
  }

  /**
   * The shadow root's content: its styles, then `nodes`, each marked with the language and the
   * direction it is written in, so an Arabic form lays out right to left whatever the page is.
   */
  #show(...nodes: (Node | string)[]): void {
    const language = this.#languageOf(this.#session);
    const dir = textDirection(language);
    for (const node of nodes) {
      if (node instanceof HTMLElement) {
        node.lang = language;
        node.dir = dir;
      }
    }
    this.#root.replaceChildren(h('style', {}, FORM_STYLES), ...nodes);
  }

  /** Attributes often arrive one by one; load once they have all been set in this task. */
  #scheduleLoad(): void {
    if (this.#loadScheduled) return;
    this.#loadScheduled = true;
    queueMicrotask(() => {
      this.#loadScheduled = false;
      void this.#load();
    });
  }

  async #load(): Promise<void> {
    const source = readFormSource(this, this.#authVersion);
    if (!source || source.key === this.#loadedKey) return;
    this.#loadedKey = source.key;
    const count = ++this.#loadCount;
    this.#show(h('p', { part: 'loading-form', role: 'status' }, this.#say('element.loadingForm')));
    try {
      const { client, session } = await openSession(source, this.#auth);
      const resumed = source.draft ? await session.resume(source.draft.token, source.draft.key) : null;
      if (count !== this.#loadCount) return;
      this.#client = client;
      this.#session = session;
      session.language = this.#languageOf(session);
      this.#uploads.clear();
      this.#draftNotice = null;
      this.#mountWidgets(session);
      this.#renderForm();
      if (resumed && resumed.warnings.includes('draft_not_loaded')) {
        // contract §5: nothing was loaded; say so and let the person start afresh.
        this.#showErrors({}, [this.#say('element.draftMissing')], null);
        this.#emit('svc:error', { response: resumed });
      } else if (resumed && resumed.status === 'context_invalid') {
        this.#showErrors(resumed.errors.fields, resumed.errors.form, resumed.message);
        this.#emit('svc:error', { response: resumed });
      }
    } catch (error) {
      if (count !== this.#loadCount) return;
      const reason = messageOf(error, this.#languageOf(null));
      const alert = h('div', { part: 'form-errors', class: 'form-errors', role: 'alert' }, h('p', {}, this.#say('element.loadFailed', { reason })));
      this.#show(alert);
      this.#emit('svc:error', { error });
    }
    this.#resolveReady();
  }

  #renderForm(): void {
    const session = this.#session;
    if (!session) return;
    const { manifest } = session;
    const page = manifest.layout.pages[session.pageIndex];
    this.#fields.clear();
    this.#invalid.clear();
    this.#picked.clear();
    const fields = h('div', { part: 'fields', class: 'fields' });
    for (const row of page?.rows ?? []) {
      const rowElement = h('div', { part: 'row', class: 'row' });
      for (const handle of row.fields) {
        const field = manifest.fields[handle];
        if (!field) continue;
        const element = renderField(this.#contextFor(handle));
        this.#fields.set(handle, element);
        rowElement.append(element.wrapper);
      }
      if (rowElement.childElementCount > 0) fields.append(rowElement);
    }
    const multiPage = session.totalPages > 1;
    this.#progress = multiPage ? h('p', { part: 'progress', class: 'progress', 'aria-live': 'polite' }) : null;
    this.#summary = new ErrorSummary();
    this.#buttons = renderButtonBar({
      page, pageIndex: session.pageIndex, allowSave: this.hasAttribute('allow-save'), settings: manifest.settings, language: session.language,
    });
    this.#buttons.back?.addEventListener('click', () => void this.#run('back'));
    this.#buttons.save?.addEventListener('click', () => void this.#run('saveDraft'));
    const form = h(
      'form',
      { part: 'form', novalidate: true, 'aria-label': manifest.form.name },
      multiPage && page?.label ? h('p', { part: 'page-label', class: 'page-label' }, page.label) : null,
      this.#progress,
      this.#summary.element,
      fields,
      // The captcha widgets live in light DOM (providers do not work in shadow roots).
      this.#captchas?.count && session.pageIndex === session.totalPages - 1 ? h('slot', { name: 'captcha', part: 'captcha' }) : null,
      this.#buttons.element,
    );
    // A committed change (a choice made, a typed value left) is when the payment re-prices, after
    // checking the amount fields, whose own problems are shown on them then (issue #31).
    form.addEventListener('change', (event) => {
      const problems = this.#payment?.commit();
      const handle = (event.target as Element | null)?.closest?.('[data-field]')?.getAttribute('data-field');
      if (problems && handle && this.#payment?.config.amountFields.includes(handle)) showFieldMessages(this.#errorTargets(), handle, problems[handle] ?? []);
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#run(session.pageIndex < session.totalPages - 1 ? 'next' : 'submit');
    });
    this.#form = form;
    this.#show(form, this.#draftNotice ?? '');
    this.#applyVisibility();
  }

  #contextFor(handle: string): FieldRenderContext {
    const session = this.#session as FormSession;
    const field = session.manifest.fields[handle]!;
    let uploads = this.#uploads.get(handle);
    if (!uploads) this.#uploads.set(handle, (uploads = []));
    return {
      field,
      manifest: session.manifest,
      session,
      id: `svc-${handle}`,
      value: session.values[handle],
      uploads,
      payment: this.#payment?.handle === handle ? this.#payment : null,
      change: (value) => {
        session.setValue(handle, value);
        this.#afterChange(handle);
      },
      refresh: () => this.#afterChange(handle),
      picked: (problems) => {
        if (problems === null) this.#picked.delete(handle);
        else this.#picked.set(handle, problems);
        // A refused file is shown at once, not when the person next presses a button (issue #11).
        if (problems && problems.length > 0) this.#invalid.add(handle);
        this.#afterChange(handle);
      },
      fail: (...errors) => {
        this.#fields.get(handle)?.showErrors(errors.flatMap(messagesOf));
        this.#invalid.add(handle);
        for (const error of errors) this.#emit('svc:error', { error });
      },
    };
  }

  /** Rules run on every change; fields already marked invalid are re-checked so a fix clears them. */
  #afterChange(handle: string): void {
    this.#applyVisibility();
    recheckFields(this.#errorTargets(), handle);
  }

  #applyVisibility(): void {
    const session = this.#session;
    if (!session) return;
    const visible = new Set(session.visibleFields(session.pageIndex));
    for (const [handle, element] of this.#fields) element.wrapper.hidden = !visible.has(handle);
    // The payment's intent is made when its field is first shown, and re-priced as the amount changes.
    if (this.#payment) this.#payment.sync(visible.has(this.#payment.handle));
    // Only a real change is written: rewriting the same text would make the live region repeat it.
    const progress = this.#progress ? progressText(session) : null;
    if (this.#progress && progress !== this.#progress.textContent) this.#progress.textContent = progress;
  }

  async #run(intent: Intent): Promise<void> {
    const session = this.#session;
    if (!session || this.#busy) return;
    this.#busy = true;
    this.#buttons?.setBusy(true);
    this.#form?.setAttribute('aria-busy', 'true');
    try {
      const pageBefore = session.pageIndex;
      const refusal = intent === 'next' || intent === 'submit' ? pickedFilesRefusal(this.#errorTargets()) : null;
      if (intent === 'submit' && !refusal) await this.#captchas?.beforeSubmit();
      // contract §8: a form that takes a payment is never sent to the plain submit route.
      const payment = intent === 'submit' && !refusal && this.#payment?.routesSubmit() ? this.#payment : null;
      const response = refusal ?? (payment ? await payment.pay() : await session[intent]());
      if (response) this.#handleResponse(response, pageBefore);
    } catch (error) {
      this.#showErrors({}, [messageOf(error, session.language)], null);
      this.#emit('svc:error', { error });
    } finally {
      // The page is leaving for the payment callback: the form stays busy so nothing is sent twice.
      if (!this.#payment?.leaving) {
        this.#busy = false;
        this.#buttons?.setBusy(false);
        this.#form?.removeAttribute('aria-busy');
      }
    }
  }

  /** Captchas and the payment field live in light DOM (their providers cannot reach a shadow root). */
  #mountWidgets(session: FormSession): void {
    this.#captchas?.remove();
    this.#payment?.remove();
    this.#captchas = mountCaptchas(this, session, (error) => {
      this.#showErrors({}, [messageOf(error, session.language)], null);
      this.#emit('svc:error', { error });
    });
    this.#payment = mountPayment(this, session, (handle, messages, error) => {
      showFieldMessages(this.#errorTargets(), handle, messages);
      if (error !== undefined) this.#emit('svc:error', { error });
    });
  }

  #errorTargets(): ErrorTargets {
    return { session: this.#session, fields: this.#fields, invalid: this.#invalid, summary: this.#summary, picked: this.#picked };
  }

  #handleResponse(response: SubmitResponse, pageBefore: number): void {
    const host: ResponseHost = {
      ...this.#errorTargets(),
      session: this.#session as FormSession,
      emit: (name, detail) => this.#emit(name, detail),
      showDraft: (draft) => {
        if (!draft) return;
        this.#draftNotice = renderDraftNotice(resumeLinkOf(draft, host.session.manifest.form.handle, this.getAttribute('resume-url')), host.session.language);
        this.#draftNotice.lang = host.session.language;
        this.#draftNotice.dir = textDirection(host.session.language);
        this.#root.querySelector('[part="draft"]')?.remove();
        this.#root.append(this.#draftNotice);
      },
      changePage: () => this.#renderForm(),
      replaceForm: (success) => {
        this.#form = null;
        this.#buttons = null;
        this.#fields.clear();
        this.#captchas?.remove();
        this.#payment?.remove();
        this.#show(success);
      },
      captchaFailed: () => this.#captchas?.reset(),
    };
    handleSubmitResponse(host, response, pageBefore);
  }

  #showErrors(fieldErrors: Readonly<Record<string, readonly string[]>>, formErrors: readonly string[], message: string | null): void {
    showErrors(this.#errorTargets(), fieldErrors, formErrors, message);
  }

  #emit(name: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }
}
