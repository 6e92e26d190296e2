import type { WarmupDayLimits } from '@/lib/db/schema';

/**
 * What core verbs and the delivery engine read from configuration. lib/server/config.ts builds it
 * (with the server's own settings beside it) from the environment; core never reads process.env.
 */
export type CoreConfig = {
  publicUrl: URL;
  mailHostname: string;
  spfInclude: string | null;
  sendingIps: string[];
  smtpRelayUrl: string | null;
  /**
   * The server's IP warm-up (IP_WARMUP_STARTED_AT, IP_WARMUP_PLAN): a daily ramp per mailbox provider
   * for all mail delivered directly, whatever the domain; null or absent: off.
   */
  ipWarmup?: { startedAt: Date; plan: WarmupDayLimits[] | null } | null;
  smtpDeliveryPort: number;
  /** Where SMTP credentials submit (0: off); the dashboard shows it with the host of publicUrl. */
  smtpSubmissionPort?: number;
  /** The implicit-TLS submission port (RFC 8314; 0: off). */
  smtpSubmissionTlsPort?: number;
  httpPort: number;
  /** The self-signed certificate clients must trust (no TLS_CERT, no proxy in front), for the commands the dashboard shows. */
  selfSignedCertFile?: string | null;
  allowPrivateNetworks: boolean;
  /** SpamAssassin's spamd (SPAMD_URL), which scores campaign content in preflight; null: not scored. */
  spamd?: { host: string; port: number } | null;
  /**
   * Who Mailstead's own mail (member invitations) comes from: an address on a verified domain of
   * some account, which sends it. Null: no such mail, the dashboard shows links to copy instead.
   */
  systemSender: { email: string; name: string | null } | null;
  /** How long a member invitation link works. */
  invitationTtlSeconds: number;
  /** How long audit events are kept (AUDIT_RETENTION_DAYS); the retention job purges older ones. */
  auditRetentionDays: number;
  /** How long a signup form's confirmation link works (SIGNUP_CONFIRMATION_TTL_SECONDS, a week by default). */
  signupConfirmationTtlSeconds?: number;
  /** How long a password reset link works (an hour). */
  passwordResetTtlSeconds: number;
  /** What one account's media library may hold in all (MEDIA_QUOTA_MB). */
  mediaQuotaBytes: number;
  /** Where contact export files are written (DATA_DIR/exports); a temporary folder when unset (unit tests). */
  exportsDir?: string;
  /** How long an export's file is kept after it finished (CONTACT_EXPORT_TTL_SECONDS); 24 hours when unset. */
  contactExportTtlSeconds?: number;
  dns: { timeoutMs: number; checkCacheSeconds: number; recheckIntervalSeconds: number };
  /** `threads`: mail threads composing and signing for the delivery loop (0: on the loop). */
  delivery: {
    retrySchedule: number[];
    batchSize: number;
    connections: number;
    pollMs: number;
    leaseSeconds: number;
    /** After a provider throttled: one connection more per this many accepted messages (PACING_RAISE_AFTER_ACCEPTED). */
    pacingRaiseAfterAccepted?: number;
    threads: number;
    smtpTimeoutMs: number;
  };
  pause: { bounceRate: number; minVolume: number; windowHours: number };
  /**
   * Webhook and route delivery (one outbox): per-attempt timeout, seconds between attempts of one
   * delivery (then it fails; routes have their own schedule), and auto-disable after
   * `disableAfterFailures` consecutive failed attempts spanning at least `disableAfterSeconds`.
   * `caPem`: WEBHOOK_CA_FILE's certificate, trusted for endpoints besides the public roots.
   */
  webhooks: {
    timeoutMs: number;
    retrySchedule: number[];
    routeRetrySchedule: number[];
    disableAfterFailures: number;
    disableAfterSeconds: number;
    pollMs: number;
    concurrency: number;
    caPem?: string | null;
  };
};
