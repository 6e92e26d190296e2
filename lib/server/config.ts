import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { parseSpamdUrl } from '@/lib/core/preflight/spamd-client';
import { parseCidr, type Cidr } from '@/lib/shared/ip';
import {
  booleanFlag,
  hostPortList,
  isIssuerUrl,
  optionalPort,
  parseIpWarmupPlan,
  parseSystemSender,
  port,
} from './config-fields';
import { settingsOf, type Config } from './config-settings';

export const ALL_ROLES = ['web', 'worker', 'smtp', 'mx'] as const;
export type Role = (typeof ALL_ROLES)[number];

/**
 * Every environment variable Mailstead reads, with its default. docs/configuration.md
 * mirrors this list (tests/docs checks it); `loadConfig` is the only place that reads process.env.
 */
const envSchema = z.object({
  PORT: port(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .default('')
    .refine((value) => value === '' || /^postgres(ql)?:\/\//.test(value), 'must be a postgres:// URL'),
  REDIS_URL: z
    .string()
    .default('')
    .refine((value) => value === '' || /^rediss?:\/\//.test(value), 'must be a redis:// URL'),
  PUBLIC_URL: z
    .string()
    .default('')
    .refine((value) => value === '' || URL.canParse(value), 'must be an absolute URL'),
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((value, ctx) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
        .map((entry) => {
          const cidr = parseCidr(entry);
          if (!cidr) ctx.addIssue({ code: 'custom', message: `"${entry}" is not a CIDR or IP address` });
          return cidr as Cidr;
        }),
    ),
  TLS_CERT: z.string().default(''),
  TLS_KEY: z.string().default(''),
  ROLES: z
    .string()
    .default(ALL_ROLES.join(','))
    .transform((value, ctx) => {
      const roles = value
        .split(',')
        .map((role) => role.trim())
        .filter(Boolean);
      for (const role of roles) {
        if (!(ALL_ROLES as readonly string[]).includes(role)) {
          ctx.addIssue({
            code: 'custom',
            message: `unknown role "${role}" (expected some of ${ALL_ROLES.join(', ')})`,
          });
        }
      }
      if (roles.length === 0) ctx.addIssue({ code: 'custom', message: 'must name at least one role' });
      return [...new Set(roles)] as Role[];
    }),
  MAILSTEAD_SECRET: z
    .string()
    .default('')
    .refine((value) => value === '' || value.length >= 32, 'must be at least 32 characters'),
  // Processes `mailstead start` forks (node:cluster) per group (plan-processes.ts: serving and
  // delivering); unset: one per core on PostgreSQL, 1 on PGlite (one process, every role).
  WORKERS: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(256, 'must be at most 256')
    .optional(),
  // Connections each process's PostgreSQL pool may open (see "Scaling out" in docs/operations.md).
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2, 'must be at least 2').max(1000).default(20),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MAIL_HOSTNAME: z.string().default(''),
  DNS_SERVERS: hostPortList,
  SPF_INCLUDE: z.string().default(''),
  SENDING_IPS: z
    .string()
    .default('')
    .refine(
      (value) =>
        value
          .split(',')
          .map((ip) => ip.trim())
          .filter(Boolean)
          .every((ip) => isIP(ip) !== 0),
      'must be a comma-separated list of IP addresses',
    ),
  SMTP_RELAY_URL: z
    .string()
    .default('')
    .refine((value) => value === '' || /^smtps?:\/\//.test(value), 'must be an smtp:// or smtps:// URL'),
  // The server's IP warm-up (docs/smtp-and-inbound.md#warm-up): day 1 is this date's UTC day; empty: off.
  IP_WARMUP_STARTED_AT: z
    .string()
    .default('')
    .transform((value, ctx) => {
      if (value.trim() === '') return null;
      const at = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim()) ? new Date(value) : null;
      if (!at || Number.isNaN(at.getTime()))
        ctx.addIssue({ code: 'custom', message: 'must be a date such as 2026-11-27 (or a date-time)' });
      return at;
    }),
  IP_WARMUP_PLAN: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const parsed = parseIpWarmupPlan(value);
      if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
      return 'plan' in parsed ? parsed.plan : null;
    }),
  SMTP_DELIVERY_PORT: port(25),
  // 0 turns submission off in a process that runs the smtp role for something else later (the MX).
  SMTP_SUBMISSION_PORT: optionalPort(2587),
  // Implicit TLS (RFC 8314, 465 in production): the same listener with TLS from the first byte.
  SMTP_SUBMISSION_TLS_PORT: optionalPort(2465),
  // 0 turns the MX off, as SMTP_SUBMISSION_PORT does submission.
  MX_PORT: optionalPort(2525),
  // Postfix's smtpd_client_connection_count_limit: one address cannot hold every slot of the MX.
  MX_MAX_CONNECTIONS_PER_CLIENT: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1000, 'must be at most 1000')
    .default(50),
  // From connect to the client's first command line; after it, the idle timeout applies.
  MX_GREETING_TIMEOUT_SECONDS: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(300, 'must be at most 300')
    .default(30),
  HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  ALLOW_PRIVATE_NETWORKS: booleanFlag,
  // SpamAssassin's spamd for the preflight's spam score: spamd://host:port or tcp://host:port (port 783 by default).
  SPAMD_URL: z
    .string()
    .default('')
    .transform((value, ctx) => {
      if (value === '') return null;
      const target = parseSpamdUrl(value);
      if (!target) ctx.addIssue({ code: 'custom', message: 'must be spamd://host:port or tcp://host:port' });
      return target;
    }),
  // `Name <address>` or a bare address on a verified domain of some account; that account sends it.
  SYSTEM_SENDER: z
    .string()
    .default('')
    .transform((value, ctx) => {
      if (value.trim() === '') return null;
      const sender = parseSystemSender(value);
      if (!sender)
        ctx.addIssue({ code: 'custom', message: 'must be an email address, optionally as "Name <address>"' });
      return sender;
    }),
  INVITATION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 3600)
    .default(7 * 24 * 3600),
  PASSWORD_RESET_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .default(3600),
  SIGNUP_CONFIRMATION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 24 * 3600)
    .default(7 * 24 * 3600),
  MEDIA_QUOTA_MB: z.coerce.number().int().min(1).max(1_000_000).default(100),
  // Tuning knobs, mostly for tests and benchmarks.
  RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).default(100),
  RATE_LIMIT_BURST: z.coerce.number().int().min(1).default(200),
  // The published statistics limit is 1/s, burst 1; benchmarks raise it to time many requests.
  RATE_LIMIT_STATISTICS_PER_SECOND: z.coerce.number().int().min(1).default(1),
  RATE_LIMIT_STATISTICS_BURST: z.coerce.number().int().min(1).default(1),
  // Messages per SMTP credential (each MAIL FROM takes one token).
  SMTP_RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).default(50),
  SMTP_RATE_LIMIT_BURST: z.coerce.number().int().min(1).default(100),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(20_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(65_000),
  JOB_POLL_MS: z.coerce.number().int().min(10).default(1000),
  DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  DNS_CHECK_CACHE_SECONDS: z.coerce.number().int().min(0).default(60),
  DNS_RECHECK_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(1200),
  RETRY_SCHEDULE: z
    .string()
    .default('300,900,1800,3600,7200,14400,28800')
    .refine(
      (value) => value.split(',').every((part) => /^\d+$/.test(part.trim()) && Number(part) > 0),
      'must be a comma-separated list of seconds, e.g. 300,900,3600',
    ),
  DELIVERY_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(200),
  // SMTP connections per destination per process. Unset: HOST_CONNECTIONS_PER_DESTINATION shared among the WORKERS.
  DELIVERY_CONNECTIONS: z.coerce.number().int().min(1).max(100).optional(),
  DELIVERY_POLL_MS: z.coerce.number().int().min(10).default(250),
  // After a provider throttled (421/451 4.7.x), one connection more per this many accepted messages.
  PACING_RAISE_AFTER_ACCEPTED: z.coerce.number().int().min(1).max(100_000).default(50),
  DELIVERY_LEASE_SECONDS: z.coerce.number().int().min(1).default(300),
  // Threads per process that compose and DKIM-sign outgoing mail; 0 does it on the event loop. Unset: the cores the processes leave free, at least 1.
  DELIVERY_THREADS: z.coerce
    .number()
    .int('must be a whole number')
    .min(0, 'must be at least 0')
    .max(64, 'must be at most 64')
    .optional(),
  // Unset: 5000 on PostgreSQL, 1000 on PGlite (campaignTransactionSizes in start-server.ts).
  CAMPAIGN_BATCH_SIZE: z.coerce.number().int().min(1).max(20_000).optional(),
  // Contacts a contact export reads and writes per page (one query and one progress update each).
  CONTACT_EXPORT_PAGE_ROWS: z.coerce.number().int().min(1).max(50_000).default(1000),
  // How long an export's file is kept after the export finished (the contract: 24 hours).
  CONTACT_EXPORT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 86_400)
    .default(86_400),
  // How old a segment's stored count (the one GET /segments shows) may grow before the worker counts it again.
  SEGMENT_RECOUNT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  PAUSE_BOUNCE_RATE: z.coerce
    .number()
    .gt(0, 'must be a fraction between 0 and 1')
    .max(1, 'must be a fraction between 0 and 1')
    .default(0.1),
  PAUSE_MIN_VOLUME: z.coerce.number().int().min(1).default(50),
  PAUSE_WINDOW_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  RETENTION_PURGE_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(3600),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1, 'must be at least 1 day').max(36_500).default(365),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  // 11 attempts over about a day: 5 s, 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h.
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('5,60,300,900,1800,3600,7200,14400,28800,28800')
    .refine(
      (value) => value.split(',').every((part) => /^\d+$/.test(part.trim()) && Number(part) > 0),
      'must be a comma-separated list of seconds, e.g. 5,60,300',
    ),
  // The contract's "10 times over 7+ hours" for routes: n^4 seconds after the n-th failure, n = 1..10.
  ROUTE_RETRY_SCHEDULE: z
    .string()
    .default('1,16,81,256,625,1296,2401,4096,6561,10000')
    .refine(
      (value) => value.split(',').every((part) => /^\d+$/.test(part.trim()) && Number(part) > 0),
      'must be a comma-separated list of seconds, e.g. 1,16,81',
    ),
  // AhaSend's rule: 100 failed attempts in a row; and at least an hour of them, so that a burst to a receiver down for a minute does not count.
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).default(100),
  WEBHOOK_DISABLE_AFTER_SECONDS: z.coerce.number().int().min(0).default(3600),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).default(500),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(16),
  // A lab's own CA (PEM) for webhook and route endpoints, trusted besides the public roots; read once at start.
  WEBHOOK_CA_FILE: z
    .string()
    .default('')
    .transform((value, ctx) => {
      if (value === '') return null;
      try {
        const pem = readFileSync(path.resolve(value), 'utf8');
        new X509Certificate(pem);
        return pem;
      } catch (error) {
        const { code = '' } = error as NodeJS.ErrnoException;
        ctx.addIssue({
          code: 'custom',
          message: /^E[A-Z]+$/.test(code)
            ? `cannot be read (${code})`
            : 'must be a PEM certificate file (-----BEGIN CERTIFICATE-----)',
        });
        return null;
      }
    }),
  // Single sign-on with OpenID Connect (docs/single-sign-on.md): the first three together or none.
  OIDC_ISSUER: z
    .string()
    .default('')
    .refine(
      (value) => value === '' || isIssuerUrl(value),
      'must be an https:// URL (http:// only on a loopback address)',
    ),
  OIDC_CLIENT_ID: z.string().trim().default(''),
  OIDC_CLIENT_SECRET: z.string().default(''),
  OIDC_BUTTON_LABEL: z.string().trim().min(1).max(60, 'must be at most 60 characters').default('Sign in with SSO'),
  // The operations listener (plain HTTP: /metrics, /healthz, /readyz); off unless a port is given.
  METRICS_PORT: optionalPort(0),
  METRICS_HOST: z
    .string()
    .default('127.0.0.1')
    .refine((value) => isIP(value) !== 0, 'must be an IP address to listen on, e.g. 127.0.0.1 or 0.0.0.0'),
  METRICS_TOKEN: z
    .string()
    .default('')
    .refine(
      (value) => value === '' || /^[A-Za-z0-9._~+/=-]{16,256}$/.test(value),
      'must be 16 to 256 characters of letters, digits and ._~+/=-',
    ),
  // How long /readyz waits for the database before it answers 503.
  READY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
});

/** The environment as the schema parses it; lib/server/config-settings.ts derives the settings from it. */
export type Env = z.infer<typeof envSchema>;

const isLoopbackAddress = (host: string) => /^127\./.test(host) || host === '::1' || host === '::ffff:127.0.0.1';

export class ConfigError extends Error {}

/** Reads and validates the environment; throws ConfigError with one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as in most shells' `VAR= command`.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`invalid ${name}="${env[name] ?? ''}": ${issue.message}`);
  }
  const e = parsed.data;
  if ((e.TLS_CERT === '') !== (e.TLS_KEY === '')) {
    throw new ConfigError(`invalid ${e.TLS_CERT ? 'TLS_KEY' : 'TLS_CERT'}: TLS_CERT and TLS_KEY must be set together`);
  }
  if (e.DATABASE_URL && !e.MAILSTEAD_SECRET) {
    throw new ConfigError(
      'missing MAILSTEAD_SECRET: it is required when DATABASE_URL is set (every process must share one master key)',
    );
  }
  // Metrics name every account's volume: never reachable from other hosts without a token.
  if (e.METRICS_PORT !== 0 && !isLoopbackAddress(e.METRICS_HOST) && !e.METRICS_TOKEN) {
    throw new ConfigError(
      `missing METRICS_TOKEN: it is required when METRICS_HOST (${e.METRICS_HOST}) is not a loopback address`,
    );
  }
  if (e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT)
    throw new ConfigError(`invalid METRICS_PORT="${e.METRICS_PORT}": must differ from PORT`);
  if (e.WEBHOOK_CA_FILE && !e.ALLOW_PRIVATE_NETWORKS) {
    throw new ConfigError('invalid WEBHOOK_CA_FILE: it is for labs and tests, and needs ALLOW_PRIVATE_NETWORKS=true');
  }
  const singleSignOn = {
    OIDC_ISSUER: e.OIDC_ISSUER,
    OIDC_CLIENT_ID: e.OIDC_CLIENT_ID,
    OIDC_CLIENT_SECRET: e.OIDC_CLIENT_SECRET,
  };
  const missingSingleSignOn = Object.keys(singleSignOn).filter(
    (name) => !singleSignOn[name as keyof typeof singleSignOn],
  );
  if (missingSingleSignOn.length === 1 || missingSingleSignOn.length === 2) {
    throw new ConfigError(
      `missing ${missingSingleSignOn.join(' and ')}: single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together`,
    );
  }
  if (!e.DATABASE_URL && e.WORKERS !== undefined && e.WORKERS > 1) {
    throw new ConfigError(
      `invalid WORKERS="${env.WORKERS}": the embedded database (PGlite) allows one process; set DATABASE_URL to run several, or WORKERS=1`,
    );
  }
  return settingsOf(e);
}
