import type { Redis } from 'ioredis';
import { createKeyLimiter, createRateLimiter, type RateLimiter } from '@/lib/api/rate-limiter';
import type { Services } from '@/lib/core/context';
import { createDnsLookup } from '@/lib/core/domains/dns-lookup';
import { useCounterRowsFor } from '@/lib/core/statistics/counter-writers';
import { createTemplateRenderer } from '@/lib/core/templates/engine/template-renderer';
import { verifyMasterKey } from '@/lib/core/system/verify-master-key';
import { openDatabase, type Database } from '@/lib/db/client';
import { migrateDatabase } from '@/lib/db/migrate';
import { SecretBox } from '@/lib/shared/crypto';
import type { Config } from './config-settings';
import { createAccountSignInLimiter } from './dashboard-auth';
import type { Logger } from './logger';
import { loadMasterKey } from './master-key';
import { removeSetupTokenFile } from './setup-token-file';

/**
 * The process's services, built once before anything listens: one database handle, one rate limiter,
 * one logger. Next.js code runs in its own module graph and reaches the server only through the
 * API and the few auth functions of dashboard-auth.ts.
 */
export type Registry = Services & {
  config: Config;
  database: Database;
  rateLimiter: RateLimiter;
  redis: Redis | null;
  close: () => Promise<void>;
};

export async function buildRegistry(config: Config, logger: Logger): Promise<Registry> {
  const secrets = new SecretBox(loadMasterKey(config));
  const database = await openDatabase(config);
  try {
    await migrateDatabase(database);
    await verifyMasterKey(database.db, secrets.fingerprint());
  } catch (error) {
    await database.close();
    throw error;
  }
  useCounterRowsFor(database.kind);
  let redis: Redis | null = null;
  if (config.redisUrl) {
    const { Redis: RedisClient } = await import('ioredis');
    redis = new RedisClient(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false });
    redis.on('error', (error) => logger.warn({ err: error.message }, 'redis error'));
  }
  const rateLimiter = createRateLimiter({
    redis,
    namespace: secrets.fingerprint().slice(0, 12),
    logger,
    general: config.rateLimit,
    statistics: config.statisticsRateLimit,
    session: config.rateLimit,
    smtp: config.smtpRateLimit,
  });
  const registry: Registry = {
    db: database.db,
    database,
    config,
    secrets,
    logger,
    now: () => new Date(),
    dns: createDnsLookup({ servers: config.dnsServers, timeoutMs: config.dns.timeoutMs }),
    renderer: createTemplateRenderer({ logger }),
    onSetupDone: () => removeSetupTokenFile(config.dataDir),
    rateLimiter,
    redis,
    passwordAttempts: createAccountSignInLimiter({ redis, secrets, logger }, 'password'),
    // Apart from the above: reset requests anyone can make for an address must not lock its owner out of changing it.
    resetRequests: createAccountSignInLimiter({ redis, secrets, logger }, 'password-reset'),
    signupLimits: createSignupLimits({ redis, secrets, logger }),
    async close() {
      await registry.renderer.close();
      redis?.disconnect();
      await database.close();
    },
  };
  return registry;
}

/**
 * Public signup form posts: 30 per client address per 10 minutes (an office behind one address can
 * still sign up), 5 per email per hour (nobody's inbox is filled with confirmation mail).
 */
function createSignupLimits(options: { redis: Redis | null; secrets: SecretBox; logger: Logger }) {
  const base = { redis: options.redis, namespace: options.secrets.fingerprint().slice(0, 12), logger: options.logger };
  return {
    perClient: createKeyLimiter({ ...base, attempts: 30, windowSeconds: 600, kind: 'signup-client' }),
    perEmail: createKeyLimiter({ ...base, attempts: 5, windowSeconds: 3600, kind: 'signup-email' }),
  };
}
