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

/** The error for a refusal the service answered: its catalogue code and message when the body has them (contract §1). */
export function refusalError(status: number, body: unknown): SvcClientError {
  const refusal = body as { code?: unknown; message?: unknown; errors?: unknown } | null;
  return new SvcClientError(
    typeof refusal?.code === 'string' ? refusal.code : 'HTTP_ERROR',
    typeof refusal?.message === 'string' ? refusal.message : `The form service answered ${status}.`,
    status,
    refusal?.errors,
  );
}
