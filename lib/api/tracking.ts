import { recordEngagement } from '@/lib/core/tracking/record-engagement';
import { getRequestMeta } from './request-meta';
import type { ApiApp, ApiDeps } from './services';

// A transparent 1x1 GIF.
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/**
 * Tracking links (`/t/`): no credentials, served on the HTTPS port and, for customers' tracking
 * CNAMEs, on HTTP_PORT too. A token we did not sign, or one that was altered, is a 404.
 */
export function registerTracking(app: ApiApp, deps: ApiDeps): void {
  app.get('/t/o/:token', async (c) => {
    const result = await recordEngagement(deps, {
      kind: 'open',
      token: c.req.param('token'),
      userAgent: c.req.header('user-agent') ?? '',
      ip: getRequestMeta(c).clientIp,
    });
    if (!result) return c.text('not found', 404);
    return c.body(PIXEL, 200, { 'content-type': 'image/gif', 'cache-control': 'no-store, max-age=0' });
  });
  app.get('/t/c/:token', async (c) => {
    const result = await recordEngagement(deps, {
      kind: 'click',
      token: c.req.param('token'),
      userAgent: c.req.header('user-agent') ?? '',
      ip: getRequestMeta(c).clientIp,
    });
    if (!result?.url || !/^https?:\/\//i.test(result.url)) return c.text('not found', 404);
    return c.redirect(result.url, 302);
  });
}
