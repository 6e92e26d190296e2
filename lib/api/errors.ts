import type { Context } from 'hono';
import { AppError, type ErrorKind } from '@/lib/shared/errors';

/** The one table from core error kinds to HTTP statuses. */
export const STATUS_OF: Record<ErrorKind, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

export type Envelope = 'v2' | 'v1';

/** v2 answers `{"message"}`; v1 answers `{"status"}`. Nothing else reaches a client. */
export function errorBody(envelope: Envelope, message: string) {
  return envelope === 'v1' ? { status: message } : { message };
}

export function errorResponse(c: Context, error: unknown, envelope: Envelope = 'v2'): Response {
  if (error instanceof AppError) {
    // The wire body is `{"message"}` only (the contract allows nothing else); forms learn which
    // field to mark from this header.
    const headers: Record<string, string> = error.field ? { 'Mailstead-Error-Field': error.field } : {};
    return c.json(errorBody(envelope, error.message), STATUS_OF[error.kind] as 400, headers);
  }
  return c.json(errorBody(envelope, 'internal server error'), 500);
}

export const unauthenticated = (message: string) => new AppError('unauthenticated', message);
