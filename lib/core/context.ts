import type { Logger } from 'pino';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import type { CoreConfig } from './config';
import type { SecretBox } from '@/lib/shared/crypto';
import type { DnsLookup } from './domains/dns-lookup';
import type { TemplateRenderer } from './templates/engine/template-renderer';

/**
 * Failed password attempts per client address and per email, refilled over a window (sign-in's
 * figures): `check` runs only while both have attempts left, and a non-null result gives them back.
 */
export type AttemptLimiter = {
  attempt<T>(
    clientIp: string,
    email: string,
    check: () => Promise<T | null>,
  ): Promise<{ isRateLimited: true } | { isRateLimited: false; result: T | null }>;
};

/** Requests counted per key (a client address, a hashed email), refilled over a window: false once none is left. */
export type KeyLimiter = { take(key: string): Promise<boolean> };

/** What every verb may use besides its input. Built by lib/server once per process. */
export type Services = {
  db: Db;
  config: CoreConfig;
  secrets: SecretBox;
  logger: Logger;
  now: () => Date;
  dns: DnsLookup;
  /** Renders message templates in worker threads, never on the event loop. */
  renderer: TemplateRenderer;
  /** Setup is done once an account exists (setup page or CLI): the server drops its copy of the setup token. */
  onSetupDone?: () => void;
  /** Proofs a signed-in person gives (a password change, two-factor changes): counted apart from sign-in. */
  passwordAttempts: AttemptLimiter;
  /** Password reset requests, counted per client address and per email, apart from passwordAttempts. */
  resetRequests: AttemptLimiter;
  /** Public signup form posts, per client address and per email; absent (tests, CLI): not limited. */
  signupLimits?: { perClient: KeyLimiter; perEmail: KeyLimiter };
};

export type VerbContext = Services & {
  principal: Principal;
  /** The request being served (HTTP's X-Request-Id), for the audit log; absent for jobs and the CLI. */
  requestId?: string;
};
