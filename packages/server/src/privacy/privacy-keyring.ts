/**
 * Envelope encryption for what svc stores about people (issue #37 item 1). Each sealed thing (a
 * submission's values, an upload's bytes, a draft) has its own random 256-bit data key; the data
 * key is stored only wrapped under a key-encryption key (KEK) named by id, so keys rotate by
 * rewrapping 48-byte keys, never by rewriting values, and destroying one wrapped data key makes
 * everything sealed under it unreadable wherever copies of the ciphertext went.
 *
 * node:crypto only, as the rest of svc's tokens (security/token-crypto.ts): AES-256-GCM is what
 * every maintained envelope library (AWS Encryption SDK, Tink) uses underneath, and none of them
 * brings a local, offline KEK without a cloud KMS.
 */
import { createCipheriv, createDecipheriv, type Cipher, type Decipher } from 'node:crypto';
import { deriveKey, pooledRandomBytes } from '../security/token-crypto.js';

/** A key-encryption key: an id that is stored beside each wrapped data key, and 32 bytes. */
export interface KeyEncryptionKey {
  readonly id: string;
  readonly key: Buffer;
}

export interface Keyring {
  /** The id new data keys are wrapped under. */
  readonly activeId: string;
  /** A fresh data key and its wrapped form (`<kek id>.<base64url>`), to store beside what it seals. */
  newDataKey(): { key: Buffer; wrapped: string };
  /** The data key, or null when the wrapped form is malformed, tampered with or its KEK is unknown. */
  unwrap(wrapped: string): Buffer | null;
  /** unwrap() of each, in order; keys in the current form under one KEK are unwrapped in one cipher call. */
  unwrapMany(wrapped: readonly string[]): (Buffer | null)[];
  /** The same data key wrapped under the active KEK; null when it cannot be unwrapped. */
  rewrap(wrapped: string): string | null;
}

/** The KEK id a wrapped data key names (`svc keys rotate` rewraps those not under the active one). */
export function kekIdOf(wrapped: string): string {
  const dot = wrapped.indexOf('.');
  return dot < 0 ? '' : wrapped.slice(0, dot);
}

/** The KEK an installation has when it configures none: derived from its secret, id `secret`. */
export function secretKek(secret: string): KeyEncryptionKey {
  return { id: 'secret', key: deriveKey(secret, 'privacy-kek') };
}

/**
 * How a data key is wrapped: AES-256 block by block (ECB) over the key's two blocks and a fixed
 * check block, 48 bytes. An export opens every row's key, and a GCM wrap cost a cipher set-up per
 * row (about 4 µs in Node, as much as the rest of the row: issue #37 item 6), where one ECB
 * context per KEK serves every row, since ECB keeps no state between blocks. That is the
 * deterministic wrap of NIST SP 800-38F without its integrity check, and safe here because what it
 * wraps is uniformly random and used once. The check block (the same for every key under one KEK,
 * as the check value of a payment key block) makes a wrong or unknown KEK unwrap to null; a changed
 * key block unwraps to a key that opens nothing, since everything sealed under a data key carries
 * its own GCM tag. Keys wrapped before this (AES-256-GCM, 60 bytes) still unwrap and rewrap.
 */
const CHECK_BLOCK = Buffer.from('svc:data-key:v2\0', 'latin1');
const WRAPPED_BYTES = 48;
/** Its base64url length after `<kek id>.` (privacy-key-rotation.ts counts keys by it). */
export const WRAPPED_CHARS = 64;
const GCM_WRAPPED_BYTES = 60;
const GCM_WRAP_AAD = Buffer.from('svc:data-key');

/** One ECB context each way per KEK, reused for every key (autopadding off: whole blocks only). */
function blockCiphers(kek: Buffer): { wrap: Cipher; unwrap: Decipher } {
  const wrap = createCipheriv('aes-256-ecb', kek, null).setAutoPadding(false);
  const unwrap = createDecipheriv('aes-256-ecb', kek, null).setAutoPadding(false);
  return { wrap, unwrap };
}

/** The data keys in block-wrapped bodies laid end to end, in order; null where the check block is wrong. */
function openBlocks(unwrap: Decipher, bodies: Buffer): (Buffer | null)[] {
  const opened = unwrap.update(bodies);
  const keys: (Buffer | null)[] = [];
  for (let at = 0; at + WRAPPED_BYTES <= opened.length; at += WRAPPED_BYTES) {
    keys.push(opened.subarray(at + 32, at + WRAPPED_BYTES).equals(CHECK_BLOCK) ? opened.subarray(at, at + 32) : null);
  }
  return keys;
}

/** Whether `wrapped` is in the block-wrapped form under the KEK `id`. */
function isBlockWrapped(wrapped: string, id: string): boolean {
  return wrapped.length === id.length + 1 + WRAPPED_CHARS;
}

export function createKeyring(keks: readonly KeyEncryptionKey[], activeId: string): Keyring {
  const byId = new Map(keks.map((k) => [k.id, { key: k.key, ...blockCiphers(k.key) }]));
  const active = byId.get(activeId);
  if (!active) throw new Error(`privacy: the active key "${activeId}" is not among the configured keys`);
  const wrap = (dataKey: Buffer): string => `${activeId}.${active.wrap.update(Buffer.concat([dataKey, CHECK_BLOCK])).toString('base64url')}`;
  const unwrap = (wrapped: string): Buffer | null => {
    if (typeof wrapped !== 'string' || wrapped.length > 200) return null;
    const kek = byId.get(kekIdOf(wrapped));
    if (!kek) return null;
    const body = Buffer.from(wrapped.slice(wrapped.indexOf('.') + 1), 'base64url');
    if (body.length === WRAPPED_BYTES) return openBlocks(kek.unwrap, body)[0] ?? null;
    if (body.length !== GCM_WRAPPED_BYTES) return null;
    const opened = openBytes(kek.key, body, GCM_WRAP_AAD);
    return opened && opened.length === 32 ? opened : null;
  };
  const unwrapMany = (list: readonly string[]): (Buffer | null)[] => {
    // An export unwraps a page of keys at a time: the bodies under one KEK (64 base64url characters
    // each, no padding, so they decode as one) go through its ECB context in one call instead of one
    // call per key, a third of what the keys cost.
    const out: (Buffer | null)[] = new Array<Buffer | null>(list.length).fill(null);
    const groups = new Map<string, number[]>();
    list.forEach((wrapped, i) => {
      const id = typeof wrapped === 'string' ? kekIdOf(wrapped) : '';
      if (byId.has(id) && isBlockWrapped(wrapped, id)) {
        const group = groups.get(id);
        if (group) group.push(i);
        else groups.set(id, [i]);
      } else out[i] = unwrap(wrapped);
    });
    for (const [id, indexes] of groups) {
      const bodies = Buffer.from(indexes.map((i) => (list[i] as string).slice(id.length + 1)).join(''), 'base64url');
      const keys = openBlocks((byId.get(id) as { unwrap: Decipher }).unwrap, bodies);
      indexes.forEach((index, n) => {
        out[index] = keys[n] ?? null;
      });
    }
    return out;
  };
  return {
    activeId,
    newDataKey() {
      // From the pool (security/token-crypto.ts): a call of randomBytes per key and per IV cost a
      // submission about 2 µs each on the loaded machine (issue #37 item 6).
      const key = pooledRandomBytes(32);
      return { key, wrapped: wrap(key) };
    },
    unwrap,
    unwrapMany,
    rewrap(wrapped) {
      const key = unwrap(wrapped);
      if (!key) return null;
      // A key already under the active KEK in the current form stays as it is.
      return kekIdOf(wrapped) === activeId && isBlockWrapped(wrapped, activeId) ? wrapped : wrap(key);
    },
  };
}

/** AES-256-GCM: iv (12) | tag (16) | ciphertext. `aad` binds the bytes to what they belong to. */
export function sealBytes(key: Buffer, plain: Buffer, aad: Buffer): Buffer {
  const iv = pooledRandomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The plain bytes, or null when the input is short, tampered with or sealed under another key. */
export function openBytes(key: Buffer, sealed: Buffer, aad: Buffer): Buffer | null {
  if (sealed.length < 28) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
    decipher.setAAD(aad);
    decipher.setAuthTag(sealed.subarray(12, 28));
    const opened = decipher.update(sealed.subarray(28));
    // GCM is a stream mode: final() adds no bytes, it checks the tag (and throws on a mismatch).
    decipher.final();
    return opened;
  } catch {
    return null;
  }
}

/**
 * Sealed text as stored in a text column: `sv1.` then base64url. The prefix tells sealed from
 * plain rows, so the encrypting migration can resume where it stopped and reads work during it.
 */
const TEXT_PREFIX = 'sv1.';

export function isSealedText(stored: string): boolean {
  return stored.startsWith(TEXT_PREFIX);
}

export function sealText(key: Buffer, plain: string, aad: string): string {
  return TEXT_PREFIX + sealBytes(key, Buffer.from(plain, 'utf8'), Buffer.from(aad, 'utf8')).toString('base64url');
}

/** The plain text, or null when `stored` is not sealed text or does not open under `key`. */
export function openText(key: Buffer, stored: string, aad: string): string | null {
  if (!isSealedText(stored)) return null;
  const opened = openBytes(key, Buffer.from(stored.slice(TEXT_PREFIX.length), 'base64url'), Buffer.from(aad, 'utf8'));
  return opened ? opened.toString('utf8') : null;
}
