/**
 * Values sealed at rest (issue #37 item 1): every row that holds a person's values carries its own
 * wrapped data key in a text column `data_key`, and its value columns hold `sv1.` sealed text
 * (privacy-keyring.ts) under that key. A row whose `data_key` is null is a legacy plaintext row
 * from before encryption (the `svc privacy encrypt` pass seals those); reads accept both, so a
 * half-encrypted table keeps working.
 *
 * One instance per process, built once in the composition root from the configured keyring and
 * handed to everything that writes or reads sealed columns (SubmitServices.sealer).
 */
import type { Keyring } from './privacy-keyring.js';
import { kekIdOf, openText, sealText } from './privacy-keyring.js';

/** A data key in hand: its wrapped form (for the row's `data_key`) and the sealing of its columns. */
export interface RowSeal {
  /** `<kek id>.<base64url>`: store it in the row's `data_key` column. */
  readonly wrapped: string;
  sealJson(value: unknown, aad: string): string;
  sealText(text: string, aad: string): string;
}

/** A row's data key unwrapped once, to open several of its columns. */
export interface RowOpener {
  /** The parsed JSON, or null when it cannot be opened (tampered with, or its key destroyed). */
  json<T>(stored: string, aad: string): T | null;
  /** The text, or null when it cannot be opened. */
  text(stored: string, aad: string): string | null;
}

export interface ValueSealer {
  /** The KEK id new data keys are wrapped under (`svc keys status`). */
  readonly activeKekId: string;
  /** A fresh data key for a new row. */
  forNew(): RowSeal;
  /**
   * The data key of an existing row, to re-seal a column it already has (an owner's edit keeps the
   * row's key); a legacy row (null) gets a fresh key. Null when `wrapped` cannot be unwrapped.
   */
  forRow(wrapped: string | null): RowSeal | null;
  /** An opener for a row; for a legacy row (null `data_key`) it reads plain JSON and text. */
  opener(wrapped: string | null): RowOpener;
  /** One JSON column of a row; null when it cannot be opened. */
  openJson<T>(wrapped: string | null, stored: string, aad: string): T | null;
  /** One text column of a row; null when it cannot be opened. */
  openText(wrapped: string | null, stored: string, aad: string): string | null;
  /** The row's data key rewrapped under the active KEK; null when it cannot be unwrapped. */
  rewrap(wrapped: string): string | null;
  /** Whether a wrapped key is already under the active KEK. */
  isActive(wrapped: string): boolean;
  /** A fresh data key itself, for what is sealed as a stream of bytes (an upload's file). */
  newKey(): { key: Buffer; wrapped: string };
  /** A row's data key itself (an upload's file is opened as a stream); null when it cannot be unwrapped. */
  unwrap(wrapped: string): Buffer | null;
}

/**
 * Every table with a `data_key` column, for `svc keys rotate` and `svc keys status`: its name and
 * the unique column rotation pages by. Other rooms append their sealed tables here (uploads,
 * drafts, outbox jobs, ...).
 */
export interface SealedTable {
  readonly table: string;
  /** A unique, orderable column (the primary key). */
  readonly key: string;
}

export const SEALED_TABLES: SealedTable[] = [
  { table: 'svc_submissions', key: 'id' },
  // Uploads (their stored bytes), drafts, idempotency answers, outbox jobs, audit entries with values.
  { table: 'svc_files', key: 'id' },
  { table: 'svc_drafts', key: 'id' },
  { table: 'svc_idempotency_keys', key: 'key_hash' },
  { table: 'svc_deliveries', key: 'id' },
  { table: 'svc_audit_log', key: 'id' },
];

/** What a submission's values are bound to (its uid: the id is assigned by the insert). */
export function submissionAad(uid: string): string {
  return `submission:${uid}`;
}

/** The title's binding: apart from the values', so the two columns cannot be swapped. */
export function submissionTitleAad(uid: string): string {
  return `submission:${uid}:title`;
}

const PLAIN_OPENER: RowOpener = {
  json<T>(stored: string): T | null {
    try {
      return JSON.parse(stored) as T;
    } catch {
      return null;
    }
  },
  text: (stored) => stored,
};

/** An opener that opens nothing: the row's key is gone or was tampered with. */
const CLOSED_OPENER: RowOpener = { json: () => null, text: () => null };

export function createValueSealer(keyring: Keyring): ValueSealer {
  const seal = (key: Buffer, wrapped: string): RowSeal => ({
    wrapped,
    sealJson: (value, aad) => sealText(key, JSON.stringify(value), aad),
    sealText: (text, aad) => sealText(key, text, aad),
  });
  const opener = (wrapped: string | null): RowOpener => {
    if (wrapped === null) return PLAIN_OPENER;
    const key = keyring.unwrap(wrapped);
    if (!key) return CLOSED_OPENER;
    return {
      json<T>(stored: string, aad: string): T | null {
        const text = openText(key, stored, aad);
        if (text === null) return null;
        try {
          return JSON.parse(text) as T;
        } catch {
          return null;
        }
      },
      text: (stored, aad) => openText(key, stored, aad),
    };
  };
  return {
    activeKekId: keyring.activeId,
    forNew() {
      const { key, wrapped } = keyring.newDataKey();
      return seal(key, wrapped);
    },
    forRow(wrapped) {
      if (wrapped === null) return this.forNew();
      const key = keyring.unwrap(wrapped);
      return key ? seal(key, wrapped) : null;
    },
    opener,
    openJson: (wrapped, stored, aad) => opener(wrapped).json(stored, aad),
    openText: (wrapped, stored, aad) => opener(wrapped).text(stored, aad),
    rewrap: (wrapped) => keyring.rewrap(wrapped),
    isActive: (wrapped) => kekIdOf(wrapped) === keyring.activeId,
    newKey: () => keyring.newDataKey(),
    unwrap: (wrapped) => keyring.unwrap(wrapped),
  };
}
