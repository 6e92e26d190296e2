/**
 * Whether a failure means "the database cannot be reached right now" (PostgreSQL restarting, the
 * network to it down, the pool unable to connect) rather than a bug: such a failure is answered
 * 503 with Retry-After over HTTP and `451 4.3.0` over SMTP, never 500 or a permanent 5xx.
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

// SQLSTATE class 08 (connection exception) and 57P01-57P03 (admin/crash shutdown, cannot connect now).
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123])$/;

const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /client has encountered a connection error/i,
  /connection (is )?(closed|ended)/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection due to administrator command/i,
];

const MAX_CAUSE_DEPTH = 5;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > MAX_CAUSE_DEPTH || typeof error !== 'object' || error === null) return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (typeof message === 'string' && CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1)))
    return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/** Seconds a client is told to wait before retrying while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** What every HTTP answer says during an outage; the dashboard recognises its 503 by it. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'the database cannot be reached right now; retry later';
