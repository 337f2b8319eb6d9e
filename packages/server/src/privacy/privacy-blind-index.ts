/**
 * The blind index (issue #37 item 3): for each value of a field marked `personal`, a keyed
 * HMAC-SHA-256 of its normalised form, so a person's submissions are found by their address or
 * identifier without any plaintext index. The key is derived from the server secret under its own
 * label: a database dump alone cannot test guesses against the hashes, and no other token svc
 * makes shares the key.
 */
import type { Field, Form, PersonalKind, Values } from '@svc/core';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import { deriveKey, hmac } from '../security/token-crypto.js';

export const PERSONAL_KINDS: readonly PersonalKind[] = ['email', 'identifier'];

/** A person as the privacy requests name them: the kind and the keyed hash of the normalised value. */
export interface Subject {
  readonly kind: PersonalKind;
  readonly hash: string;
}

export interface IndexEntry {
  readonly kind: PersonalKind;
  readonly hash: string;
}

export interface BlindIndex {
  /** The subject a value stands for, or null for a value that is empty once normalised. */
  subject(kind: PersonalKind, value: string): Subject | null;
  /** Index entries of a submission's values (one per distinct kind and hash). */
  entries(form: Form, values: Values): IndexEntry[];
  /** Writes `entries` for a submission (in the caller's transaction). */
  write(db: Kysely<Database> | Transaction<Database>, submissionId: number, formId: number, entries: readonly IndexEntry[]): Promise<void>;
}

/**
 * email: trimmed and lower-cased (the local part is case-sensitive by the RFC, but no provider
 * treats it so and people type it both ways); identifier: trimmed and NFC, so the same characters
 * typed on different systems match.
 */
export function normalisePersonal(kind: PersonalKind, value: string): string {
  const trimmed = value.trim();
  return kind === 'email' ? trimmed.toLowerCase() : trimmed.normalize('NFC');
}

/** The fields of a form marked personal, with their kind. */
export function personalFields(form: Form): { handle: string; kind: PersonalKind }[] {
  const out: { handle: string; kind: PersonalKind }[] = [];
  for (const field of form.fields as readonly Field[]) {
    if (field.personal && field.handle) out.push({ handle: field.handle, kind: field.personal });
  }
  return out;
}

/** Strings a value holds: a plain string, or each string of a list (a hidden field may carry several). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number') return [String(value)];
  if (Array.isArray(value)) return value.flatMap((v) => (typeof v === 'string' ? [v] : []));
  return [];
}

export function createBlindIndex(secret: string): BlindIndex {
  const key = deriveKey(secret, 'privacy-blind-index');
  const subject = (kind: PersonalKind, value: string): Subject | null => {
    const normalised = normalisePersonal(kind, value);
    // The kind is part of what is hashed, so an identifier equal to an address is another subject.
    return normalised === '' ? null : { kind, hash: hmac(key, `${kind}\n${normalised}`) };
  };
  return {
    subject,
    entries(form, values) {
      const seen = new Map<string, IndexEntry>();
      for (const { handle, kind } of personalFields(form)) {
        for (const raw of strings((values as Record<string, unknown>)[handle])) {
          const found = subject(kind, raw);
          if (found) seen.set(`${found.kind}\n${found.hash}`, found);
        }
      }
      return [...seen.values()];
    },
    async write(db, submissionId, formId, entries) {
      if (entries.length === 0) return;
      await db
        .insertInto('svc_privacy_index')
        .values(entries.map((e) => ({ submission_id: submissionId, form_id: formId, kind: e.kind, hash: e.hash })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
  };
}
