import type { Logger } from 'pino';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import type { CoreConfig } from './config';
import type { SecretBox } from '@/lib/shared/crypto';
import type { DnsLookup } from './domains/dns-lookup';
import type { TemplateRenderer } from './templating/template-renderer';

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
};

export type VerbContext = Services & { principal: Principal };
