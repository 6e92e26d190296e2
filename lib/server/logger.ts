import pino, { type Logger } from 'pino';

// Secrets never reach a log line, whatever object a caller passes.
const REDACT = [
  'authorization', 'cookie', 'password', 'secret', 'secret_key', 'api_key', 'token',
  '*.authorization', '*.Authorization', '*["x-api-key"]', '*["X-Api-Key"]', '*.cookie', '*.Cookie', '*["set-cookie"]',
  '*.password', '*.secret', '*.secret_key', '*.api_key', '*.token', '*.owner_password',
  'headers.authorization', 'headers.cookie', 'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]',
];

export function createLogger(options: { level: string; toStderr?: boolean }): Logger {
  return pino(
    { level: options.level, base: { service: 'mailstead' }, redact: { paths: REDACT, censor: '[redacted]' } },
    pino.destination({ dest: options.toStderr ? 2 : 1, sync: true }),
  );
}

export type { Logger };
