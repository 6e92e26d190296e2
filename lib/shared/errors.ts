/**
 * The closed list of failures a core verb (or the API chain around it) can report. lib/api/errors.ts
 * maps each kind to an HTTP status and the wire envelope; other entry points (CLI, SMTP) map them
 * their own way.
 */
export const ERROR_KINDS = [
  'invalid_input', // 400: the request is malformed or breaks a rule
  'unauthenticated', // 401: no valid credential, or the credential does not reach this account
  'forbidden', // 403: authenticated, but scopes, IP allow list, plan or ownership forbid it
  'not_found', // 404: no such resource in this account
  'method_not_allowed', // 405: the path exists, the method does not
  'conflict', // 409: the request collides with current state
  'too_large', // 413: the request body is larger than the operation allows (uploads)
  'unsupported_media_type', // 415: the body's Content-Type is not one the operation reads (uploads)
  'unprocessable', // 422: understood, but cannot be applied (idempotency key reuse)
  'rate_limited', // 429
  'unavailable', // 503: a dependency we rely on is down
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** The input field the error is about, for forms that show it inline. */
    readonly field?: string,
    /** Headers the answer must carry (`Retry-After`, `Allow`, the idempotency pair). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalidInput = (message: string, field?: string) => new AppError('invalid_input', message, field);
export const notFound = (message: string) => new AppError('not_found', message);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const conflict = (message: string, field?: string) => new AppError('conflict', message, field);
export const tooLarge = (message: string) => new AppError('too_large', message);
export const unsupportedMediaType = (message: string) => new AppError('unsupported_media_type', message);
