import { DATABASE_UNAVAILABLE_MESSAGE } from '@/lib/shared/database-unavailable';

/** An error the API answered with: its status, its message, the field it names and when to retry (if any). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field: string | null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

/**
 * The dashboard's only way to the server: the same /v2 API (and /internal for session-only
 * operations), with the session cookie. Same-origin, so the API's origin check passes.
 */
export async function apiRequest<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(path, {
    method: options.method ?? 'GET',
    headers: options.body === undefined ? {} : { 'content-type': 'application/json' },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: 'same-origin',
    cache: 'no-store',
  });
  const text = await response.text();
  const data = text ? (JSON.parse(text) as unknown) : null;
  if (!response.ok) {
    const message = (data as { message?: string } | null)?.message ?? `request failed (${response.status})`;
    const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
    throw new ApiError(
      response.status,
      message,
      response.headers.get('mailstead-error-field'),
      Number.isFinite(retryAfter) ? retryAfter : null,
    );
  }
  return data as T;
}

/** The API's answer while its database is away (a 503 that says so): worth retrying by itself. */
export function isDatabaseOutage(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 503 && error.message === DATABASE_UNAVAILABLE_MESSAGE;
}

/**
 * What a person reads of a server error: beside the field it names, the message without the API's
 * `field: ` prefix (the label says which field); elsewhere (field null), the message as it is.
 */
export function fieldErrorMessage(error: unknown, field: string | null): string {
  const message = error instanceof Error ? error.message : String(error);
  return field === null ? message : message.replace(/^[a-z_]+(?:\.[a-z0-9_]+)*: /, '');
}

/** Puts a server error next to the form field it names; the rest go to the form's own error line. */
export function fieldOfError(error: unknown, fields: readonly string[]): string | null {
  if (!(error instanceof ApiError)) return null;
  const named = error.field ?? /^([a-z_]+)(?:\.\d+)?:/.exec(error.message)?.[1] ?? null;
  return named && fields.includes(named) ? named : null;
}
