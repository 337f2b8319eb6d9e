/**
 * Console passwords (issue #15): scrypt with a random salt, stored as
 * `scrypt$<N>$<r>$<p>$<salt>$<hash>` (base64url), made by `svc admin hash-password` and checked in
 * constant time. Only the hash is ever in config.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';

const N = 16_384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const FORMAT = /^scrypt\$(\d{4,7})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{43})$/;

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * @example
 * const stored = await hashPassword('correct horse battery staple'); // 'scrypt$16384$8$1$…$…'
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Whether a stored hash has the shape hashPassword makes (config validation). */
export function isPasswordHash(stored: string): boolean {
  return FORMAT.test(stored);
}

/** Whether `password` matches `stored`; false for a malformed hash or a password that is too long. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = FORMAT.exec(stored);
  if (!match || password.length > 1024) return false;
  const [, n, r, p, salt, expected] = match;
  const key = await scrypt(password, Buffer.from(salt as string, 'base64url'), Number(n), Number(r), Number(p));
  const want = Buffer.from(expected as string, 'base64url');
  return key.length === want.length && timingSafeEqual(key, want);
}
