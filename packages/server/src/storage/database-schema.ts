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
  /** JSON object handle -> normalised value. */
  values: string;
  finished: number;
  created_at: string;
  updated_at: string;
}

export interface Database {
  svc_forms: FormsTable;
  svc_fields: FieldsTable;
  svc_submissions: SubmissionsTable;
}
