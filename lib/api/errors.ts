import type { Context } from 'hono';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
} from '@/lib/shared/database-unavailable';
import { AppError, type ErrorKind } from '@/lib/shared/errors';

/** The one table from error kinds to HTTP statuses. */
export const STATUS_OF: Record<ErrorKind, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

export type Envelope = 'v2' | 'v1';

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** `/v1` has its own legacy error envelope; everything else answers in the v2 one. */
const envelopeOf = (path: string): Envelope => (path.startsWith('/v1/') ? 'v1' : 'v2');

/** v2 answers `{"message"}`; v1 answers `{"status"}`. Nothing else reaches a client. */
function errorBody(envelope: Envelope, message: string) {
  return envelope === 'v1' ? { status: message } : { message };
}

/**
 * The one writer of error responses, for every failure of the API chain (thrown by middleware, the
 * idempotency step, the router's 404/405 or a verb). A database that cannot be reached is a 503 with
 * Retry-After (PostgreSQL restarting: nothing is wrong with the request); anything else that is not
 * an AppError is a 500 with a generic message; the caller logs it.
 */
export function errorResponse(c: Context, error: unknown): Response {
  if (!(error instanceof AppError) && isDatabaseUnavailable(error)) return errorResponse(c, databaseUnavailable());
  const envelope = envelopeOf(c.req.path);
  if (error instanceof AppError) {
    // The wire body is `{"message"}` only (the contract allows nothing else); forms learn which
    // field to mark from this header. A field named in other than printable ASCII (a key inside
    // substitutions, say) cannot be a header value, and no form has such a field.
    const hasFieldHeader = error.field !== undefined && PRINTABLE_ASCII.test(error.field);
    const headers: Record<string, string> = {
      ...error.headers,
      ...(hasFieldHeader ? { 'Mailstead-Error-Field': error.field } : {}),
    };
    return c.json(errorBody(envelope, error.message), STATUS_OF[error.kind] as 400, headers);
  }
  return c.json(errorBody(envelope, 'internal server error'), 500);
}

export const databaseUnavailable = () =>
  new AppError('unavailable', DATABASE_UNAVAILABLE_MESSAGE, undefined, {
    'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
  });

export const unauthenticated = (message: string) => new AppError('unauthenticated', message);

export const routeNotFound = () => new AppError('not_found', 'not found');

export const methodNotAllowed = (method: string, allowed: readonly string[]) =>
  new AppError('method_not_allowed', `method ${method} is not allowed on this path`, undefined, {
    Allow: allowed.join(', '),
  });

export const rateLimited = (retryAfterSeconds: number) =>
  new AppError('rate_limited', 'Too many requests, rate limited.', undefined, {
    'Retry-After': String(retryAfterSeconds),
  });

/** Clients tell this 409 from any other only by the header pair (service spec, Errors rule 1). */
export const idempotencyInProgress = (retryAfterSeconds: number) =>
  new AppError('conflict', 'A request with this idempotency key is already in progress', undefined, {
    'Idempotent-Replayed': 'false',
    'Retry-After': String(retryAfterSeconds),
  });

export const idempotencyMismatch = () =>
  new AppError('unprocessable', 'idempotency key was already used with a different request payload');
