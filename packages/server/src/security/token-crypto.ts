/**
 * The crypto every token in svc is built from (node:crypto only): HKDF-derived purpose keys,
 * HMAC signatures, AES-256-GCM sealed JSON, constant-time comparison, and random tokens.
 */
import { memoized } from './bounded-memo.js';
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** A 32-byte key for one purpose, so a leak of one token kind says nothing about another. */
export function deriveKey(secret: string, purpose: string, salt = ''): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, salt, `svc:${purpose}`, 32));
}

export function hmac(key: Buffer, data: string): string {
  return createHmac('sha256', key).update(data).digest('base64url');
}

/**
 * A keyed hash of client IPs: recognisable for limits, not reversible from a database dump.
 * Clients come back, so each address is hashed once while the memo holds it.
 */
export function createIpHasher(secret: string): (ip: string) => string {
  const key = deriveKey(secret, 'client-ip');
  return memoized(4096, (ip) => hmac(key, ip));
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Random bytes drawn a page at a time from the CSPRNG, each byte used once and zeroed after, as
 * Node's own randomUUID does: a call of randomBytes costs about 13 µs on a busy machine, and a
 * submit or an upload needs several small draws (issue #17).
 */
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/** Makes sure `count` unused bytes are left in the pool. */
function reserve(count: number): void {
  if (poolOffset + count > pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
}

function pooledBytes(count: number): Buffer {
  if (count > POOL_SIZE) return randomBytes(count);
  reserve(count);
  const out = Buffer.from(pool.subarray(poolOffset, poolOffset + count));
  pool.fill(0, poolOffset, poolOffset + count);
  poolOffset += count;
  return out;
}

/**
 * `count` random bytes from the pool, a Buffer of their own: the IVs and data keys of values
 * sealed at rest (issue #37), drawn for every submission.
 */
export function pooledRandomBytes(count: number): Buffer {
  return pooledBytes(count);
}

/** `bytes` random bytes as base64url (16 bytes = 128 bits -> 22 chars). */
export function randomToken(bytes = 16): string {
  return pooledBytes(bytes).toString('base64url');
}

/**
 * A public id that sorts by creation time: the Unix time in milliseconds as 12 hex digits, then
 * 128 random bits (randomToken). Upload rows keyed by one append to their unique index instead of
 * dirtying a random index page each: 27% fewer WAL frames per upload in batches of ten (issue #17).
 */
export function timeOrderedToken(now = Date.now()): string {
  return `${now.toString(16).padStart(12, '0')}${randomToken(16)}`;
}

/** `bytes` random bytes as lower-case hex (names of stored files). */
export function randomHex(bytes = 16): string {
  return pooledBytes(bytes).toString('hex');
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters from [A-Za-z0-9] without modulo bias (5.95 bits each). */
export function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    reserve(1);
    const byte = pool[poolOffset] as number;
    pool[poolOffset++] = 0;
    // 248 = 62 * 4: bytes above it would skew the distribution.
    if (byte < 248) out += ALPHANUMERIC[byte % 62];
  }
  return out;
}

/** Authenticated encryption of a JSON value: base64url(iv | tag | ciphertext). */
export function sealJson(key: Buffer, value: unknown, aad = ''): string {
  const iv = pooledBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The sealed value, or null when the token is malformed, tampered with or sealed under another key. */
export function openJson(key: Buffer, token: string, aad = '', maxChars = 64_000): unknown {
  if (typeof token !== 'string' || token.length < 40 || token.length > maxChars || !/^[A-Za-z0-9_-]+$/.test(token)) {
    return null;
  }
  const raw = Buffer.from(token, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * A version 7 UUID (RFC 9562): the Unix time in milliseconds, then 74 random bits. Rows keyed by
 * one are appended at the end of their unique index instead of at a random place in it, so a
 * batch of inserts touches a few index pages instead of one per row (issue #17).
 */
export function timeOrderedUuid(now = Date.now()): string {
  const bytes = pooledBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
