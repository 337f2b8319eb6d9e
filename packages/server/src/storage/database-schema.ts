/**
 * Table types for Kysely. Timestamps are ISO-8601 UTC text and booleans are 0/1 integers on both
 * dialects, and JSON is text: one repository serves SQLite and PostgreSQL without per-row
 * conversions, and ISO text still sorts and range-filters correctly.
 */
import type { Generated } from 'kysely';

export interface FormsTable {
  id: Generated<number>;
  uid: string;
  handle: string;
  hash: string;
  version: string;
  created_at: string;
  updated_at: string;
}

export interface FieldsTable {
  id: Generated<number>;
  form_id: number;
  /** The field handle, or `submit@<page>` for a page's submit button. */
  key: string;
  uid: string;
  hash: string;
  created_at: string;
}

export interface SubmissionsTable {
  id: Generated<number>;
  uid: string;
  form_id: number;
  /** SHA-256 of the submission token; the token itself is shown once, in the submit response. */
  token_hash: string;
  title: string;
  status: string;
  is_spam: number;
  /** JSON array of reason codes. */
  spam_reasons: string;
  ip: string | null;
  /** HMAC of the client IP under the server secret, for per-IP limits. */
  ip_hash: string | null;
  /** JSON object handle -> normalised value. */
  values: string;
  /** JSON `{name, version, sourceUrl}` the client sent (contract §1), or null. */
  client: string | null;
  /** The profile a submission came through (issue #13): {name, properties, subject, issuer}, JSON. */
  profile: string | null;
  /** The handle of the site it was made on (issue #34); null before sites existed. */
  site: string | null;
  finished: number;
  created_at: string;
  updated_at: string;
  /** How many times an owner has edited the values (issue #35); 0 as submitted. */
  revision: Generated<number>;
  /**
   * The wrapped data key `values` and `title` are sealed under (issue #37 item 1); null = a row
   * from before sealing, still plain JSON and text.
   */
  data_key: string | null;
}

/** issue #35: an owner's note on a submission, deleted with it (foreign key, on delete cascade). */
export interface SubmissionNotesTable {
  id: Generated<number>;
  submission_id: number;
  /** Who wrote it, as the audit log names actors: `user:<name>` or `key:<name>`. */
  author: string;
  created_at: string;
  text: string;
}

export interface DraftsTable {
  id: Generated<number>;
  form_id: number;
  /** SHA-256 (hex) of the draft token. */
  token_hash: string;
  /** AES-256-GCM sealed {values, pageIndex, pageHistory} under a key derived from the draft key. */
  payload: string;
  created_at: string;
  updated_at: string;
  expires_at: string;
  /** The wrapped data key the row's personal data is sealed under (issue #37); null = stored plain. */
  data_key: string | null;
}

export interface IdempotencyKeysTable {
  /** SHA-256 of form id and the client's key. */
  key_hash: string;
  form_id: number;
  request_hash: string;
  /** Null while the first request is still being answered. */
  response_status: number | null;
  response_body: string | null;
  created_at: string;
  /** The wrapped data key the row's personal data is sealed under (issue #37); null = stored plain. */
  data_key: string | null;
}

export interface FilesTable {
  id: Generated<number>;
  /** The upload id clients see (128 random bits, base64url); never a path. */
  public_id: string;
  form_id: number;
  field_handle: string;
  /** Column of a table field's `file` cell; null for a file field. */
  column_index: number | null;
  /** SHA-256 of the client's upload token (drag and drop) or of a per-request secret (multipart). */
  owner_hash: string;
  /** SHA-256 of the uploading browser's CSRF binding cookie (drag and drop), or null. */
  binding_hash: string | null;
  /** Server-chosen key in the file store. */
  storage_key: string;
  /** The client's file name, kept only as metadata. */
  name: string;
  /** Extension and type of the sniffed content, not the client's claim. */
  extension: string;
  mime: string;
  kind: string;
  size: number;
  /** Null until a submit claims the file. */
  submission_id: number | null;
  /** An unattached file kept past the usual 24 h, e.g. while a draft refers to it. */
  hold_until: string | null;
  created_at: string;
  /** The wrapped data key the row's personal data is sealed under (issue #37); null = stored plain. */
  data_key: string | null;
}

export interface DeliveriesTable {
  id: Generated<number>;
  uid: string;
  /** Null for a form that stores no submissions (its notifications still go out). */
  submission_id: number | null;
  form_id: number;
  kind: string;
  target: string;
  payload: string;
  /** pending | delivered | dead */
  status: string;
  attempts: number;
  next_attempt_at: string;
  /** A worker's lease; a crashed worker's jobs are taken again once it passes. */
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
  /** The wrapped data key the row's personal data is sealed under (issue #37); null = stored plain. */
  data_key: string | null;
}

export interface DeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  at: string;
  ok: number;
  detail: string | null;
  duration_ms: number;
}

export interface PaymentsTable {
  id: Generated<number>;
  intent_id: string;
  gateway: string;
  form_id: number;
  field_handle: string;
  /** Set once, by the finalisation that made the submission (issue #12). */
  submission_id: number | null;
  /** Minor units. */
  amount: number;
  amount_refunded: number;
  currency: string;
  status: string;
  created_at: string;
  updated_at: string;
  finalised_at: string | null;
  /** SHA-256 of the creating browser's binding cookie; only it may checkpoint (issue #32). */
  owner_hash: string | null;
}

export interface PaymentCheckpointsTable {
  intent_id: string;
  form_id: number;
  /** AES-256-GCM sealed JSON of the validated submission. */
  sealed: string;
  created_at: string;
  expires_at: string;
}

export interface PaymentEventsTable {
  id: Generated<number>;
  event_id: string;
  intent_id: string;
  type: string;
  status: string;
  amount_refunded: number;
  occurred_at: number;
  received_at: string;
}

export interface SpentLinksTable {
  jti: string;
  profile: string;
  submission_id: number | null;
  spent_at: string;
  expires_at: string;
}

export interface ClassicFlashesTable {
  key_hash: string;
  form_id: number;
  sealed: string;
  expires_at: string;
}

export interface ClassicSessionsTable {
  id_hash: string;
  form_id: number;
  sealed: string;
  expires_at: string;
}

/** A console session (issue #32): the cookie carries a random id, the row only its SHA-256. */
export interface ConsoleSessionsTable {
  id_hash: string;
  kind: 'user' | 'key';
  name: string;
  /** A short hash of the credential signed in with: a password change or a new key ends the session. */
  credential: string;
  created_at: string;
  seen_at: string;
  /** The earlier of the idle expiry (seen_at + idle) and the absolute one (created_at + max). */
  expires_at: string;
}

/** issue #35: a console user's saved filter of a form's list (the query string as saved). */
export interface ConsoleFiltersTable {
  id: Generated<number>;
  /** `user:<name>` or `key:<name>`, as the audit log names actors. */
  owner: string;
  form_handle: string;
  name: string;
  query: string;
  created_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  /** `key:<name>` for an admin API key (later `user:<name>` for a console user). */
  actor: string;
  action: string;
  form_handle: string | null;
  target: string | null;
  /** JSON: what changed (from → to, the export's filter, …); never submitted values. */
  detail: string;
  ip: string | null;
  /** The wrapped data key the row's personal data is sealed under (issue #37); null = stored plain. */
  data_key: string | null;
}

/** issue #38: answered steps per form, hour (since the epoch), site, page, intent and outcome. */
export interface InsightStepsTable {
  form_id: number;
  hour: number;
  site: string;
  page: number;
  intent: string;
  outcome: string;
  n: number;
}

/** issue #38: validation errors per field and message key. */
export interface InsightFieldErrorsTable {
  form_id: number;
  hour: number;
  site: string;
  field: string;
  message_key: string;
  n: number;
}

/** issue #38: views, starts, completions, resumes (page -1); reached and net arrivals ("at") per page. */
export interface InsightCountsTable {
  form_id: number;
  hour: number;
  site: string;
  kind: string;
  page: number;
  n: number;
}

/** issue #38: journeys that left a page after `seconds` (a histogram bucket's floor). */
export interface InsightDurationsTable {
  form_id: number;
  hour: number;
  site: string;
  page: number;
  seconds: number;
  n: number;
}

/** issue #37: the blind index of `personal` fields, keyed hashes only, deleted with the submission (cascade). */
export interface PrivacyIndexTable {
  submission_id: number;
  form_id: number;
  /** `email` or `identifier`. */
  kind: string;
  /** HMAC-SHA-256 (base64url) of kind and normalised value under a key derived from the secret. */
  hash: string;
}

/** issue #35 item 6: submissions per form, UTC hour (since the epoch), status and spam flag, kept at write time. */
export interface ReportCountsTable {
  form_id: number;
  hour: number;
  status: string;
  is_spam: number;
  /** One of a few copies of the row (PostgreSQL write lanes); reports sum them. */
  slot: number;
  n: number;
}

/** issue #35 item 6: clean submissions per form, UTC hour, reported field and answer (a list answer: per element). */
export interface ReportAnswersTable {
  form_id: number;
  hour: number;
  handle: string;
  answer: string;
  /** One of a few copies of the row (PostgreSQL write lanes); reports sum them. */
  slot: number;
  n: number;
}

/** issue #35 item 6: ReportCountsTable per UTC day (since the epoch), for the whole days of a period. */
export interface ReportCountDaysTable {
  form_id: number;
  day: number;
  status: string;
  is_spam: number;
  /** One of a few copies of the row (PostgreSQL write lanes); reports sum them. */
  slot: number;
  n: number;
}

/** issue #35 item 6: ReportAnswersTable per UTC day, for the whole days of a period. */
export interface ReportAnswerDaysTable {
  form_id: number;
  day: number;
  handle: string;
  answer: string;
  /** One of a few copies of the row (PostgreSQL write lanes); reports sum them. */
  slot: number;
  n: number;
}

/** issue #35 item 6: the fields each form's answers are counted for (JSON), so a change is recounted. */
export interface ReportFormsTable {
  form_id: number;
  fields: string;
  counted_at: string;
}

/**
 * issue #37 item 2: one row per erased submission (privacy/privacy-ledger.ts): what went, never a
 * value. Mirrored to the append-only ledger file so a restored older database erases it again.
 */
export interface ErasuresTable {
  id: Generated<number>;
  submission_uid: string;
  form_id: number;
  /** JSON [{id, key}]: the public ids and storage keys of its uploads. */
  uploads: string;
  /** `erase` (a data request), `delete` (admin, console), `retention` or `spam-retention`. */
  reason: string;
  /** The signed receipt's id, for an erasure that has one. */
  receipt: string | null;
  erased_at: string;
  /** 1 once the entry is in the ledger file; a start mirrors any 0 left by a crash. */
  mirrored: Generated<number>;
}

/** issue #37 item 2: how many bytes of each ledger file (by its id) this database has applied. */
export interface ErasureMarksTable {
  ledger: string;
  applied_bytes: number | string;
  applied_at: string;
}

export interface Database {
  svc_forms: FormsTable;
  svc_fields: FieldsTable;
  svc_submissions: SubmissionsTable;
  svc_submission_notes: SubmissionNotesTable;
  svc_drafts: DraftsTable;
  svc_idempotency_keys: IdempotencyKeysTable;
  svc_files: FilesTable;
  svc_deliveries: DeliveriesTable;
  svc_delivery_attempts: DeliveryAttemptsTable;
  svc_payments: PaymentsTable;
  svc_payment_checkpoints: PaymentCheckpointsTable;
  svc_payment_events: PaymentEventsTable;
  svc_spent_links: SpentLinksTable;
  svc_classic_flashes: ClassicFlashesTable;
  svc_classic_sessions: ClassicSessionsTable;
  svc_audit_log: AuditLogTable;
  svc_console_sessions: ConsoleSessionsTable;
  svc_console_filters: ConsoleFiltersTable;
  svc_insight_steps: InsightStepsTable;
  svc_insight_field_errors: InsightFieldErrorsTable;
  svc_insight_counts: InsightCountsTable;
  svc_insight_durations: InsightDurationsTable;
  svc_privacy_index: PrivacyIndexTable;
  svc_erasures: ErasuresTable;
  svc_erasure_marks: ErasureMarksTable;
  svc_report_counts: ReportCountsTable;
  svc_report_answers: ReportAnswersTable;
  svc_report_count_days: ReportCountDaysTable;
  svc_report_answer_days: ReportAnswerDaysTable;
  svc_report_forms: ReportFormsTable;
}
