import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { attachRequestMeta } from '@/lib/api/request-meta';
import { anyCidrContains, normalizeIp, type Cidr } from '@/lib/shared/ip';
import type { Logger } from './logger';
import type { TlsMaterial } from './tls';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Paths the API app serves; everything else belongs to the dashboard. */
const API_PATH = /^\/(v2|v1|t|u|internal)(\/|\?|$)/;

export type WebServer = { port: number; close: () => Promise<void> };

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
  logger: Logger;
  api: Handler;
  dashboard: Handler;
}): Promise<WebServer> {
  const { trustProxy, logger } = options;

  let inFlight = 0;
  const route = (isTls: boolean) => (req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    res.once('close', () => inFlight--);
    const peer = normalizeIp(req.socket.remoteAddress);
    const isFromProxy = trustProxy.length > 0 && anyCidrContains(trustProxy, peer);
    const clientIp = isFromProxy ? clientIpBehindProxy(req.headers['x-forwarded-for'], trustProxy) ?? peer : peer;
    const forwardedProto = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim().toLowerCase();
    const isHttps = isTls || (isFromProxy && forwardedProto === 'https');
    if (!isHttps) {
      res.writeHead(400, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify({ message: 'plain HTTP is refused: use HTTPS' }));
      return;
    }
    attachRequestMeta(req, { clientIp, isHttps });
    if (API_PATH.test(req.url ?? '/')) return options.api(req, res);
    // Next.js sees only headers: hand it the client IP we decided on, never one the client sent.
    req.headers['x-mailstead-client-ip'] = clientIp ?? 'unknown';
    options.dashboard(req, res);
  };

  const tlsServer = https.createServer({ cert: options.tls.cert, key: options.tls.key }, route(true));
  const plainServer = http.createServer(route(false));
  for (const server of [tlsServer, plainServer]) {
    server.keepAliveTimeout = 65_000;
    server.on('clientError', (_error, socket) => socket.destroy());
  }
  tlsServer.on('tlsClientError', () => {});

  const sockets = new Set<net.Socket>();
  const front = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.once('data', (chunk) => {
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
    // Only `/t/` over plain HTTP: tracking hosts are customers' names, for which we hold no certificate.
    trackingServer = http.createServer((req, res) => {
      if (!/^\/t\//.test(req.url ?? '')) {
        res.writeHead(400, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify({ message: 'plain HTTP is refused: use HTTPS' }));
        return;
      }
      const peer = normalizeIp(req.socket.remoteAddress);
      const isFromProxy = trustProxy.length > 0 && anyCidrContains(trustProxy, peer);
      attachRequestMeta(req, { clientIp: isFromProxy ? clientIpBehindProxy(req.headers['x-forwarded-for'], trustProxy) ?? peer : peer, isHttps: false });
      options.api(req, res);
    });
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
      trackingServer?.closeAllConnections();
      await Promise.all([closed, trackingServer ? new Promise<void>((resolve) => trackingServer!.close(() => resolve())) : null]);
    },
  };
}

/** The right-most address in X-Forwarded-For that is not one of our proxies. */
function clientIpBehindProxy(header: string | string[] | undefined, trustProxy: Cidr[]): string | null {
  const hops = (Array.isArray(header) ? header.join(',') : header ?? '').split(',').map((hop) => normalizeIp(hop)).filter((hop): hop is string => hop !== null);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!anyCidrContains(trustProxy, hops[i])) return hops[i];
  }
  return hops[0] ?? null;
}
