/**
 * The `integration` token of contract §8: an opaque, signed name of (form, payment field). The
 * manifest hands it to the client (the official Stripe extension sends it back to every payment
 * route), svc writes it into the intent's metadata, and the checkpoint and the finaliser compare
 * the two. It is not a secret; it only cannot be forged or moved to another form or field.
 */
import { deriveKey, hmac, safeEqual } from '../security/token-crypto.js';
import { createBoundedMemo } from '../security/bounded-memo.js';

export interface IntegrationTarget {
  readonly formUid: string;
  readonly fieldUid: string;
}

export interface IntegrationTokens {
  sign(target: IntegrationTarget): string;
  /** The target, or null for a malformed or forged token. */
  verify(token: unknown): IntegrationTarget | null;
}

const UID = /^[A-Za-z0-9-]{1,64}$/;

/** Tokens verified once are known: there is one per payment field, and every payment route checks one. */
const KNOWN_TOKENS = 256;

export function createIntegrationTokens(secret: string): IntegrationTokens {
  const key = deriveKey(secret, 'payment-integration');
  const mac = (formUid: string, fieldUid: string) => hmac(key, `${formUid}\u0000${fieldUid}`).slice(0, 32);
  // Only genuine tokens are kept, so forged ones cannot fill it; an HMAC per checkpoint cost more
  // than its database lookup (issue #17).
  const known = createBoundedMemo<IntegrationTarget>(KNOWN_TOKENS);
  return {
    sign: ({ formUid, fieldUid }) => `${formUid}.${fieldUid}.${mac(formUid, fieldUid)}`,
    verify(token) {
      if (typeof token !== 'string' || token.length > 200) return null;
      const seen = known.get(token);
      if (seen) return seen;
      const [formUid, fieldUid, signature, ...rest] = token.split('.');
      if (rest.length > 0 || !formUid || !fieldUid || !signature || !UID.test(formUid) || !UID.test(fieldUid)) return null;
      if (!safeEqual(signature, mac(formUid, fieldUid))) return null;
      const target = Object.freeze({ formUid, fieldUid });
      known.set(token, target);
      return target;
    },
  };
}
