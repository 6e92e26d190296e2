import { socialIconPng } from '@/lib/core/content/social-icons';
import { unsafeFindPublicMedia } from '@/lib/core/media/unsafe-find-public-media';
import type { Context } from 'hono';
import { getRequestMeta } from './request-meta';
import type { ApiApp, ApiDeps, ApiEnv } from './services';

/**
 * What every media answer carries: the bytes are only ever an image (nosniff), and were a browser
 * to open one as a document, it could run nothing and load nothing (the sandbox CSP).
 */
const SAFE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

/**
 * Public media (`/media/{id}.{extension}`): no credentials, since the URLs appear in mail; served
 * on the HTTPS port and on HTTP_PORT, like tracking links. A file never changes once stored, so
 * it is cached for a year; its ETag is its SHA-256. Any other path under /media is a 404.
 */
export function registerMedia(app: ApiApp, deps: ApiDeps): void {
  // Per client address, before any lookup: a scraper or a loop cannot make us read the database at will.
  const refused = async (c: Context<ApiEnv>) => {
    const meta = getRequestMeta(c);
    const decision = await deps.rateLimiter.consume('media', meta.clientIp ?? 'unknown', meta.receivedAt);
    if (decision.isAllowed) return null;
    return c.text('too many requests', 429, { ...SAFE_HEADERS, 'Retry-After': String(decision.retryAfterSeconds) });
  };

  // The social block's icons (lib/core/content/social-icons.ts): a fixed set, changed only by a release.
  app.get('/media/icons/:file', async (c) => {
    const limited = await refused(c);
    if (limited) return limited;
    const png = socialIconPng(c.req.param('file'));
    if (!png) return c.text('not found', 404, SAFE_HEADERS);
    return c.body(new Uint8Array(png), 200, {
      ...SAFE_HEADERS,
      'Cache-Control': 'public, max-age=604800',
      'Content-Type': 'image/png',
    });
  });

  app.get('/media/:file', async (c) => {
    const limited = await refused(c);
    if (limited) return limited;
    const found = await unsafeFindPublicMedia(deps, c.req.param('file'));
    if (!found) return c.text('not found', 404, SAFE_HEADERS);
    const etag = `"${found.sha256}"`;
    const headers = { ...SAFE_HEADERS, ETag: etag, 'Cache-Control': 'public, max-age=31536000, immutable' };
    if (
      c.req
        .header('if-none-match')
        ?.split(',')
        .some((tag) => tag.trim() === etag)
    )
      return c.body(null, 304, headers);
    return c.body(new Uint8Array(found.content), 200, { ...headers, 'Content-Type': found.contentType });
  });
}
