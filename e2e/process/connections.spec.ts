import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { expect, test } from '@playwright/test';
import { fetch } from 'undici';
import { startServer, trustingAgent, type ServerHandle } from '../support/server';

/**
 * Slow and silent clients: a connection that sends nothing, a TLS handshake or request headers that
 * never finish, and an idle keep-alive connection are all closed by the server, which keeps serving.
 * Small timeouts here (1 s); the defaults are 20 s for each step before the headers and 65 s idle.
 */
const TIMEOUT_MS = 1000;
// Generous: the machine running the tests may be busy.
const MARGIN_MS = 10_000;

let server: ServerHandle;

test.beforeAll(async () => {
  server = await startServer({
    env: { HTTP_HEADERS_TIMEOUT_MS: String(TIMEOUT_MS), HTTP_KEEP_ALIVE_TIMEOUT_MS: String(TIMEOUT_MS) },
  });
});

test.afterAll(async () => {
  await server?.stop();
});

/** Resolves with the milliseconds from `since` until the socket closes. */
function closedAfter(socket: net.Socket, since: number): Promise<number> {
  return new Promise((resolve) => {
    socket.on('error', () => {});
    socket.once('close', () => resolve(performance.now() - since));
  });
}

function connect(): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

function connectTls(): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      {
        port: server.port,
        host: '127.0.0.1',
        servername: 'localhost',
        ca: readFileSync(path.join(server.dataDir, 'tls', 'cert.pem'), 'utf8'),
      },
      () => resolve(socket),
    );
    socket.once('error', reject);
  });
}

async function stillServes() {
  const response = await fetch(`${server.baseUrl}/v2/openapi.json`, { dispatcher: trustingAgent(server.dataDir) });
  expect(response.status).toBe(200);
}

test('200 connections that send nothing are closed after the headers timeout, while the server keeps serving', async () => {
  const sockets = await Promise.all(Array.from({ length: 200 }, connect));
  const since = performance.now();
  const closed = Promise.all(sockets.map((socket) => closedAfter(socket, since)));
  await stillServes();
  const times = await Promise.race([
    closed,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), TIMEOUT_MS + MARGIN_MS)),
  ]);
  for (const socket of sockets) socket.destroy();
  expect(times, 'silent connections still open').not.toBeNull();
  // Closed by the timeout, not at once.
  expect(Math.min(...times!)).toBeGreaterThanOrEqual(TIMEOUT_MS * 0.9);
  await stillServes();
});

const slowClients: [string, () => Promise<net.Socket>][] = [
  [
    'a TLS handshake that never finishes',
    async () => {
      const socket = await connect();
      socket.write(Buffer.from([0x16, 0x03, 0x01])); // the start of a TLS record, then nothing
      return socket;
    },
  ],
  ['a TLS connection that sends no request', connectTls],
  [
    'request headers that never finish (over TLS)',
    async () => {
      const socket = await connectTls();
      socket.write('GET /v2/ping HTTP/1.1\r\nHost: localhost\r\n');
      return socket;
    },
  ],
  [
    'request headers that trickle in, one line every half timeout',
    async () => {
      const socket = await connectTls();
      socket.write('GET /v2/ping HTTP/1.1\r\n');
      const timer = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), TIMEOUT_MS / 2);
      socket.once('close', () => clearInterval(timer));
      return socket;
    },
  ],
  [
    'plain HTTP headers that never finish',
    async () => {
      const socket = await connect();
      socket.write('GET /v2/ping HTTP/1.1\r\n');
      return socket;
    },
  ],
];

for (const [name, open] of slowClients) {
  test(`${name}: closed after the headers timeout`, async () => {
    const since = performance.now();
    const socket = await open();
    const closed = closedAfter(socket, since);
    const time = await Promise.race([
      closed,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), TIMEOUT_MS + MARGIN_MS)),
    ]);
    socket.destroy();
    expect(time, 'connection still open').not.toBeNull();
    await stillServes();
  });
}

test('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
  const socket = await connectTls();
  let response = '';
  socket.setEncoding('utf8');
  const answered = new Promise<void>((resolve) => {
    socket.on('data', (data: string) => {
      response += data;
      const [head, body] = response.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head)?.[1];
      if (body !== undefined && (length ? Buffer.byteLength(body) >= Number(length) : body.endsWith('0\r\n\r\n')))
        resolve();
    });
  });
  socket.write('GET /v2/ping HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
  await answered;
  expect(response).toMatch(/^HTTP\/1\.1 401 /);
  const since = performance.now();
  const time = await Promise.race([
    closedAfter(socket, since),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), TIMEOUT_MS + MARGIN_MS)),
  ]);
  socket.destroy();
  expect(time, 'idle connection still open').not.toBeNull();
  expect(time!).toBeGreaterThanOrEqual(TIMEOUT_MS * 0.9);
});
