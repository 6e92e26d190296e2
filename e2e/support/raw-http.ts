import net from 'node:net';
import tls from 'node:tls';

export type RawResponse = { status: number; head: string; body: string };

/**
 * One HTTP/1.1 request written byte for byte (the request line exactly as given: no client resolves
 * its dot segments or encodes it), read until the server closes or `untilStatus` has come back.
 * `body` is sent as is after the headers, whatever Content-Length says.
 */
export async function rawRequest(options: {
  port: number;
  /** The server's certificate, for HTTPS; plain HTTP without it. */
  ca?: string;
  method?: string;
  target: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
}): Promise<RawResponse> {
  const socket = options.ca
    ? tls.connect({ host: '127.0.0.1', port: options.port, ca: options.ca, servername: 'localhost' })
    : net.connect({ host: '127.0.0.1', port: options.port });
  await new Promise<void>((resolve, reject) => {
    socket.once(options.ca ? 'secureConnect' : 'connect', () => resolve());
    socket.once('error', reject);
  });
  const headers = { host: `127.0.0.1:${options.port}`, connection: 'close', ...options.headers };
  const head = [
    `${options.method ?? 'GET'} ${options.target} HTTP/1.1`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  socket.write(`${head}\r\n\r\n${options.body ?? ''}`);
  const received: Buffer[] = [];
  const text = () => Buffer.concat(received).toString('utf8');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `no complete answer to ${options.target} within ${options.timeoutMs ?? 10_000} ms: ${JSON.stringify(text().slice(0, 200))}`,
        ),
      );
    }, options.timeoutMs ?? 10_000);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (isComplete(text())) {
        socket.destroy();
        done();
      }
    });
    socket.once('close', done);
    socket.once('error', done);
  });
  const all = text();
  const split = all.indexOf('\r\n\r\n');
  const responseHead = split === -1 ? all : all.slice(0, split);
  const body = split === -1 ? '' : all.slice(split + 4);
  return {
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(responseHead)?.[1] ?? 0),
    head: responseHead,
    body: /\r\ntransfer-encoding: *chunked/i.test(responseHead) ? dechunk(body) : body,
  };
}

/** The payload of a chunked body (sizes in hex, each chunk followed by CRLF, a 0 chunk at the end). */
function dechunk(body: string): string {
  const bytes = Buffer.from(body, 'utf8');
  const parts: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd === -1) break;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** A whole response with a Content-Length body has come back (a chunked one ends with the connection). */
function isComplete(text: string): boolean {
  const split = text.indexOf('\r\n\r\n');
  if (split === -1) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, split))?.[1];
  return length !== undefined && Buffer.byteLength(text.slice(split + 4)) >= Number(length);
}
