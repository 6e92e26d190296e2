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
  smtpDeliveryPort: number;
  /** Where SMTP credentials submit (0: off); the dashboard shows it with the host of publicUrl. */
  smtpSubmissionPort?: number;
  httpPort: number;
  allowPrivateNetworks: boolean;
  dns: { timeoutMs: number; checkCacheSeconds: number; recheckIntervalSeconds: number };
  delivery: { retrySchedule: number[]; batchSize: number; connections: number; pollMs: number; leaseSeconds: number; smtpTimeoutMs: number };
  pause: { bounceRate: number; minVolume: number; windowHours: number };
  /**
   * Webhook delivery: per-attempt timeout, seconds between attempts of one delivery (then it fails),
   * and auto-disable after `disableAfterFailures` consecutive failed attempts spanning at least
   * `disableAfterSeconds`.
   */
  webhooks: { timeoutMs: number; retrySchedule: number[]; disableAfterFailures: number; disableAfterSeconds: number; pollMs: number; concurrency: number };
};
