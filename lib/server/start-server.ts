import { getRequestListener } from '@hono/node-server';
import { createApiApp, createTrackingApp } from '@/lib/api/app';
import { sessionSettings } from '@/lib/api/session';
import { issueSetupToken } from '@/lib/core/setup/setup-token';
import { MasterKeyMismatchError } from '@/lib/core/system/verify-master-key';
import type { Config } from './config-settings';
import { startControlSocket } from './control-socket';
import { createDashboard } from './dashboard';
import { createAccountSignInLimiter, publishDashboardAuth } from './dashboard-auth';
import { acquireDataDirLock } from './data-dir-lock';
import type { Logger } from './logger';
import { buildRegistry, type Registry } from './registry';
import { printSetupBanner, removeSetupTokenFile, setupUrlOf, writeSetupTokenFile } from './setup-token-file';
import { startOperations } from './operations-server';
import { loadTlsMaterial } from './tls';
import { startWebServer } from './web-server';
import { startSubmissionServer } from '@/lib/smtp/submission-server';
import { startMxServer } from '@/lib/smtp/mx-server';
import { startWorkerRole } from '@/lib/workers/start-worker-role';
import { ensurePrivateDir, restrictToOwner, useOwnerOnlyUmask } from '@/lib/shared/file-modes';
import { StartupError } from './startup-error';

/**
 * Before the primary of WORKERS > 1 forks: everything that one process must do once and the workers
 * then share. Migrations and the master-key check (a wrong key stops here, not in a crash loop), the
 * self-signed certificate (each worker would otherwise write its own into the data directory), and
 * the first run's setup token (one token, announced once).
 */
export async function prepareSharedState(config: Config, logger: Logger): Promise<void> {
  useOwnerOnlyUmask();
  ensurePrivateDir(config.dataDir);
  restrictToOwner(config.dataDir);
  let registry;
  try {
    registry = await buildRegistry(config, logger);
  } catch (error) {
    if (error instanceof MasterKeyMismatchError) throw new StartupError(error.message);
    throw error;
  }
  try {
    logger.info(
      { database: registry.database.kind, roles: config.roles, workers: config.workers },
      'database ready, migrations applied',
    );
    warnOfLocalRateLimits(registry);
    if (config.roles.some((role) => role !== 'worker')) await loadTlsMaterial(config);
    if (config.roles.includes('web')) await announceSetupToken(registry, logger);
  } finally {
    await registry.close();
  }
}

/**
 * Starts the roles named in ROLES in one process: lock the embedded database, build the registry
 * (migrations run here), then listen. Returns a stop function that closes everything in order.
 * A cluster worker (`isClusterWorker`) finds the shared state prepared by its primary.
 */
export async function startServer(
  config: Config,
  logger: Logger,
  options: { isClusterWorker?: boolean } = {},
): Promise<{ stop: () => Promise<void>; port: number | null }> {
  const stops: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step();
  };

  // The data directory holds keys, the embedded database and its WAL: ours only, including files
  // that an older version or another tool left readable to others.
  useOwnerOnlyUmask();
  ensurePrivateDir(config.dataDir);
  restrictToOwner(config.dataDir);

  if (!config.databaseUrl) {
    const lock = acquireDataDirLock(config.dataDir);
    if ('heldBy' in lock) {
      throw new StartupError(
        `another Mailstead process (pid ${lock.heldBy}) is using ${config.dataDir}: the embedded database allows one process; set DATABASE_URL to run several`,
      );
    }
    stops.push(lock.release);
  }

  // Before the database opens: /healthz answers and /readyz says what it waits for during migrations.
  const operations = await startOperations(config, logger);
  stops.push(() => operations.close());

  let registry;
  try {
    registry = await buildRegistry(config, logger);
  } catch (error) {
    await stop();
    if (error instanceof MasterKeyMismatchError) throw new StartupError(error.message);
    throw error;
  }
  stops.push(() => registry.close());
  operations.attach(registry);
  if (!options.isClusterWorker)
    logger.info({ database: registry.database.kind, roles: config.roles }, 'database ready, migrations applied');
  if (!options.isClusterWorker) warnOfLocalRateLimits(registry);

  // The CLI's way in to a running server: on PGlite the only way (the server holds the database);
  // on PostgreSQL a single process (WORKERS=1) answers too, so that a command need not open a pool
  // and build a registry of its own (2.6-3.0 s of CPU a call). Cluster workers share a data
  // directory, and one socket file cannot belong to each of them.
  if (!config.databaseUrl || !options.isClusterWorker) {
    const control = await startControlSocket(registry);
    stops.push(() => control.close());
  }

  if (config.roles.includes('worker')) {
    const worker = await startWorkerRole(registry, {
      database: registry.database.kind,
      settings: {
        jobPollMs: config.jobPollMs,
        retentionPurgeIntervalSeconds: config.retentionPurgeIntervalSeconds,
        campaigns: campaignTransactionSizes(registry.database.kind, config.campaignBatchSize),
        contactExports: { pageRows: config.contactExportPageRows },
        segmentRecounts: { staleSeconds: config.segmentRecountSeconds },
      },
    });
    stops.push(() => worker.stop());
    operations.readiness.markStarted('worker');
  }

  // What clients wait on (API requests, the dashboard's sign-in, SMTP sessions): on PGlite their
  // statements go before the background loops'.
  const foreground: Registry = { ...registry, db: registry.database.foregroundDb };
  let port: number | null = null;
  if (config.roles.includes('web')) {
    const tls = await loadTlsMaterial(config);
    // next-auth reads these from the environment; both come from our own configuration.
    const session = sessionSettings(
      registry.secrets.deriveKey('dashboard-session').toString('base64url'),
      config.publicUrl,
    );
    process.env.NEXTAUTH_SECRET = session.secret;
    process.env.NEXTAUTH_URL = config.publicUrl.origin;
    publishDashboardAuth(foreground);
    const { app } = createApiApp({ ...foreground, session });
    const dashboard = createDashboard(logger);
    stops.push(() => dashboard.close());
    // Before listening: whoever sees the server answer can already find DATA_DIR/setup-token.
    if (!options.isClusterWorker) await announceSetupToken(registry, logger);
    const web = await startWebServer({
      port: config.port,
      trackingPort: config.httpPort,
      tls,
      trustProxy: config.trustProxy,
      timeouts: config.httpTimeouts,
      logger,
      api: getRequestListener(app.fetch),
      tracking: getRequestListener(createTrackingApp({ ...foreground, session }).fetch),
      dashboard: dashboard.handle,
      health: operations.answerHealth,
    });
    stops.push(() => web.close());
    port = web.port;
    operations.readiness.markStarted('web');
    logger.info(
      { url: `https://localhost:${web.port}`, publicUrl: config.publicUrl.href, selfSignedTls: tls.isSelfSigned },
      'Mailstead is listening',
    );
  }
  const submissionListeners = [
    {
      port: config.smtpSubmissionPort,
      isImplicitTls: false,
      message: 'SMTP submission is listening (STARTTLS, AUTH PLAIN/LOGIN)',
    },
    {
      port: config.smtpSubmissionTlsPort,
      isImplicitTls: true,
      message: 'SMTP submission is listening (implicit TLS, AUTH PLAIN/LOGIN)',
    },
  ].filter((listener) => listener.port !== 0);
  if (config.roles.includes('smtp') && submissionListeners.length > 0) {
    // The same certificate as HTTPS: clients verify one name, MAIL_HOSTNAME or PUBLIC_URL's host.
    const tls = await loadTlsMaterial(config);
    // One count of failed AUTH for both ports, in Redis when set, as for dashboard sign-ins.
    const authLimiter = createAccountSignInLimiter(registry, 'smtp-auth');
    for (const listener of submissionListeners) {
      const submission = await startSubmissionServer({
        services: foreground,
        port: listener.port,
        hostname: config.mailHostname,
        tls,
        isImplicitTls: listener.isImplicitTls,
        consumeRateLimit: (credentialId) => registry.rateLimiter.consume('smtp', credentialId),
        authLimiter,
      });
      stops.push(() => submission.close());
      logger.info({ port: submission.port }, listener.message);
    }
  }
  // With both submission ports at 0 the role has nothing to start.
  if (config.roles.includes('smtp')) operations.readiness.markStarted('smtp');
  if (config.roles.includes('mx') && config.mxPort !== 0) {
    // STARTTLS with the same certificate: MAIL_HOSTNAME is the name the MX records point at.
    const tls = await loadTlsMaterial(config);
    const mx = await startMxServer({
      services: registry,
      port: config.mxPort,
      hostname: config.mailHostname,
      tls,
      limits: config.mxLimits,
    });
    stops.push(() => mx.close());
    logger.info({ port: mx.port }, 'the MX is listening (routes and return-path mail; STARTTLS optional, no AUTH)');
  }
  if (config.roles.includes('mx')) operations.readiness.markStarted('mx');
  // Runs first when stopping (stops run in reverse): /readyz answers 503 from then on.
  stops.push(() => operations.readiness.markStopping());
  return { stop, port };
}

function warnOfLocalRateLimits(registry: Awaited<ReturnType<typeof buildRegistry>>) {
  if (registry.rateLimiter.isLocal && registry.config.databaseUrl) {
    registry.logger.warn(
      'rate limits are counted in this process only: with several processes each keeps its own counters; set REDIS_URL to share them',
    );
  }
}

/** First run: print the one-time setup token and leave a copy (mode 0600) in the data directory. */
async function announceSetupToken(registry: Awaited<ReturnType<typeof buildRegistry>>, logger: Logger) {
  const token = await issueSetupToken(registry.db);
  // An account made while the server was stopped (the CLI) ended setup: no token, no copy.
  if (!token) return removeSetupTokenFile(registry.config.dataDir);
  const file = writeSetupTokenFile(registry.config.dataDir, token);
  logger.warn(
    { setupUrl: new URL('/setup', registry.config.publicUrl).href, tokenFile: file },
    `first run: no account exists yet; open /setup and enter the setup token ${token}`,
  );
  printSetupBanner(process.stderr, setupUrlOf(registry.config.publicUrl, token), file);
}

/**
 * How much a campaign writes per transaction. PostgreSQL has a connection per process and large
 * batches run at bulk speed; PGlite has one connection for everything, so a batch is made short
 * enough (~50 ms) that an API request waiting behind it still answers well under 250 ms
 * (100,000-recipient fan-out, docs/benchmarks.md). The audience snapshot's rows are smaller.
 */
export function campaignTransactionSizes(database: 'pglite' | 'postgres', batchSize: number | null) {
  const batch = batchSize ?? (database === 'pglite' ? 1000 : 5000);
  return { batchSize: batch, snapshotChunk: batch * 5 };
}
