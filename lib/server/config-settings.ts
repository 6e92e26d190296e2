import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { CoreConfig } from '@/lib/core/config';
import type { Cidr } from '@/lib/shared/ip';
import type { Env, Role } from './config';

/** Where the self-signed certificate lives when TLS_CERT is not set (lib/server/tls.ts makes it). */
export const selfSignedCertFileOf = (dataDir: string) => path.join(dataDir, 'tls', 'cert.pem');

/**
 * Connections one host opens to one destination when DELIVERY_CONNECTIONS is unset: Postfix's
 * default_destination_concurrency_limit. Each connection waits for its outcome's commit before its
 * next message, so the outcome writer's groups are as large as the open connections: with 8,
 * PGlite wrote 7 outcomes per statement at ~4 ms each, a third of its event loop; with 20, 12.
 */
export const HOST_CONNECTIONS_PER_DESTINATION = 20;

/** The process's configuration: core's part (lib/core/config.ts) and the server's own settings. */
export type Config = CoreConfig & {
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  trustProxy: Cidr[];
  tls: { certPath: string; keyPath: string } | null;
  roles: Role[];
  /** Processes that `mailstead start` runs (node:cluster when more than 1; PostgreSQL only). */
  workers: number;
  /** Maximum connections of one process's PostgreSQL pool. */
  databasePoolSize: number;
  secretFromEnv: string | null;
  logLevel: Env['LOG_LEVEL'];
  dnsServers: { host: string; port: number }[];
  smtpSubmissionPort: number;
  /** Implicit-TLS submission (0: off). */
  smtpSubmissionTlsPort: number;
  smtpRateLimit: { perSecond: number; burst: number };
  mxPort: number;
  /** Connections one client address (an IPv6 /64) may hold on the MX, and how long it may stay silent after connecting. */
  mxLimits: { connectionsPerClient: number; greetingTimeoutMs: number };
  rateLimit: { perSecond: number; burst: number };
  statisticsRateLimit: { perSecond: number; burst: number };
  /** Slow or silent clients: first byte, TLS handshake and request headers each within `headersMs`; idle keep-alive. */
  httpTimeouts: { headersMs: number; keepAliveMs: number };
  jobPollMs: number;
  /** The operations listener: `/metrics` (bearer `token` when set), `/healthz`, `/readyz`; port 0 is off. */
  metrics: { port: number; host: string; token: string | null };
  /** /readyz's database probe gives up after this. */
  readyTimeoutMs: number;
  /** Recipients queued per transaction; null: the database's default (campaignTransactionSizes). */
  campaignBatchSize: number | null;
  contactExportPageRows: number;
  segmentRecountSeconds: number;
  contactExportTtlSeconds: number;
  retentionPurgeIntervalSeconds: number;
  /** OpenID Connect sign-in for the dashboard (docs/single-sign-on.md); null when not configured. */
  singleSignOn: SingleSignOnSettings | null;
};

export type SingleSignOnSettings = { issuer: string; clientId: string; clientSecret: string; buttonLabel: string };

/** The process's settings derived from the parsed environment (`loadConfig` checks it first). */
export function settingsOf(e: Env): Config {
  const publicUrl = new URL(e.PUBLIC_URL || `https://localhost:${e.PORT}`);
  const workers = e.WORKERS ?? (e.DATABASE_URL ? availableParallelism() : 1);
  return {
    port: e.PORT,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || null,
    redisUrl: e.REDIS_URL || null,
    publicUrl,
    trustProxy: e.TRUST_PROXY,
    tls: e.TLS_CERT ? { certPath: path.resolve(e.TLS_CERT), keyPath: path.resolve(e.TLS_KEY) } : null,
    roles: e.ROLES,
    workers,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    secretFromEnv: e.MAILSTEAD_SECRET || null,
    logLevel: e.LOG_LEVEL,
    mailHostname: e.MAIL_HOSTNAME || publicUrl.hostname,
    dnsServers: e.DNS_SERVERS,
    spfInclude: e.SPF_INCLUDE || null,
    sendingIps: e.SENDING_IPS.split(',')
      .map((ip) => ip.trim())
      .filter(Boolean),
    smtpRelayUrl: e.SMTP_RELAY_URL || null,
    ipWarmup: e.IP_WARMUP_STARTED_AT ? { startedAt: e.IP_WARMUP_STARTED_AT, plan: e.IP_WARMUP_PLAN } : null,
    smtpDeliveryPort: e.SMTP_DELIVERY_PORT,
    smtpSubmissionPort: e.SMTP_SUBMISSION_PORT,
    smtpSubmissionTlsPort: e.SMTP_SUBMISSION_TLS_PORT,
    smtpRateLimit: { perSecond: e.SMTP_RATE_LIMIT_PER_SECOND, burst: e.SMTP_RATE_LIMIT_BURST },
    mxPort: e.MX_PORT,
    mxLimits: {
      connectionsPerClient: e.MX_MAX_CONNECTIONS_PER_CLIENT,
      greetingTimeoutMs: e.MX_GREETING_TIMEOUT_SECONDS * 1000,
    },
    httpPort: e.HTTP_PORT,
    // Behind a trusted proxy, clients see the proxy's certificate, not this one.
    selfSignedCertFile: e.TLS_CERT || e.TRUST_PROXY.length ? null : selfSignedCertFileOf(path.resolve(e.DATA_DIR)),
    allowPrivateNetworks: e.ALLOW_PRIVATE_NETWORKS,
    spamd: e.SPAMD_URL,
    systemSender: e.SYSTEM_SENDER,
    invitationTtlSeconds: e.INVITATION_TTL_SECONDS,
    passwordResetTtlSeconds: e.PASSWORD_RESET_TTL_SECONDS,
    signupConfirmationTtlSeconds: e.SIGNUP_CONFIRMATION_TTL_SECONDS,
    mediaQuotaBytes: e.MEDIA_QUOTA_MB * 1024 * 1024,
    exportsDir: path.join(path.resolve(e.DATA_DIR), 'exports'),
    rateLimit: { perSecond: e.RATE_LIMIT_PER_SECOND, burst: e.RATE_LIMIT_BURST },
    statisticsRateLimit: { perSecond: e.RATE_LIMIT_STATISTICS_PER_SECOND, burst: e.RATE_LIMIT_STATISTICS_BURST },
    httpTimeouts: { headersMs: e.HTTP_HEADERS_TIMEOUT_MS, keepAliveMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS },
    jobPollMs: e.JOB_POLL_MS,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN || null },
    readyTimeoutMs: e.READY_TIMEOUT_MS,
    campaignBatchSize: e.CAMPAIGN_BATCH_SIZE ?? null,
    contactExportPageRows: e.CONTACT_EXPORT_PAGE_ROWS,
    segmentRecountSeconds: e.SEGMENT_RECOUNT_SECONDS,
    contactExportTtlSeconds: e.CONTACT_EXPORT_TTL_SECONDS,
    dns: {
      timeoutMs: e.DNS_TIMEOUT_MS,
      checkCacheSeconds: e.DNS_CHECK_CACHE_SECONDS,
      recheckIntervalSeconds: e.DNS_RECHECK_INTERVAL_SECONDS,
    },
    delivery: {
      retrySchedule: e.RETRY_SCHEDULE.split(',').map((part) => Number(part.trim())),
      batchSize: e.DELIVERY_BATCH_SIZE,
      connections: e.DELIVERY_CONNECTIONS ?? Math.max(2, Math.ceil(HOST_CONNECTIONS_PER_DESTINATION / workers)),
      pollMs: e.DELIVERY_POLL_MS,
      pacingRaiseAfterAccepted: e.PACING_RAISE_AFTER_ACCEPTED,
      leaseSeconds: e.DELIVERY_LEASE_SECONDS,
      // One per core of the process's share, at least one. The threads run at a lower priority and
      // take only what the loops leave: the loop answers requests first even when the processes
      // fill the cores (PostgreSQL, 2 workers on 2 cores: p99 acceptance 283-317 ms with one thread
      // each against 1.0-1.9 s without). On PGlite, whose database has a thread of its own, two on
      // 2 cores delivered 980-993 msg/s against 925-948 with one (single runs, one hour).
      threads: e.DELIVERY_THREADS ?? Math.max(1, Math.floor(availableParallelism() / workers)),
      smtpTimeoutMs: e.SMTP_TIMEOUT_MS,
    },
    pause: { bounceRate: e.PAUSE_BOUNCE_RATE, minVolume: e.PAUSE_MIN_VOLUME, windowHours: e.PAUSE_WINDOW_HOURS },
    retentionPurgeIntervalSeconds: e.RETENTION_PURGE_INTERVAL_SECONDS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    singleSignOn: e.OIDC_ISSUER
      ? {
          issuer: e.OIDC_ISSUER,
          clientId: e.OIDC_CLIENT_ID,
          clientSecret: e.OIDC_CLIENT_SECRET,
          buttonLabel: e.OIDC_BUTTON_LABEL,
        }
      : null,
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retrySchedule: e.WEBHOOK_RETRY_SCHEDULE.split(',').map((part) => Number(part.trim())),
      routeRetrySchedule: e.ROUTE_RETRY_SCHEDULE.split(',').map((part) => Number(part.trim())),
      disableAfterFailures: e.WEBHOOK_DISABLE_AFTER_FAILURES,
      disableAfterSeconds: e.WEBHOOK_DISABLE_AFTER_SECONDS,
      pollMs: e.WEBHOOK_POLL_MS,
      concurrency: e.WEBHOOK_CONCURRENCY,
      caPem: e.WEBHOOK_CA_FILE,
    },
  };
}
