/**
 * The `Idempotency-Key` header (contract §4), read the same way by every submit route that takes
 * it (the form's and a profile's): absent, or 1-200 printable ASCII characters.
 */
import type { FastifyRequest } from 'fastify';
import { SvcError } from '@svc/core';

/** The header's key, undefined when absent; PAYLOAD_INVALID when it is no usable key. */
export function readIdempotencyKey(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(key)) throw new SvcError('PAYLOAD_INVALID', 'Idempotency-Key must be 1-200 printable characters.');
  return key;
}
