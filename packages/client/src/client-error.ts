/**
 * The one error the client throws. `code` is the server's catalogue code (contract §1) or one of
 * the client's own (`NETWORK_ERROR`, `INCOMPATIBLE_SERVER`, `INVALID_RESPONSE`); `status` is the
 * HTTP status, 0 when no response arrived.
 *
 * @example
 * try {
 *   await client.getManifest('contact');
 * } catch (error) {
 *   if (error instanceof SvcClientError && error.code === 'FORM_NOT_FOUND') showNotFound();
 * }
 */
export class SvcClientError extends Error {
  readonly code: string;
  readonly status: number;
  /** The `errors` the server sent with the refusal, if any. */
  readonly details: unknown;

  constructor(code: string, message: string, status = 0, details?: unknown) {
    super(message);
    this.name = 'SvcClientError';
    this.code = code;
    this.status = status;
    this.details = details;
  }
}
