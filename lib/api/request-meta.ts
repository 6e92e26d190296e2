import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * What the process's own server knows about a request and a Web Request cannot carry. `receivedAt`:
 * performance.now() when its headers had arrived (rate limits count a request from then).
 */
export type RequestMeta = { clientIp: string | null; isHttps: boolean; requestId: string; receivedAt: number };

const META = Symbol.for('mailstead.requestMeta');

// What we accept from a client or a proxy as a request id; anything else is replaced by our own.
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the caller's `X-Request-Id` when it is a sane token, else a new UUID. */
export function requestIdFrom(header: string | string[] | null | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given && REQUEST_ID.test(given) ? given : randomUUID();
}

export function attachRequestMeta(incoming: IncomingMessage, meta: RequestMeta): void {
  (incoming as unknown as Record<symbol, RequestMeta>)[META] = meta;
}

/** The meta attached by the web server; null when the app is called without it (tests). */
export function findRequestMeta(c: Context): RequestMeta | null {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return (incoming as unknown as Record<symbol, RequestMeta> | undefined)?.[META] ?? null;
}

export function getRequestMeta(c: Context): Omit<RequestMeta, 'requestId' | 'receivedAt'> & { receivedAt?: number } {
  return findRequestMeta(c) ?? { clientIp: null, isHttps: false };
}
