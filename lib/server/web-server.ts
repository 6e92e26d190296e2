import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { attachRequestMeta, requestIdFrom } from '@/lib/api/request-meta';
import { anyCidrContains, normalizeIp, type Cidr } from '@/lib/shared/ip';
import type { Logger } from './logger';
import { routablePath } from './request-target';
import type { TlsMaterial } from './tls';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Paths the API app serves; everything else belongs to the dashboard. */
const API_PATH = /^\/(v2|v1|t|u|f|media|internal)(\/|$)/;

/** The only paths served over plain HTTP (HTTP_PORT): tracking links and public media (both appear in mail). */
const TRACKING_PATH = /^\/(t|media)\//;

const PLAIN_HTTP_REFUSED = JSON.stringify({ message: 'plain HTTP is refused: use HTTPS' });
const HIDDEN_PATH_REFUSED = JSON.stringify({
  message: 'the request path has a dot segment (. or ..) or a backslash, in some encoding: send the resolved path',
});

export type WebServer = { port: number; close: () => Promise<void> };

/** Each of the first byte, the TLS handshake and the request headers within `headersMs`; idle keep-alive for `keepAliveMs`. */
export type HttpTimeouts = { headersMs: number; keepAliveMs: number };

/**
 * One listener for TLS and, from trusted proxies only, plain HTTP: the first byte of a connection
 * tells a TLS handshake (0x16) from an HTTP request line. The client IP is the socket's address;
 * X-Forwarded-For and X-Forwarded-Proto count only when the socket belongs to a trusted proxy.
 */
export async function startWebServer(options: {
  port: number;
  /** Plain-HTTP port for tracking links only (customers' CNAME hosts); 0 for none. */
  trackingPort?: number;
  host?: string;
  tls: TlsMaterial;
  trustProxy: Cidr[];
  timeouts: HttpTimeouts;
  logger: Logger;
  api: Handler;
  /** Tracking links alone (createTrackingApp), for the plain-HTTP port. */
  tracking: Handler;
  dashboard: Handler;
  /** /healthz and /readyz (operations-server.ts): true when it answered. Also over plain HTTP: probes carry nothing secret. */
  health?: (req: IncomingMessage, res: ServerResponse) => boolean;
}): Promise<WebServer> {
  const { trustProxy, logger, timeouts } = options;

  let inFlight = 0;
  const route = (isTls: boolean) => (req: IncomingMessage, res: ServerResponse) => {
    const receivedAt = performance.now();
    inFlight++;
    res.once('close', () => inFlight--);
    const requestId = requestIdFrom(req.headers['x-request-id']);
    res.setHeader('X-Request-Id', requestId);
    if (options.health?.(req, res)) return;
    const peer = normalizeIp(req.socket.remoteAddress);
    const isFromProxy = trustProxy.length > 0 && anyCidrContains(trustProxy, peer);
    const clientIp = isFromProxy ? (clientIpBehindProxy(req.headers['x-forwarded-for'], trustProxy) ?? peer) : peer;
    const forwardedProto = String(req.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]
      .trim()
      .toLowerCase();
    const isHttps = isTls || (isFromProxy && forwardedProto === 'https');
    if (!isHttps) return refuse(res, PLAIN_HTTP_REFUSED);
    // Decided on the path the API and Next.js route, not on the raw bytes of the request line.
    const path = routablePath(req.url ?? '/');
    if (path === null) return refuse(res, HIDDEN_PATH_REFUSED);
    attachRequestMeta(req, { clientIp, isHttps, requestId, receivedAt });
    if (API_PATH.test(path)) return options.api(req, res);
    // Next.js sees only headers: hand it the client IP and request id we decided on, never ones the client sent.
    req.headers['x-mailstead-client-ip'] = clientIp ?? 'unknown';
    req.headers['x-request-id'] = requestId;
    options.dashboard(req, res);
  };

  const httpOptions = httpServerOptions(timeouts);
  const tlsServer = https.createServer(
    { cert: options.tls.cert, key: options.tls.key, handshakeTimeout: timeouts.headersMs, ...httpOptions },
    route(true),
  );
  const plainServer = http.createServer(httpOptions, route(false));
  for (const server of [tlsServer, plainServer]) {
    server.keepAliveTimeout = timeouts.keepAliveMs;
    // Also a request whose headers did not arrive in time (ERR_HTTP_REQUEST_TIMEOUT).
    server.on('clientError', (_error, socket) => socket.destroy());
    // Node checks headersTimeout only on servers that listen; these two are fed sockets by `front`.
    server.emit('listening');
  }
  tlsServer.on('tlsClientError', () => {});

  const sockets = new Set<net.Socket>();
  const front = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    // A connection that sends nothing is closed; after the first byte the TLS or HTTP server's own timeouts apply.
    const onSilence = () => socket.destroy();
    socket.setTimeout(timeouts.headersMs);
    socket.once('timeout', onSilence);
    socket.once('data', (chunk) => {
      socket.setTimeout(0);
      socket.off('timeout', onSilence);
      socket.pause();
      socket.unshift(chunk);
      (chunk[0] === 0x16 ? tlsServer : plainServer).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });

  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(options.port, options.host, () => resolve());
  });
  const address = front.address() as net.AddressInfo;
  logger.debug({ port: address.port }, 'web server listening');

  let trackingServer: http.Server | null = null;
  if (options.trackingPort) {
    // Only `/t/` and `/media/` over plain HTTP: tracking hosts are customers' names, for which we hold no certificate.
    // Checked on the routed path, and the app behind it has no other route whatever the check says.
    trackingServer = http.createServer(httpOptions, (req, res) => {
      const requestId = requestIdFrom(req.headers['x-request-id']);
      res.setHeader('X-Request-Id', requestId);
      const path = routablePath(req.url ?? '');
      if (path === null || !TRACKING_PATH.test(path)) return refuse(res, PLAIN_HTTP_REFUSED);
      const peer = normalizeIp(req.socket.remoteAddress);
      const isFromProxy = trustProxy.length > 0 && anyCidrContains(trustProxy, peer);
      attachRequestMeta(req, {
        clientIp: isFromProxy ? (clientIpBehindProxy(req.headers['x-forwarded-for'], trustProxy) ?? peer) : peer,
        isHttps: false,
        requestId,
        receivedAt: performance.now(),
      });
      options.tracking(req, res);
    });
    trackingServer.keepAliveTimeout = timeouts.keepAliveMs;
    await new Promise<void>((resolve, reject) => {
      trackingServer!.once('error', reject);
      trackingServer!.listen(options.trackingPort, options.host, () => resolve());
    });
  }

  return {
    port: address.port,
    // Stop accepting, let requests in flight finish (up to a few seconds), then drop what is left.
    close: async () => {
      const closed = new Promise<void>((resolve) => front.close(() => resolve()));
      const deadline = Date.now() + 5000;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      for (const socket of sockets) socket.destroy();
      // The inner servers never listened: close() only stops their timeout checks.
      tlsServer.close();
      plainServer.close();
      trackingServer?.closeAllConnections();
      await Promise.all([
        closed,
        trackingServer ? new Promise<void>((resolve) => trackingServer!.close(() => resolve())) : null,
      ]);
    },
  };
}

function refuse(res: ServerResponse, body: string): void {
  res.writeHead(400, { 'content-type': 'application/json', connection: 'close' });
  res.end(body);
}

function httpServerOptions(timeouts: HttpTimeouts): http.ServerOptions {
  return {
    headersTimeout: timeouts.headersMs,
    // How often Node looks for requests past headersTimeout: often enough for the limit to mean something.
    connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(timeouts.headersMs / 4))),
  };
}

/** The right-most address in X-Forwarded-For that is not one of our proxies. */
function clientIpBehindProxy(header: string | string[] | undefined, trustProxy: Cidr[]): string | null {
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((hop) => normalizeIp(hop))
    .filter((hop): hop is string => hop !== null);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!anyCidrContains(trustProxy, hops[i])) return hops[i];
  }
  return hops[0] ?? null;
}
