/**
 * Shapes of the wire that the server writes and clients read (contract §2 and §4), defined once
 * so the two cannot drift apart.
 */
import type { FieldOption } from './form-model.js';

/** An option as Freeform 5 shapes it (contract §2): `checked` and `default` alike, and `disabled`. */
export interface ManifestOption extends FieldOption {
  readonly default: boolean;
  readonly disabled: boolean;
}

/** How the official clients render a field (contract §2, §12): a renderer key, an extension to mount. */
export interface ManifestFieldFrontend {
  readonly renderer: string;
  readonly extension: string | null;
  readonly config: Readonly<Record<string, unknown>>;
}

/** One field of the manifest's `fields` (contract §2). */
export interface ManifestField {
  readonly id: number;
  readonly uid: string;
  readonly hash: string;
  readonly handle: string;
  /** Freeform 5's type name (`dropdown`, `radios`, `file-dnd`, …); `fieldTypeFromWire` reads it back. */
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
  /** `container`, `label` and `input` always; `error` and `instruction` when set. */
  readonly attributes: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly frontend: ManifestFieldFrontend;
  /** The message a required field shows when empty. */
  readonly requiredMessage: string;
  /** A profile's locked field (contract §9): shown with its value, not to be changed. */
  readonly readOnly?: boolean;
}

/** `status` of the submit object (contract §4). */
export type SubmitStatus =
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

/** The submit object of contract §4, the same for REST, profiles and `svcHeadlessSubmit`. */
export interface SubmitBody {
  readonly success: boolean;
  readonly status: SubmitStatus;
  readonly complete: boolean;
  readonly submission: { readonly id: number; readonly uid: string; readonly token: string } | null;
  readonly message: string | null;
  readonly redirect: { readonly url: string; readonly delay: number } | null;
  readonly page: { readonly currentIndex: number; readonly total: number };
  readonly state: {
    readonly values: Readonly<Record<string, unknown>>;
    readonly pageIndex: number;
    readonly token: string | null;
    /**
     * Only when a draft was loaded: the uploads its values name, by field handle, so a client
     * that did not upload them can list them by name and size (contract §5, §7).
     */
    readonly files?: Readonly<Record<string, readonly SubmitStateFile[]>>;
  };
  readonly draft: { readonly token: string; readonly key: string; readonly resumeUrl: string | null } | null;
  readonly errors: { readonly fields: Readonly<Record<string, readonly string[]>>; readonly form: readonly string[] };
  /** Things the client may want to know that did not stop the request (`draft_not_loaded`, contract §5). */
  readonly warnings: readonly SubmitWarning[];
}

/** An upload a loaded draft holds, as its drag-and-drop upload answered it (contract §7). */
export interface SubmitStateFile {
  readonly id: string;
  readonly name: string;
  readonly extension: string;
  /** Bytes. */
  readonly size: number;
}

/** `draft_not_loaded`: the named draft was unknown, expired or its key wrong; nothing was loaded. */
export type SubmitWarning = 'draft_not_loaded';
