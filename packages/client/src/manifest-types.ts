/**
 * The manifest as the server sends it (contract §2), typed for clients.
 *
 * @example
 * const manifest: Manifest = await client.getManifest('contact');
 * const email: ManifestField | undefined = manifest.fields.email;
 */

export interface ManifestOption {
  readonly value: string;
  readonly label: string;
  readonly checked: boolean;
}

export interface ManifestField {
  readonly id: number;
  readonly uid: string;
  readonly hash: string;
  readonly handle: string;
  readonly type: string;
  readonly label: string;
  readonly instructions: string | null;
  readonly required: boolean;
  readonly defaultValue: unknown;
  readonly placeholder: string | null;
  readonly pageIndex: number;
  readonly validation: Readonly<Record<string, unknown>>;
  readonly options: readonly ManifestOption[] | null;
  readonly config: Readonly<Record<string, unknown>>;
  readonly attributes?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export interface ManifestCondition {
  readonly field: string;
  readonly operator: string;
  readonly value: string | number | boolean | readonly string[] | null;
}

export interface ManifestRule {
  readonly target: string;
  readonly action: 'show' | 'hide';
  readonly logic: 'all' | 'any';
  readonly conditions: readonly ManifestCondition[];
}

export interface ManifestPage {
  readonly index: number;
  readonly uid: string;
  readonly label: string;
  readonly buttons: {
    readonly submit: { readonly label: string } | null;
    readonly back: { readonly label: string } | null;
    readonly save: { readonly label: string } | null;
  };
  readonly rows: readonly { readonly id: string; readonly fields: readonly string[] }[];
}

export interface ManifestCaptcha {
  readonly provider: string;
  readonly name: string;
  readonly siteKey: string;
  readonly [key: string]: unknown;
}

export interface Manifest {
  readonly schemaVersion: string;
  readonly pluginVersion: string;
  readonly minimumClientVersion: string;
  readonly generatedAt: string;
  readonly form: { readonly id: number; readonly uid: string; readonly handle: string; readonly name: string; readonly multiPage: boolean };
  readonly endpoints: {
    readonly manifest: { readonly method: string; readonly url: string };
    readonly submit: { readonly method: string; readonly url: string; readonly encodings: readonly string[] };
    readonly csrf?: { readonly method: string; readonly url: string; readonly required: boolean };
    readonly [name: string]: unknown;
  };
  readonly settings: Readonly<Record<string, unknown>> & {
    readonly successBehavior?: string;
    readonly successMessage?: string;
    readonly errorMessage?: string;
    readonly returnUrl?: string | null;
  };
  readonly layout: { readonly pages: readonly ManifestPage[] };
  readonly fields: Readonly<Record<string, ManifestField>>;
  readonly conditionals: { readonly fields: readonly ManifestRule[]; readonly pages: readonly ManifestRule[] };
  readonly security: {
    readonly csrf?: { readonly required: boolean; readonly tokenEndpoint: string };
    readonly honeypot?: { readonly name: string; readonly timestamp?: string };
    readonly javascriptTest?: { readonly name: string; readonly value: string };
    readonly captchas?: readonly ManifestCaptcha[];
  };
  readonly [key: string]: unknown;
}

/**
 * The submit answer of contract §4.
 *
 * @example
 * const result: SubmitResponse = await form.submit();
 * if (result.status === 'submitted') location.assign(result.redirect?.url ?? '/thanks');
 */
export interface SubmitResponse {
  readonly success: boolean;
  readonly status:
    | 'submitted'
    | 'page_valid'
    | 'validated'
    | 'validation_failed'
    | 'draft_saved'
    | 'context_invalid'
    | 'context_required'
    | 'spam_rejected'
    | 'captcha_failed'
    | 'limit_reached';
  readonly complete: boolean;
  readonly submission: { readonly id: number; readonly uid: string; readonly token: string } | null;
  readonly message: string | null;
  readonly redirect: { readonly url: string; readonly delay: number } | null;
  readonly page: { readonly currentIndex: number; readonly total: number };
  readonly state: { readonly values: Readonly<Record<string, unknown>>; readonly pageIndex: number; readonly token: string | null };
  readonly draft: { readonly token: string; readonly key: string; readonly resumeUrl: string | null } | null;
  readonly errors: { readonly fields: Readonly<Record<string, readonly string[]>>; readonly form: readonly string[] };
}

/**
 * A drag-and-drop upload as the server recorded it (contract §7).
 *
 * @example
 * const file: UploadedFile = await form.upload('portfolio', picked); // { id, name, extension, size }
 */
export interface UploadedFile {
  readonly id: string;
  readonly name: string;
  readonly extension: string;
  readonly size: number;
}
