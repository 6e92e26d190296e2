import { createHash, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type net from 'node:net';
import { hasShippedMigrations } from '@/lib/db/migrate';
import { metricsRegistry } from '@/lib/shared/metrics';
import type { Config } from './config';
import type { Logger } from './logger';
import { installScrapeMetrics } from './metrics-collectors';
import { createReadiness, type Readiness } from './readiness';
import type { Registry } from './registry';

const HEALTH_PATH = /^\/(healthz|readyz)(\?.*)?$/;

/**
 * /healthz (the process is up: answered at once, no database) and /readyz (readiness.ts: 200, or
 * 503 naming what is not ready). For load balancers and orchestrators: no authentication, no rate
 * limit, nothing secret in the body. Returns false for any other path.
 */
export function answerHealth(readiness: Readiness, req: IncomingMessage, res: ServerResponse): boolean {
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

function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text), ...headers });
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
export async function startOperationsServer(options: { host: string; port: number; token: string | null; readiness: Readiness; logger: Logger }): Promise<{ port: number; close: () => Promise<void> }> {
  const { token, readiness, logger } = options;
  const server = http.createServer((req, res) => {
    if (answerHealth(readiness, req, res)) return;
    if (!/^\/metrics(\?.*)?$/.test(req.url ?? '')) return sendJson(req, res, 404, { message: 'not found: /metrics, /healthz and /readyz are served here' });
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(req, res, 405, { message: 'use GET or HEAD' }, { allow: 'GET, HEAD' });
    if (token && !hasToken(req, token)) return sendJson(req, res, 401, { message: 'a bearer token (METRICS_TOKEN) is required' }, { 'www-authenticate': 'Bearer' });
    metricsRegistry.metrics().then(
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
  const listener = port !== 0 ? await startOperationsServer({ host, port, token, readiness, logger }) : null;
  if (listener) logger.info({ host, port: listener.port, isTokenRequired: token !== null }, 'operations listener: /metrics, /healthz, /readyz (plain HTTP)');
  return {
    readiness,
    port: listener?.port ?? null,
    answerHealth: (req: IncomingMessage, res: ServerResponse) => answerHealth(readiness, req, res),
    /** Once the database is open and migrated. */
    attach(registry: Registry) {
      readiness.setDatabaseProbe(async () => ({ hasMigrations: await hasShippedMigrations(registry.db) }));
      if (listener) installScrapeMetrics({ db: registry.db, poolUse: () => registry.database.poolUse(), now: registry.now, logger, timeoutMs: config.readyTimeoutMs });
    },
    close: async () => listener?.close(),
  };
}
