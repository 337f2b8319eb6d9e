/**
 * The one error catalogue (DESIGN.md principle 4, contract §1). REST bodies, GraphQL
 * `extensions.code`, the docs and the client SDK all read this table; `Record<ErrorCode, …>`
 * makes a code without a status or message fail to compile.
 */

export const ERROR_CATALOGUE = {
  HEADLESS_DISABLED: { status: 404, message: 'Not found.' },
  FORM_NOT_FOUND: { status: 404, message: 'Form not found.' },
  SITE_NOT_FOUND: { status: 404, message: 'Site not found.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'Not found.' },
  MANIFEST_NOT_EXPOSED: { status: 403, message: 'This form does not expose a manifest.' },
  SUBMIT_NOT_ALLOWED: { status: 403, message: 'This form does not accept submissions here.' },
  ORIGIN_NOT_ALLOWED: { status: 403, message: 'Requests from this origin are not allowed.' },
  CSRF_INVALID: { status: 400, message: 'The CSRF token is missing or invalid.' },
  INTENT_UNSUPPORTED: {
    status: 400,
    message: 'intent must be one of submit, next, back, validate, saveDraft.',
  },
  PAYLOAD_INVALID: { status: 400, message: 'The request body is not valid.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  // Classic posts (contract §10): what went wrong with svc_payload, so a site developer can act.
  PAYLOAD_MISSING: { status: 400, message: 'This form has expired; please reload it. (svc_payload was not posted: render it from the properties JSON.)' },
  PAYLOAD_TAMPERED: { status: 400, message: 'This form has expired; please reload it. (svc_payload or formHash does not open: altered, truncated or for another form.)' },
  PAYLOAD_EXPIRED: { status: 400, message: 'This form has expired; please reload it. (svc_payload is older than classic.payloadTtlHours.)' },
  MEDIA_TYPE_UNSUPPORTED: {
    status: 415,
    message: 'Send application/json or multipart/form-data.',
  },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed.' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request line or headers are too large.' },
  PROFILE_NOT_FOUND: { status: 400, message: 'Profile not found.' },
  PROFILE_PROPERTY_INVALID: { status: 400, message: 'A profile property is missing or invalid.' },
  AUTH_REQUIRED: { status: 401, message: 'Authentication is required.' },
  PROFILE_FORBIDDEN: { status: 403, message: 'This profile does not allow the request.' },
  TOKEN_SPENT: { status: 409, message: 'This link has already been used.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests; try again later.' },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    message: 'This idempotency key was used with a different request.',
  },
  PAYMENT_NOT_OWNED: {
    status: 403,
    message: "The payment does not belong to this form's payment field.",
  },
  PAYMENT_UNVERIFIED: { status: 403, message: 'The payment could not be verified.' },
  PAYMENT_AMOUNT_INVALID: { status: 422, message: 'The amount to pay is not valid.' },
  PAYMENT_GATEWAY_UNAVAILABLE: { status: 502, message: 'The payment provider could not be reached; please try again.' },
  PAYMENTS_NOT_CONFIGURED: { status: 503, message: 'Payments are not configured on this server.' },
  WEBHOOK_SIGNATURE_INVALID: { status: 400, message: 'The webhook signature is missing or invalid.' },
  DELIVERY_NOT_FOUND: { status: 404, message: 'Delivery not found.' },
  FILE_NOT_FOUND: { status: 404, message: 'File not found.' },
  FILE_REJECTED: { status: 400, message: 'The file was rejected.' },
  // A write to the file store failed (disk full or read-only, S3 down): the client may retry.
  STORAGE_UNAVAILABLE: { status: 503, message: 'Files cannot be stored right now; please try again shortly.' },
  ADMIN_FORBIDDEN: { status: 403, message: 'This API key does not allow the request.' },
  SUBMISSION_NOT_FOUND: { status: 404, message: 'Submission not found.' },
  // issue #35: an owner's edit of stored values, judged by the form's own rules as a submit is.
  VALUES_INVALID: { status: 422, message: 'Some values are not valid for this form.' },
  FIELD_NOT_EDITABLE: { status: 400, message: 'This field cannot be changed after submission.' },
  NOTE_TOO_LONG: { status: 400, message: 'The note is too long.' },
  // issue #35: one bulk action changes at most 10,000 submissions, so it stays one short transaction.
  BULK_TOO_LARGE: { status: 422, message: 'A bulk action changes at most 10,000 submissions; select fewer or narrow the filter.' },
  QUERY_TOO_DEEP: { status: 400, message: 'The GraphQL query nests too deeply.' },
  QUERY_TOO_COMPLEX: { status: 400, message: 'The GraphQL query asks for too much at once.' },
  NOT_IMPLEMENTED: { status: 501, message: 'This is not available yet.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is temporarily unavailable.' },
  INTERNAL: { status: 500, message: 'Something went wrong on our side.' },
} as const satisfies Record<string, { readonly status: number; readonly message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** HTTP status of a code; typed so that every code must have one. */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = Object.fromEntries(
  Object.entries(ERROR_CATALOGUE).map(([code, entry]) => [code, entry.status]),
) as Record<ErrorCode, number>;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);
}

/** The refusal body of contract §1. */
export interface ErrorBody {
  readonly success: false;
  readonly code: ErrorCode;
  readonly message: string;
  readonly errors?: unknown;
}

/**
 * An expected refusal. Services throw it; transports map it (REST body, GraphQL extensions).
 * `message` is for people and must never carry internals.
 */
export class SvcError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    message?: string,
    options: { details?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.name = 'SvcError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  toBody(): ErrorBody {
    return this.details === undefined
      ? { success: false, code: this.code, message: this.message }
      : { success: false, code: this.code, message: this.message, errors: this.details };
  }
}
