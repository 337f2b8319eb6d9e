/**
 * The form model shared by the server, the client and the renderer.
 *
 * A `FormDefinition` is what a site owner writes (YAML or JSON under `forms.dir`, validated by
 * `schema/form-definition.schema.json`). A `Form` is the same definition after the server has
 * assigned its stable identities (ids, uids, hashes persisted in the database) and filled defaults.
 * Everything here is plain data so it can cross the wire and run in a browser.
 */

/** Every field type of interface.md §2.6, plus `hidden`. */
export const FIELD_TYPES = [
  'text',
  'textarea',
  'select',
  'checkbox',
  'multipleSelect',
  'checkboxGroup',
  'radioGroup',
  'email',
  'dynamicRecipients',
  'number',
  'file',
  'confirmation',
  'datetime',
  'opinionScale',
  'phone',
  'rating',
  'regex',
  'signature',
  'table',
  'mailingList',
  'hidden',
  'payment',
  'submit',
] as const;

export type FieldType = (typeof FIELD_TYPES)[number];

/** Rule operators of contract §2; the short forms of interface.md §2.5 are accepted on input. */
export const RULE_OPERATORS = [
  'equals',
  'notEquals',
  'greaterThan',
  'greaterThanOrEquals',
  'lessThan',
  'lessThanOrEquals',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'isEmpty',
  'isNotEmpty',
  'isOneOf',
  'isNotOneOf',
] as const;

export type RuleOperator = (typeof RULE_OPERATORS)[number];

/** interface.md §2.5 as written in a definition file and served in GraphQL `rules`. */
export interface RuleCriterion {
  /** Target field handle. */
  readonly tgt: string;
  /** Operator: a long name of RULE_OPERATORS or one of `=`, `!=`, `>`, `>=`, `<`, `<=`. */
  readonly o: string;
  /** Value compared; a list for isOneOf / isNotOneOf, ignored by isEmpty / isNotEmpty. */
  readonly val?: string | number | boolean | readonly string[] | null;
}

export interface RuleDefinition {
  readonly show: boolean;
  readonly type: 'all' | 'any';
  readonly criteria: readonly RuleCriterion[];
}

/** A condition in the manifest's normalised form (contract §2 `conditionals`). */
export interface RuleCondition {
  readonly field: string;
  readonly operator: RuleOperator;
  readonly value: string | number | boolean | readonly string[] | null;
}

export interface NormalisedRule {
  /** The handle of the field, or the page index as a string (`"1"`) for a page rule. */
  readonly target: string;
  readonly action: 'show' | 'hide';
  readonly logic: 'all' | 'any';
  readonly conditions: readonly RuleCondition[];
}

export interface FieldOption {
  readonly value: string;
  readonly label: string;
  readonly checked: boolean;
}

/** A dynamic-recipients option: `recipients` never leave the server (see manifest builder). */
export interface RecipientOption extends FieldOption {
  readonly recipients: readonly string[];
}

export interface OpinionScale {
  readonly value: string;
  readonly label: string;
}

/** One column of a table field (`tableLayout`). */
export interface TableColumn {
  readonly label: string;
  readonly type: 'string' | 'number' | 'select' | 'checkbox' | 'file';
  /** Default value; for `select` columns the options separated by `;` when `options` is absent. */
  readonly value?: string;
  readonly options?: readonly string[];
  readonly required?: boolean;
  /** `file` columns: the limits of a file field, per cell (contract §7 `files[table][row][col][]`). */
  readonly fileKinds?: readonly string[];
  readonly maxFileSizeKB?: number;
  readonly fileCount?: number;
}

export type AttributeMap = Readonly<Record<string, string>>;

/** How a `personal` field's values are normalised before they are indexed (issue #37). */
export type PersonalKind = 'email' | 'identifier';

/** Properties every field carries (interface.md §2.4). */
interface BaseField<T extends FieldType> {
  readonly type: T;
  /** Null only for `submit`. */
  readonly handle: string | null;
  readonly label: string;
  readonly instructions?: string | null;
  readonly required?: boolean;
  /**
   * Marks a field whose value identifies a person (issue #37: text, email, hidden, phone and regex
   * fields): its submitted values are kept in a keyed blind index so `svc privacy find` reaches
   * them without a plaintext index.
   */
  readonly personal?: PersonalKind;
  readonly inputAttributes?: AttributeMap;
  readonly labelAttributes?: AttributeMap;
  readonly errorAttributes?: AttributeMap;
  readonly instructionAttributes?: AttributeMap;
  readonly rules?: RuleDefinition | null;
}

export interface TextField extends BaseField<'text'> {
  readonly value?: string;
  readonly maxLength?: number;
  readonly placeholder?: string;
}
export interface TextareaField extends BaseField<'textarea'> {
  readonly value?: string;
  readonly maxLength?: number;
  readonly rows?: number;
  readonly placeholder?: string;
}
export interface SelectField extends BaseField<'select'> {
  readonly value?: string;
  readonly options: readonly FieldOption[];
}
export interface CheckboxField extends BaseField<'checkbox'> {
  /** The value stored when checked. */
  readonly value?: string;
  readonly checked?: boolean;
}
export interface MultipleSelectField extends BaseField<'multipleSelect'> {
  readonly values?: readonly string[];
  readonly options: readonly FieldOption[];
}
export interface CheckboxGroupField extends BaseField<'checkboxGroup'> {
  readonly values?: readonly string[];
  readonly oneLine?: boolean;
  readonly options: readonly FieldOption[];
}
export interface RadioGroupField extends BaseField<'radioGroup'> {
  readonly value?: string;
  readonly oneLine?: boolean;
  readonly options: readonly FieldOption[];
}
export interface EmailField extends BaseField<'email'> {
  readonly notificationId?: string | null;
  readonly placeholder?: string;
  readonly maxLength?: number;
}
export interface DynamicRecipientsField extends BaseField<'dynamicRecipients'> {
  readonly values?: readonly string[];
  readonly notificationId?: string | null;
  readonly showAsRadio?: boolean;
  readonly showAsCheckboxes?: boolean;
  readonly oneLine?: boolean;
  readonly options: readonly RecipientOption[];
}
export interface NumberField extends BaseField<'number'> {
  readonly value?: string;
  readonly minLength?: number;
  readonly minValue?: number;
  readonly maxValue?: number;
  readonly decimalCount?: number;
  readonly decimalSeparator?: string;
  readonly thousandsSeparator?: string;
  readonly allowNegative?: boolean;
  readonly placeholder?: string;
}
export interface FileField extends BaseField<'file'> {
  /** Kinds such as `image`, `pdf`, `document`, `spreadsheet`, `audio`, `video`, `archive`, `text`. */
  readonly fileKinds?: readonly string[];
  readonly maxFileSizeKB?: number;
  readonly fileCount?: number;
  /** Offered as drag and drop: wire type `file-dnd`, with upload and delete URLs (contract §2, §7). */
  readonly dragAndDrop?: boolean;
}
export interface ConfirmationField extends BaseField<'confirmation'> {
  /** Handle of the field to confirm; served as `targetFieldHash`. */
  readonly target: string;
  readonly placeholder?: string;
}
export type DateOrder = 'ymd' | 'dmy' | 'mdy';
export interface DatetimeField extends BaseField<'datetime'> {
  readonly value?: string;
  readonly dateTimeType?: 'date' | 'time' | 'both';
  readonly generatePlaceholder?: boolean;
  readonly dateOrder?: DateOrder;
  readonly date4DigitYear?: boolean;
  readonly dateLeadingZero?: boolean;
  readonly dateSeparator?: string;
  readonly clock24h?: boolean;
  readonly clockSeparator?: string;
  readonly clockAMPMSeparate?: boolean;
  readonly useDatepicker?: boolean;
  /** ISO `YYYY-MM-DD`. */
  readonly minDate?: string;
  /** ISO `YYYY-MM-DD`. */
  readonly maxDate?: string;
}
export interface OpinionScaleField extends BaseField<'opinionScale'> {
  readonly value?: string;
  readonly legends?: readonly string[];
  readonly scales: readonly OpinionScale[];
}
export interface PhoneField extends BaseField<'phone'> {
  readonly value?: string;
  /** `0` stands for a digit, every other character must appear as written (e.g. `+1 (000) 000-0000`). */
  readonly pattern?: string;
  /** ISO 3166 country of numbers typed without `+` (default `US`); ignored with a `pattern`. */
  readonly defaultCountry?: string;
  readonly useJsMask?: boolean;
  readonly placeholder?: string;
}
export interface RatingField extends BaseField<'rating'> {
  readonly value?: string;
  readonly maxValue?: number;
  readonly colorIdle?: string;
  readonly colorHover?: string;
  readonly colorSelected?: string;
}
export interface RegexField extends BaseField<'regex'> {
  readonly value?: string;
  readonly pattern: string;
  readonly message?: string;
  readonly placeholder?: string;
}
export interface SignatureField extends BaseField<'signature'> {
  readonly width?: number;
  readonly height?: number;
  readonly showClearButton?: boolean;
  readonly borderColor?: string;
  readonly backgroundColor?: string;
  readonly penColor?: string;
  readonly penDotSize?: number;
}
export interface TableField extends BaseField<'table'> {
  readonly useScript?: boolean;
  readonly maxRows?: number;
  readonly addButtonLabel?: string;
  readonly addButtonMarkup?: string;
  readonly removeButtonLabel?: string;
  readonly removeButtonMarkup?: string;
  readonly columns: readonly TableColumn[];
}
export interface MailingListField extends BaseField<'mailingList'> {
  /** Hidden field (always opted in) or a checkbox. */
  readonly hidden?: boolean;
  /** Which configured list provider and list this opt-in goes to (issue #5). */
  readonly list?: string;
}
export interface HiddenField extends BaseField<'hidden'> {
  readonly value?: string;
}
/** Card payment (issue #12, contract §8): the amount is always computed on the server. */
export interface PaymentField extends BaseField<'payment'> {
  /** The gateway adapter that takes the payment; `stripe` is the one svc ships. */
  readonly gateway: 'stripe';
  /** ISO 4217 code, lower case (`usd`, `eur`, `jpy`). */
  readonly currency: string;
  /** A fixed amount in the currency's major unit (`25` is 25.00). */
  readonly amount?: number;
  /** Fields (number, select, radioGroup) giving the amount: the first visible one holding a number wins. */
  readonly amountFields?: readonly string[];
  /** Bounds of the amount in major units (defaults 0.5 and 999999). */
  readonly minAmount?: number;
  readonly maxAmount?: number;
  /** Shown on the card statement and in the gateway's dashboard; `{form}` is the form's name. */
  readonly description?: string;
  /** Where the return callback sends the payer after a success / a failure (default: the form's returnUrl). */
  readonly successUrl?: string | null;
  readonly failureUrl?: string | null;
  /** Stripe Elements appearance, passed through to the client. */
  readonly theme?: 'stripe' | 'night' | 'flat';
  readonly layout?: 'tabs' | 'accordion' | 'accordion-radios';
  readonly floatingLabels?: boolean;
}
export interface SubmitField extends BaseField<'submit'> {
  readonly labelNext?: string;
  readonly labelPrev?: string;
  readonly disablePrev?: boolean;
  readonly position?: 'left' | 'center' | 'right' | 'spread';
  /** A save-and-continue button (intent `saveDraft`) on every page, as Freeform's submit field offers. */
  readonly enableSaveButton?: boolean;
  readonly saveButtonLabel?: string;
}

export type FieldDefinition =
  | TextField
  | TextareaField
  | SelectField
  | CheckboxField
  | MultipleSelectField
  | CheckboxGroupField
  | RadioGroupField
  | EmailField
  | DynamicRecipientsField
  | NumberField
  | FileField
  | ConfirmationField
  | DatetimeField
  | OpinionScaleField
  | PhoneField
  | RatingField
  | RegexField
  | SignatureField
  | TableField
  | MailingListField
  | HiddenField
  | PaymentField
  | SubmitField;

export type FieldOfType<T extends FieldType> = Extract<FieldDefinition, { type: T }>;

export interface PageDefinition {
  readonly label: string;
  /** Rows of fields, top to bottom; each row lists its fields left to right. */
  readonly rows: readonly (readonly FieldDefinition[])[];
  readonly rules?: RuleDefinition | null;
}

export interface SpamSettings {
  readonly honeypot: boolean;
  readonly javascriptTest: boolean;
  /** contract §4: `simulate_success` stores flagged and answers as if accepted. */
  readonly behavior: 'simulate_success' | 'display_errors';
  /** Words or phrases (`*` matches anything) that mark a submission as spam, case-insensitive. */
  readonly blockedKeywords: readonly string[];
  /** Addresses typed into email fields that mark spam: `ann@x.test`, `*@spam.test`. */
  readonly blockedEmails: readonly string[];
  /** Client IPs or CIDR ranges that mark spam. */
  readonly blockedIps: readonly string[];
  /** Submits faster than this after the manifest was fetched are spam (0 = off). */
  readonly minimumFillSeconds: number;
}

/** Per-form submission limits (issue #4); spam-flagged submissions do not count. */
export interface SubmissionLimits {
  /** Stored submissions at most, ever. */
  readonly total: number | null;
  /** At most `count` submissions from one client IP per `periodMinutes`. */
  readonly perIp: { readonly count: number; readonly periodMinutes: number } | null;
}

/** The form settings of interface.md §2.1, as written in a definition file. */
export interface FormSettings {
  readonly description: string | null;
  readonly color: string | null;
  readonly returnUrl: string | null;
  readonly storeData: boolean;
  readonly submissionTitleFormat: string;
  readonly extraPostUrl: string | null;
  readonly extraPostTriggerPhrase: string | null;
  readonly ipCollectingEnabled: boolean;
  readonly ajaxEnabled: boolean;
  readonly showSpinner: boolean;
  readonly showLoadingText: boolean;
  readonly loadingText: string | null;
  /** Handle of the status new submissions get (config `submissions.statuses`). */
  readonly defaultStatus: string;
  readonly formTemplate: string | null;
  readonly gtmEnabled: boolean;
  readonly gtmId: string | null;
  readonly gtmEventName: string | null;
  readonly successBehavior: 'message' | 'redirect' | 'reload';
  readonly successMessage: string;
  readonly errorMessage: string;
  readonly disableSubmit: boolean;
  readonly disableReset: boolean;
  /** Draft resume URL template with `{token}` and `{key}` (contract §5). */
  readonly saveRedirectUrl: string | null;
  readonly spam: SpamSettings;
  /** The captcha this form uses; providers and keys come from config (issue #4). */
  readonly captcha: CaptchaSettings;
  readonly limits: SubmissionLimits;
  /** Who hears about a submission (issue #5); field-driven emails come from the fields themselves. */
  readonly notifications: NotificationSettings;
  /** Days a submission is kept before the purge deletes it; null follows `retention.purgeAfterDays`. */
  readonly purgeAfterDays: number | null;
  /** issue #36: the form has a page of its own at `<hosted.prefix>/<handle>`. */
  readonly hostedPage: boolean;
  /** Whether search engines may index that page (`noindex` otherwise). */
  readonly hostedIndexable: boolean;
  /** Design tokens of that page over the site-wide `hosted.theme` (the server's theme schema). */
  readonly hostedTheme: Readonly<Record<string, unknown>> | null;
}

export interface NotificationSettings {
  /** Emails to fixed addresses; `template` names a directory of the templates dir (`default` is built in). */
  readonly admin: readonly { readonly to: readonly string[]; readonly template: string }[];
  /** JSON POSTs signed per Standard Webhooks. */
  readonly webhooks: readonly { readonly url: string }[];
}

export interface CaptchaSettings {
  readonly enabled: boolean;
  /** `recaptchaV2`, `recaptchaV3`, `hcaptcha` or `turnstile`; null uses the site-wide default. */
  readonly provider: string | null;
}

export interface FormDefinition {
  /** Optional explicit uid; keeps identity when a handle is renamed. */
  readonly uid?: string;
  readonly handle: string;
  readonly name: string;
  readonly settings: FormSettings;
  readonly pages: readonly PageDefinition[];
}

/** Identity the server assigns once and persists (interface.md §2.1, §2.4). */
export interface FieldIdentity {
  readonly id: number;
  readonly uid: string;
  readonly hash: string;
}

/** A field with its identity and position. */
export type Field = FieldDefinition &
  FieldIdentity & {
    readonly pageIndex: number;
    readonly rowIndex: number;
  };

export interface Row {
  /** Stable hash of the row (interface.md §2.3). */
  readonly id: string;
  readonly fields: readonly Field[];
}

export interface Page {
  readonly index: number;
  readonly uid: string;
  readonly label: string;
  readonly rows: readonly Row[];
  readonly rules: RuleDefinition | null;
}

/** A loaded form: a definition with identities assigned. */
export interface Form {
  readonly id: number;
  readonly uid: string;
  /** Value a classic post carries as `formHash` prefix, and GraphQL `hash`. */
  readonly hash: string;
  readonly handle: string;
  readonly name: string;
  readonly settings: FormSettings;
  readonly pages: readonly Page[];
  /** Input fields in definition order (no submit fields), keyed lookups via `fieldsByHandle`. */
  readonly fields: readonly Field[];
  readonly fieldsByHandle: ReadonlyMap<string, Field>;
  /** A content hash of the definition; the manifest ETag changes exactly when it does. */
  readonly version: string;
}

/** A submitted or stored value after normalisation. */
export type FieldValue = string | boolean | number | readonly string[] | readonly TableRow[] | null;
/** A `file` cell holds upload ids, like a file field. */
export type TableRow = readonly (string | boolean | readonly string[] | null)[];
export type Values = Readonly<Record<string, FieldValue>>;

/** Whether a field type takes a value from the submitter. */
export function isInputField(field: { readonly type: FieldType }): boolean {
  return field.type !== 'submit';
}
