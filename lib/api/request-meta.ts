import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/** What the process's own server knows about a request and a Web Request cannot carry. */
export type RequestMeta = { clientIp: string | null; isHttps: boolean };

const META = Symbol.for('mailstead.requestMeta');

export function attachRequestMeta(incoming: IncomingMessage, meta: RequestMeta): void {
  (incoming as unknown as Record<symbol, RequestMeta>)[META] = meta;
}

export function getRequestMeta(c: Context): RequestMeta {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return (incoming as unknown as Record<symbol, RequestMeta> | undefined)?.[META] ?? { clientIp: null, isHttps: false };
}
