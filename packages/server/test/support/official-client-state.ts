/**
 * The form state of the official Freeform headless client (core 0.1.16 `FormState`, React/Vue
 * `FreeformView` buttons), re-created from what that source does (contract §12) so svc's tests
 * can drive svc exactly as the stock client does: which values a request carries, which context,
 * how an answer moves the form, and which stock buttons a page shows.
 *
 * Facts: /tmp/research/react-vue-demos.md §1-§3 and the brief's notes on core 0.1.16. Written
 * from those descriptions, not copied.
 */

/** The manifest keys the official client reads (contract §2, §12); everything else is opaque. */
export interface OfficialManifest {
  readonly schemaVersion: string;
  readonly minimumClientVersion?: string | null;
  readonly site?: { readonly baseUrl?: string | null } & Record<string, unknown>;
  readonly form: { readonly handle: string } & Record<string, unknown>;
  readonly endpoints: {
    readonly submit: { readonly url: string } & Record<string, unknown>;
    readonly csrf?: { readonly url?: string } & Record<string, unknown>;
  } & Record<string, unknown>;
  readonly settings: { readonly multiPage?: boolean; readonly successMessage?: string | null } & Record<string, unknown>;
  readonly layout: { readonly pages: readonly OfficialPage[] };
  readonly fields: Readonly<Record<string, OfficialField>>;
  readonly conditionals?: { readonly fields?: readonly FieldRule[] } & Record<string, unknown>;
  readonly security: OfficialSecurity;
  readonly requiredExtensions?: readonly RequiredExtension[];
  readonly context?: { readonly defaultValues?: Readonly<Record<string, unknown>> } & Record<string, unknown>;
  readonly [key: string]: unknown;
}

export interface OfficialPage {
  readonly index: number;
  readonly rows: readonly { readonly uid: string; readonly fields: readonly string[] }[];
  readonly buttons: {
    readonly submit: { readonly label: string } | null;
    readonly back: { readonly label: string } | null;
    readonly save: { readonly label: string } | null;
    readonly next?: unknown;
  };
}

export interface OfficialField {
  readonly handle: string;
  readonly uid: string;
  readonly type: string;
  readonly label: string;
  readonly required: boolean;
  readonly defaultValue?: unknown;
  readonly options?: readonly { readonly value: string; readonly label: string; readonly checked?: boolean }[] | null;
  readonly frontend?: { readonly renderer?: string | null; readonly extension?: string | null; readonly config?: Record<string, unknown> | null };
  readonly [key: string]: unknown;
}

export interface FieldRule {
  readonly target: string;
  readonly action: 'show' | 'hide' | 'enable' | 'disable';
  readonly logic: 'all' | 'any';
  readonly conditions: readonly { readonly field: string; readonly operator: string; readonly value: unknown }[];
}

export interface OfficialCaptcha {
  readonly name: string;
  readonly provider?: string | null;
  readonly siteKey?: string | null;
  readonly version?: string | null;
  readonly [key: string]: unknown;
}

export interface OfficialSecurity {
  readonly csrf?: { readonly required?: boolean; readonly tokenEndpoint?: string } & Record<string, unknown>;
  readonly honeypot?: { readonly name: string } & Record<string, unknown>;
  readonly javascriptTest?: { readonly name: string; readonly value?: string } & Record<string, unknown>;
  readonly captchas?: readonly OfficialCaptcha[];
}

export interface RequiredExtension {
  readonly name: string;
  readonly package: string;
  readonly severity: string;
  readonly [key: string]: unknown;
}

/** The submit answer as the official client reads it (core `SubmitResponse`). */
export interface OfficialSubmitResponse {
  readonly success: boolean;
  readonly status?: string;
  readonly complete?: boolean;
  readonly message?: string | null;
  readonly page?: { readonly currentIndex?: number } | null;
  readonly state?: { readonly values?: Record<string, unknown> | null; readonly pageIndex?: number; readonly token?: string | null } | null;
  readonly draft?: { readonly token?: string | null; readonly key?: string | null } | null;
  readonly errors: { readonly fields: Record<string, string[]>; readonly form: string[]; readonly page: string[] };
  readonly [key: string]: unknown;
}

export type SubmitIntent = 'submit' | 'next' | 'back' | 'validate' | 'saveDraft';

const isEmpty = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

const asList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : isEmpty(value) ? [] : [String(value)]);

/** One condition of a rule; `actual` is already empty when its field is hidden. */
function conditionHolds(operator: string, actual: unknown, expected: unknown): boolean {
  const items = asList(actual);
  const text = Array.isArray(actual) ? items.join(',') : isEmpty(actual) ? '' : String(actual);
  const wanted = isEmpty(expected) ? '' : String(expected);
  const number = (v: string) => Number.parseFloat(v);
  switch (operator) {
    case 'equals':
      return Array.isArray(actual) ? items.includes(wanted) : text === wanted;
    case 'notEquals':
      return !conditionHolds('equals', actual, expected);
    case 'contains':
      return Array.isArray(actual) ? items.includes(wanted) : text.includes(wanted);
    case 'notContains':
      return !conditionHolds('contains', actual, expected);
    case 'startsWith':
      return text.startsWith(wanted);
    case 'endsWith':
      return text.endsWith(wanted);
    case 'isEmpty':
      return isEmpty(actual);
    case 'isNotEmpty':
      return !isEmpty(actual);
    case 'isOneOf':
      return asList(expected).some((v) => items.includes(v));
    case 'isNotOneOf':
      return !conditionHolds('isOneOf', actual, expected);
    case 'greaterThan':
      return number(text) > number(wanted);
    case 'greaterThanOrEquals':
      return number(text) >= number(wanted);
    case 'lessThan':
      return number(text) < number(wanted);
    case 'lessThanOrEquals':
      return number(text) <= number(wanted);
    default:
      return false;
  }
}

/**
 * Which fields the `conditionals.fields` rules hide or disable, evaluated until nothing changes
 * (a rule may depend on a field another rule hides; a hidden field counts as empty).
 */
export function evaluateFieldRules(rules: readonly FieldRule[], values: Readonly<Record<string, unknown>>): { hidden: Set<string>; disabled: Set<string> } {
  let hidden = new Set<string>();
  let disabled = new Set<string>();
  for (let round = 0; round <= rules.length + 1; round += 1) {
    const nextHidden = new Set<string>();
    const nextDisabled = new Set<string>();
    for (const rule of rules) {
      const results = rule.conditions.map((c) => conditionHolds(c.operator, hidden.has(c.field) ? '' : values[c.field], c.value));
      const matched = rule.logic === 'any' ? results.some(Boolean) : results.every(Boolean);
      if ((rule.action === 'show' && !matched) || (rule.action === 'hide' && matched)) nextHidden.add(rule.target);
      if ((rule.action === 'enable' && !matched) || (rule.action === 'disable' && matched)) nextDisabled.add(rule.target);
    }
    const same = nextHidden.size === hidden.size && [...nextHidden].every((h) => hidden.has(h));
    hidden = nextHidden;
    disabled = nextDisabled;
    if (same) break;
  }
  return { hidden, disabled };
}

/** A field's starting value: its default, else its checked option(s), else nothing. */
function initialValue(field: OfficialField): unknown {
  if (field.defaultValue !== null && field.defaultValue !== undefined) return field.defaultValue;
  const checked = (field.options ?? []).filter((o) => o.checked).map((o) => o.value);
  if (checked.length === 1) return checked[0];
  if (checked.length > 1) return checked;
  return undefined;
}

export interface FormStateOptions {
  readonly draftToken?: string;
  readonly draftKey?: string;
}

/** The client-side form: values of every page, the page it shows, its errors and its tokens. */
export class OfficialFormState {
  readonly values: Record<string, unknown> = {};
  currentPageIndex = 0;
  fieldErrors: Record<string, string[]> = {};
  formErrors: string[] = [];
  pageErrors: string[] = [];
  draftToken: string | undefined;
  draftKey: string | undefined;
  stateToken: string | undefined;

  constructor(
    readonly manifest: OfficialManifest,
    options: FormStateOptions = {},
  ) {
    for (const [handle, field] of Object.entries(manifest.fields)) {
      const value = initialValue(field);
      if (value !== undefined) this.values[handle] = value;
    }
    Object.assign(this.values, manifest.context?.defaultValues ?? {});
    this.draftToken = options.draftToken;
    this.draftKey = options.draftKey;
  }

  setValue(handle: string, value: unknown): void {
    this.values[handle] = value;
  }

  /** Fields of ALL pages that the rules leave visible and enabled, whose value is set. */
  getValuesForSubmit(): Record<string, unknown> {
    const { hidden, disabled } = evaluateFieldRules(this.manifest.conditionals?.fields ?? [], this.values);
    const out: Record<string, unknown> = {};
    for (const handle of Object.keys(this.manifest.fields)) {
      if (hidden.has(handle) || disabled.has(handle) || this.values[handle] === undefined) continue;
      out[handle] = this.values[handle];
    }
    return out;
  }

  /** `draftToken`, `draftKey` and `stateToken`, each only when held. */
  getSubmitContext(): Record<string, string> {
    const context: Record<string, string> = {};
    if (this.draftToken) context.draftToken = this.draftToken;
    if (this.draftKey) context.draftKey = this.draftKey;
    if (this.stateToken) context.stateToken = this.stateToken;
    return context;
  }

  /** What the official client does with any answer, whatever its HTTP status. */
  applySubmitResponse(response: OfficialSubmitResponse): void {
    this.fieldErrors = response.errors.fields ?? {};
    this.formErrors = response.errors.form ?? [];
    this.pageErrors = response.errors.page ?? [];
    if (response.page?.currentIndex !== undefined) this.currentPageIndex = response.page.currentIndex;
    if (response.draft?.token) this.draftToken = response.draft.token;
    if (response.draft?.key) this.draftKey = response.draft.key;
    const state = response.state;
    if (state?.values && typeof state.values === 'object') Object.assign(this.values, state.values);
    if (state?.pageIndex !== undefined) {
      const last = Math.max(0, this.manifest.layout.pages.length - 1);
      this.currentPageIndex = Math.min(Math.max(state.pageIndex, 0), last);
    }
    if (state && state.token !== undefined) this.stateToken = state.token ?? undefined;
  }

  get isFirstPage(): boolean {
    return this.currentPageIndex === 0;
  }

  get isLastPage(): boolean {
    const pages = this.manifest.layout.pages.length;
    return pages === 0 || this.currentPageIndex >= pages - 1;
  }
}

export type StockButton = 'next' | 'submit' | 'back' | 'save';

/** The stock buttons `FreeformView` renders on the current page, with their labels. */
export function stockButtons(state: OfficialFormState): Partial<Record<StockButton, string>> {
  const { manifest } = state;
  const page = manifest.layout.pages[state.currentPageIndex] ?? manifest.layout.pages[0];
  const buttons = page?.buttons;
  const multiPage = Boolean(manifest.settings.multiPage);
  const shown: Partial<Record<StockButton, string>> = {};
  if (!buttons) return shown;
  if (!state.isFirstPage && buttons.back) shown.back = buttons.back.label;
  if (multiPage && !state.isLastPage && buttons.submit) shown.next = buttons.submit.label;
  if ((!multiPage || state.isLastPage) && buttons.submit) shown.submit = buttons.submit.label;
  if (buttons.save) shown.save = buttons.save.label;
  return shown;
}

/** The intent each stock button sends; Submit is the form's onSubmit (`formSubmitIntent`). */
export function buttonIntent(state: OfficialFormState, button: StockButton): SubmitIntent {
  if (button === 'next') return 'next';
  if (button === 'back') return 'back';
  if (button === 'save') return 'saveDraft';
  return formSubmitIntent(state);
}

/** The form's onSubmit (Submit button or Enter in a field): `next` before the last page. */
export function formSubmitIntent(state: OfficialFormState): SubmitIntent {
  return state.manifest.settings.multiPage && !state.isLastPage ? 'next' : 'submit';
}
