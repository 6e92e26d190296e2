import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { Hono, type Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import { observeHttpRequest } from '@/lib/shared/metrics';
import { isDatabaseUnavailable } from '@/lib/shared/database-unavailable';
import { AppError } from '@/lib/shared/errors';
import { registerEndpoint, type RouteTable } from './endpoint';
import { errorResponse, methodNotAllowed, routeNotFound } from './errors';
import { internalEndpoints } from './internal';
import { authenticate } from './middleware/authenticate';
import { registerMedia } from './media';
import { registerTracking } from './tracking';
import { registerSignupPages } from './signup-pages';
import { registerUnsubscribe } from './unsubscribe';
import { authenticateV1 } from './middleware/authenticate-v1';
import { rateLimit } from './middleware/rate-limit';
import { findRequestMeta, requestIdFrom } from './request-meta';
import type { ApiApp, ApiDeps, ApiEnv } from './services';
import { v1Endpoints } from './v1';
import { v2Endpoints } from './v2';

/**
 * The API: `/v2`, `/v1`, tracking and unsubscribe links, public media and `/internal`. The process's HTTPS server
 * sends these paths here and everything else to Next.js. Order of the v2 chain: authenticate and IP
 * allow list -> rate limit -> route and method -> scope -> idempotency -> validation -> verb.
 */
export function createApiApp(deps: ApiDeps): { app: ApiApp; openApiDocument: () => object } {
  const app = new Hono<ApiEnv>();
  const registry = new OpenAPIRegistry();
  const routes: RouteTable = [];
  observeRequests(app, deps);

  let document: object | null = null;
  const openApiDocument = () => (document ??= generateDocument(registry));
  app.get('/v2/openapi.json', (c) => c.json(openApiDocument()));

  registerTracking(app, deps);
  registerMedia(app, deps);
  registerUnsubscribe(app, deps);
  registerSignupPages(app, deps);
  app.use('/v2/*', authenticate(deps, { allowApiKeys: true }), rateLimit(deps));
  app.use('/internal/*', authenticate(deps, { allowApiKeys: false }), rateLimit(deps));
  app.use('/v1/*', authenticateV1(deps), rateLimit(deps));
  for (const endpoint of [...v2Endpoints, ...internalEndpoints, ...v1Endpoints])
    registerEndpoint(app, registry, routes, deps, endpoint);

  // Answered rather than thrown: a throw from here would skip the post-processing of the middleware
  // that matched the path (Hono calls this handler outside its error boundary).
  app.notFound((c) => {
    const allowed = routes.filter((route) => route.pattern.test(c.req.path)).map((route) => route.method);
    return errorResponse(c, allowed.length ? methodNotAllowed(c.req.method, [...new Set(allowed)]) : routeNotFound());
  });
  answerErrors(app, deps);

  return { app, openApiDocument };
}

/**
 * Tracking links and public media alone, for the plain-HTTP listener (HTTP_PORT): whatever path a
 * request there names, no other route exists to reach, so keys and session cookies never travel in clear text.
 */
export function createTrackingApp(deps: ApiDeps): ApiApp {
  const app = new Hono<ApiEnv>();
  observeRequests(app, deps);
  registerTracking(app, deps);
  registerMedia(app, deps);
  app.notFound((c) => errorResponse(c, routeNotFound()));
  answerErrors(app, deps);
  return app;
}

/** Every request: its id (from the web server, else made here) on the response and on its log lines. */
function observeRequests(app: ApiApp, deps: ApiDeps): void {
  app.use('*', async (c, next) => {
    const started = performance.now();
    const requestId = findRequestMeta(c)?.requestId ?? requestIdFrom(c.req.header('x-request-id'));
    const logger = deps.logger.child({ reqId: requestId });
    c.set('requestId', requestId);
    c.set('logger', logger);
    await next();
    // Public media sets its own (immutable); everything else is never cached.
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
    c.header('X-Request-Id', requestId);
    const ms = performance.now() - started;
    observeHttpRequest(c.req.method, routePatternOf(c), c.res.status, ms / 1000);
    logger.debug({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(ms) }, 'api request');
  });
}

/** Anything a handler throws becomes the one error answer; what is not an AppError is logged first. */
function answerErrors(app: ApiApp, deps: ApiDeps): void {
  app.onError((error, c) => {
    const logger = c.get('logger') ?? deps.logger;
    if (isDatabaseUnavailable(error))
      logger.warn(
        { err: { message: (error as Error).message }, method: c.req.method, path: c.req.path },
        'database unavailable: answered 503',
      );
    else if (!(error instanceof AppError))
      logger.error({ err: error, method: c.req.method, path: c.req.path }, 'unexpected error in API request');
    return errorResponse(c, error);
  });
}

/**
 * The pattern of the endpoint the request matched (`/v2/accounts/:account_id/messages`), for
 * metrics: never the raw path, whose ids would make a series per request. Middleware is
 * registered for every method ('ALL'); the first handler after it answers (`/u/test` before
 * `/u/:token`), also when the middleware refused the request first. No endpoint: `unmatched`.
 */
function routePatternOf(c: Context): string {
  return matchedRoutes(c).find((route) => route.method !== 'ALL')?.path ?? 'unmatched';
}

function generateDocument(registry: OpenAPIRegistry): object {
  registry.registerComponent('securitySchemes', 'BearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'aha-sk-... API key',
  });
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Mailstead API',
      version: '2.0.0',
      description:
        'AhaSend-compatible v2 API served by Mailstead. Operations and fields marked `x-mailstead-extension` go beyond the public AhaSend contract.',
    },
    servers: [{ url: '/' }],
  });
}
