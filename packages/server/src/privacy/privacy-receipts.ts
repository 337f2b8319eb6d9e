/**
 * Signed erasure receipts (issue #37 item 4). The signing key is Ed25519, derived from the server
 * secret (HKDF, its own label) rather than generated into the data directory: every instance of a
 * cluster signs with the same key without sharing a file, and a restored backup of the data
 * directory holds no private key. The public key is published (GET /svc/privacy/receipt-key,
 * `svc privacy receipt-key`) as a JWK set whose `kid` every receipt names, so a verifier keeps
 * the keys it has seen. Rotation: changing the server secret gives a new key (and kid); keep the
 * old public key to verify old receipts (docs/privacy.md).
 *
 * The signature covers the UTF-8 bytes of `JSON.stringify(receipt)`: a receipt parsed from its JSON
 * and stringified again gives the same bytes (string keys keep their order), so the offline check
 * needs node:crypto and nothing else.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { deriveKey } from '../security/token-crypto.js';
import type { Subject } from './privacy-blind-index.js';

export interface ErasedSubmission {
  readonly submission: number;
  readonly form: string;
  readonly files: number;
}

export interface ErasureReceipt {
  readonly id: string;
  readonly subject: Subject;
  readonly erased: readonly ErasedSubmission[];
  readonly at: string;
  /** Who asked, as the audit log names actors: `key:<name>`, `user:<name>`, `cli`. */
  readonly by: string;
}

export interface SignedReceipt {
  readonly receipt: ErasureReceipt;
  /** Ed25519 over JSON.stringify(receipt), base64url. */
  readonly signature: string;
  readonly keyId: string;
}

export interface ReceiptJwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
  readonly kid: string;
  readonly use: 'sig';
  readonly alg: 'EdDSA';
}

export interface ReceiptSigner {
  readonly keyId: string;
  sign(receipt: ErasureReceipt): SignedReceipt;
  /** The public key as a JWK set (what GET /svc/privacy/receipt-key answers). */
  jwks(): { keys: ReceiptJwk[] };
  /** The public key as SPKI PEM. */
  pem(): string;
}

// PKCS#8 DER of an Ed25519 private key is this fixed prefix followed by the 32-byte seed (RFC 8410).
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function createReceiptSigner(secret: string): ReceiptSigner {
  const seed = deriveKey(secret, 'privacy-receipt-signing');
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey: KeyObject = createPublicKey(privateKey);
  const x = (publicKey.export({ format: 'jwk' }) as { x: string }).x;
  // The RFC 7638 thumbprint of the JWK: a kid anyone can recompute from the key itself.
  const keyId = createHash('sha256').update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x })).digest('base64url');
  return {
    keyId,
    sign(receipt) {
      const signature = sign(null, Buffer.from(JSON.stringify(receipt), 'utf8'), privateKey).toString('base64url');
      return { receipt, signature, keyId };
    },
    jwks: () => ({ keys: [{ kty: 'OKP', crv: 'Ed25519', x, kid: keyId, use: 'sig', alg: 'EdDSA' }] }),
    pem: () => publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  };
}

/** Checks a signed receipt against a JWK (what a verifier does; the tests and docs do the same by hand). */
export function verifyReceipt(signed: SignedReceipt, jwk: ReceiptJwk): boolean {
  const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  return verify(null, Buffer.from(JSON.stringify(signed.receipt), 'utf8'), key, Buffer.from(signed.signature, 'base64url'));
}
