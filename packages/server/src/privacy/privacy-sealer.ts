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
  /** opener() of each row, their keys unwrapped together (a page of an export). */
  openers(wrapped: readonly (string | null)[]): RowOpener[];
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

/**
 * A submission's title and values are sealed together, in its `values` column, bound to its uid
 * (the id is assigned by the insert); its `title` column is empty. Sealed apart, as the first
 * sealed rows were, a row cost an export two cipher set-ups instead of one: opening rows by the
 * hundred thousand is what an export does (issue #37 item 6). The plain text is the title's length
 * in UTF-16 units, a colon, the title, then the values' JSON.
 */
function submissionSealAad(uid: string): string {
  return `submission:${uid}:title+values`;
}

/** The first sealed rows' bindings: values, and the title apart in its own column. */
function legacyValuesAad(uid: string): string {
  return `submission:${uid}`;
}
function legacyTitleAad(uid: string): string {
  return `submission:${uid}:title`;
}

/** A submission row's columns that hold its person's data, as stored. */
export interface SubmissionColumnsRow {
  readonly uid: string;
  readonly title: string;
  readonly values: string;
  /** Null: a legacy row from before sealing, plain. */
  readonly data_key: string | null;
}

/** A submission's title and values JSON text, opened; null where they cannot be opened (the key destroyed or tampered with). */
export interface OpenedColumns {
  readonly title: string | null;
  readonly values: string | null;
}

/** The stored `values` and `title` of a submission sealed under `seal`. */
export function sealSubmissionColumns(seal: RowSeal, uid: string, valuesJson: string, title: string): { values: string; title: string } {
  return { values: seal.sealText(`${title.length}:${title}${valuesJson}`, submissionSealAad(uid)), title: '' };
}

const CLOSED: OpenedColumns = { title: null, values: null };

/** A stored submission's title and values text (a legacy row is plain already). */
export function openSubmissionColumns(sealer: Pick<ValueSealer, 'opener'>, row: SubmissionColumnsRow): OpenedColumns {
  return openWith(sealer.opener(row.data_key), row);
}

/** openSubmissionColumns() of a page of rows, their keys unwrapped together. */
export function openSubmissionPage(sealer: Pick<ValueSealer, 'openers'>, rows: readonly SubmissionColumnsRow[]): OpenedColumns[] {
  const openers = sealer.openers(rows.map((row) => row.data_key));
  return rows.map((row, i) => openWith(openers[i] as RowOpener, row));
}

function openWith(opener: RowOpener, row: SubmissionColumnsRow): OpenedColumns {
  if (row.data_key === null) return { title: row.title, values: row.values };
  if (row.title !== '') return { title: opener.text(row.title, legacyTitleAad(row.uid)), values: opener.text(row.values, legacyValuesAad(row.uid)) };
  const text = opener.text(row.values, submissionSealAad(row.uid));
  const colon = text === null ? -1 : text.indexOf(':');
  if (text === null || colon < 1) return CLOSED;
  const end = colon + 1 + Number(text.slice(0, colon));
  return Number.isInteger(end) && end <= text.length ? { title: text.slice(colon + 1, end), values: text.slice(end) } : CLOSED;
}

/** Opened values text parsed; null when it could not be opened or is not JSON (a damaged legacy row). */
export function parseOpenedValues<T>({ values }: OpenedColumns): T | null {
  if (values === null) return null;
  try {
    return JSON.parse(values) as T;
  } catch {
    return null;
  }
}

/** A stored submission's values, parsed; null when they cannot be opened. */
export function openSubmissionValues<T>(sealer: Pick<ValueSealer, 'opener'>, row: SubmissionColumnsRow): T | null {
  return parseOpenedValues<T>(openSubmissionColumns(sealer, row));
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
  const opener = (wrapped: string | null): RowOpener => (wrapped === null ? PLAIN_OPENER : keyOpener(keyring.unwrap(wrapped)));
  const keyOpener = (key: Buffer | null): RowOpener => {
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
    openers(list) {
      const sealed = list.filter((wrapped): wrapped is string => wrapped !== null);
      const keys = keyring.unwrapMany(sealed);
      let next = 0;
      return list.map((wrapped) => (wrapped === null ? PLAIN_OPENER : keyOpener(keys[next++] ?? null)));
    },
    openJson: (wrapped, stored, aad) => opener(wrapped).json(stored, aad),
    openText: (wrapped, stored, aad) => opener(wrapped).text(stored, aad),
    rewrap: (wrapped) => keyring.rewrap(wrapped),
    isActive: (wrapped) => kekIdOf(wrapped) === keyring.activeId,
    newKey: () => keyring.newDataKey(),
    unwrap: (wrapped) => keyring.unwrap(wrapped),
  };
}
