import type { FieldOption, ManifestField, SubmitBody } from '@svc/core';

/**
 * The manifest as the server sends it (contract §2), typed for clients.
 *
 * @example
 * const manifest: Manifest = await client.getManifest('contact');
 * const email: ManifestField | undefined = manifest.fields.email;
 */

// ManifestField and the submit object are shared with the server (@svc/core wire-types), so the
// two cannot drift apart.
export type { ManifestField } from '@svc/core';

/** An option of a choice field: `{value, label, checked}`. */
export type ManifestOption = FieldOption;

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
  /** `turnstile`, `hcaptcha` or `recaptcha` (then `version` is `v2-checkbox` or `v3`), as Freeform names them. */
  readonly provider: string;
  readonly version?: string | null;
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
  /** The site the manifest was served for; `language` (BCP 47) is the one its messages and labels are in. */
  readonly site?: { readonly id: number; readonly handle: string; readonly language: string; readonly baseUrl: string };
  /** A profile manifest's (contract §9): which profile, and the properties it was asked with. */
  readonly metadata?: { readonly profile: string; readonly properties: Readonly<Record<string, unknown>> };
  /** A profile manifest's context; hidden fields are absent from `fields`, locked ones `readOnly`. */
  readonly context?: {
    readonly defaultValues: Readonly<Record<string, unknown>>;
    readonly hiddenFields: readonly string[];
    readonly lockedFields: Readonly<Record<string, unknown>>;
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
export type SubmitResponse = SubmitBody;

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
