import pino, { type Logger } from 'pino';

// Secrets never reach a log line, whatever object a caller passes.
const REDACT = [
  'authorization',
  'cookie',
  'password',
  'secret',
  'secret_key',
  'api_key',
  'token',
  '*.authorization',
  '*.Authorization',
  '*["x-api-key"]',
  '*["X-Api-Key"]',
  '*.cookie',
  '*.Cookie',
  '*["set-cookie"]',
  '*.password',
  '*.secret',
  '*.secret_key',
  '*.api_key',
  '*.token',
  '*.owner_password',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
];

export function createLogger(options: {
  level: string;
  toStderr?: boolean;
  destination?: pino.DestinationStream;
}): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'mailstead' },
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: { err: serializeError, error: serializeError },
    },
    options.destination ?? pino.destination({ dest: options.toStderr ? 2 : 1, sync: true }),
  );
}

/*
 * Database errors carry the values of the failed query: drizzle's DrizzleQueryError and PGlite's
 * errors have `params` (and drizzle puts them in its message), PostgreSQL's `detail` and `where`
 * quote row values, and a data exception's message quotes the bad input. A log line keeps the
 * query's text, the message, the SQLSTATE code and the names of the constraint, table and column.
 */
const DATABASE_FIELDS = [
  'code',
  'severity',
  'constraint',
  'schema',
  'table',
  'column',
  'dataType',
  'routine',
  'query',
] as const;
// Never copied from any error: they hold query values.
const VALUE_FIELDS = new Set(['params', 'detail', 'where', 'internalQuery', 'queryOptions', 'hint']);
const MAX_CAUSE_DEPTH = 5;

type SerializedError = Record<string, unknown> & { type: string; message: string; stack?: string };

export function serializeError(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return stripQueryParams(value);
  if (!(value instanceof Error)) return value;
  const error = value as Error & Record<string, unknown>;
  const message = safeMessage(error);
  const out: SerializedError = {
    type: error.constructor?.name ?? error.name,
    message,
    // The first lines of a stack repeat the message: rebuilt from the safe one and the frames.
    stack:
      typeof error.stack === 'string'
        ? [`${error.name}: ${message}`, ...error.stack.split('\n').filter((line) => /^\s+at /.test(line))].join('\n')
        : undefined,
  };
  if (isDatabaseError(error)) {
    for (const field of DATABASE_FIELDS) if (error[field] !== undefined) out[field] = error[field];
  } else {
    for (const key of Object.keys(error)) {
      const field = error[key];
      if (VALUE_FIELDS.has(key) || key === 'cause' || field instanceof Error) continue;
      out[key] = typeof field === 'string' ? stripQueryParams(field) : field;
    }
  }
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) out.cause = serializeError(error.cause, depth + 1);
  return out;
}

function isDatabaseError(error: Record<string, unknown>): boolean {
  return (
    'params' in error || 'query' in error || (typeof error.severity === 'string' && typeof error.code === 'string')
  );
}

function safeMessage(error: Error & Record<string, unknown>): string {
  // DrizzleQueryError: "Failed query: <sql>\nparams: <values>".
  if (typeof error.query === 'string' && 'params' in error && error.message.startsWith('Failed query:'))
    return `Failed query: ${error.query}`;
  // Class 22 (data exception), e.g. `invalid input syntax for type uuid: "<value>"`.
  if (typeof error.code === 'string' && error.code.startsWith('22'))
    return error.message.replace(/: ".*"$/s, ': "[redacted]"');
  return stripQueryParams(error.message);
}

function stripQueryParams(text: string): string {
  return text.replace(/\nparams: [\s\S]*$/, '');
}

export type { Logger };
