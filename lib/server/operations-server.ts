import { createHash, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type net from 'node:net';
import { hasShippedMigrations } from '@/lib/db/migrate';
import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import { metricsRegistry } from '@/lib/shared/metrics';
import type { Config } from './config-settings';
import type { Logger } from './logger';
import { installScrapeMetrics } from './metrics-collectors';
import { createReadiness } from './readiness';
import type { Registry } from './registry';

const HEALTH_PATH = /^\/(healthz|readyz)(\?.*)?$/;

/** What /readyz asks: a process's readiness, or a cluster primary's count of started workers. */
type HealthSource = { check(): Promise<{ status: 'ready' | 'not ready'; failing: string[] }> };

/**
 * /healthz (the process is up: answered at once, no database) and /readyz (readiness.ts: 200, or
 * 503 naming what is not ready). For load balancers and orchestrators: no authentication, no rate
 * limit, nothing secret in the body. Returns false for any other path.
 */
export function answerHealth(readiness: HealthSource, req: IncomingMessage, res: ServerResponse): boolean {
  const match = HEALTH_PATH.exec(req.url ?? '');
  if (!match) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJson(req, res, 405, { message: 'use GET or HEAD' }, { allow: 'GET, HEAD' });
    return true;
  }
  if (match[1] === 'healthz') {
    sendJson(req, res, 200, { status: 'ok' });
    return true;
  }
  readiness.check().then(
    (report) => sendJson(req, res, report.status === 'ready' ? 200 : 503, report),
    () => sendJson(req, res, 503, { status: 'not ready', failing: ['readiness check'] }),
  );
  return true;
}

function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: object,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** `Authorization: Bearer <token>`, compared in constant time. */
function hasToken(req: IncomingMessage, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1]), digest(token));
}

/**
 * The operations listener (METRICS_PORT on METRICS_HOST, plain HTTP: Prometheus and probes speak
 * it, and it is meant for a private network): /metrics in Prometheus text format, behind
 * METRICS_TOKEN when one is set, and /healthz and /readyz for processes that run no web role.
 */
export async function startOperationsServer(options: {
  host: string;
  port: number;
  token: string | null;
  readiness: HealthSource;
  logger: Logger;
  /** The exposition: this process's registry, or (the cluster primary) every worker's, aggregated. */
  collect?: () => Promise<string>;
}): Promise<{ port: number; close: () => Promise<void> }> {
  const { token, readiness, logger } = options;
  const collect = options.collect ?? (() => metricsRegistry.metrics());
  const server = http.createServer((req, res) => {
    if (answerHealth(readiness, req, res)) return;
    if (!/^\/metrics(\?.*)?$/.test(req.url ?? ''))
      return sendJson(req, res, 404, { message: 'not found: /metrics, /healthz and /readyz are served here' });
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendJson(req, res, 405, { message: 'use GET or HEAD' }, { allow: 'GET, HEAD' });
    if (token && !hasToken(req, token))
      return sendJson(
        req,
        res,
        401,
        { message: 'a bearer token (METRICS_TOKEN) is required' },
        { 'www-authenticate': 'Bearer' },
      );
    collect().then(
      (text) => {
        res.writeHead(200, { 'content-type': metricsRegistry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error) => {
        logger.error({ err: error }, 'metrics could not be collected');
        sendJson(req, res, 500, { message: 'metrics could not be collected' });
      },
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The process's operator view, started before the database opens so that /healthz answers (and
 * /readyz says what it waits for) during long migrations: readiness, the health answer for the web
 * server, and the operations listener when METRICS_PORT is set.
 */
export async function startOperations(config: Config, logger: Logger) {
  const readiness = createReadiness({ roles: config.roles, timeoutMs: config.readyTimeoutMs });
  const { port, host, token } = config.metrics;
  // Under WORKERS > 1 the primary holds the operations port and asks every worker for its metrics.
  const isClusterWorker = cluster.isWorker;
  if (isClusterWorker && port !== 0) {
    // Constructing one is what makes a worker answer the primary's requests (prom-client's listeners).
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([metricsRegistry]);
  }
  const listener =
    port !== 0 && !isClusterWorker ? await startOperationsServer({ host, port, token, readiness, logger }) : null;
  if (listener)
    logger.info(
      { host, port: listener.port, isTokenRequired: token !== null },
      'operations listener: /metrics, /healthz, /readyz (plain HTTP)',
    );
  return {
    readiness,
    port: listener?.port ?? null,
    answerHealth: (req: IncomingMessage, res: ServerResponse) => answerHealth(readiness, req, res),
    /** Once the database is open and migrated. */
    attach(registry: Registry) {
      readiness.setDatabaseProbe(async () => ({ hasMigrations: await hasShippedMigrations(registry.db) }));
      if (port !== 0)
        installScrapeMetrics({
          db: registry.db,
          poolUse: () => registry.database.poolUse(),
          now: registry.now,
          logger,
          timeoutMs: config.readyTimeoutMs,
        });
    },
    close: async () => listener?.close(),
  };
}

/**
 * The operations listener of a cluster primary (WORKERS > 1): /metrics sums the workers' counters
 * (database-wide gauges take the max), /healthz is the primary, /readyz is every worker started.
 */
export async function startClusterOperations(
  config: Config,
  logger: Logger,
  workers: () => { ready: number; expected: number },
) {
  const { port, host, token } = config.metrics;
  if (port === 0) return null;
  const aggregator = new AggregatorRegistry();
  const readiness = {
    check: async () => {
      const { ready, expected } = workers();
      return ready >= expected
        ? { status: 'ready' as const, failing: [] }
        : { status: 'not ready' as const, failing: [`workers (${ready} of ${expected} started)`] };
    },
  };
  const listener = await startOperationsServer({
    host,
    port,
    token,
    readiness,
    logger,
    collect: () => aggregator.clusterMetrics(),
  });
  logger.info(
    { host, port: listener.port, isTokenRequired: token !== null },
    'operations listener of the primary: /metrics of every worker, /healthz, /readyz',
  );
  return listener;
}
