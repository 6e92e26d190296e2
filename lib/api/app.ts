import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { Hono, type Context } from 'hono';
import { AppError } from '@/lib/shared/errors';
import { registerEndpoint, type RouteTable } from './endpoint';
import { errorResponse, type Envelope } from './errors';
import { internalEndpoints } from './internal';
import { authenticate } from './middleware/authenticate';
import { registerTracking } from './tracking';
import { authenticateV1 } from './middleware/authenticate-v1';
import { rateLimit } from './middleware/rate-limit';
import type { ApiApp, ApiDeps, ApiEnv } from './services';
import { v1Endpoints } from './v1';
import { v2Endpoints } from './v2';

const envelopeOf = (path: string): Envelope => (path.startsWith('/v1/') ? 'v1' : 'v2');

/**
 * The API: `/v2`, `/v1`, tracking and unsubscribe links and `/internal`. The process's HTTPS server
 * sends these paths here and everything else to Next.js. Order of the v2 chain: authenticate and IP
 * allow list -> rate limit -> route and method -> idempotency -> scope -> validation -> verb.
 */
export function createApiApp(deps: ApiDeps): { app: ApiApp; openApiDocument: () => object } {
  const app = new Hono<ApiEnv>();
  const registry = new OpenAPIRegistry();
  const routes: RouteTable = [];

  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    c.header('Cache-Control', 'no-store');
    deps.logger.debug({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) }, 'api request');
  });

  let document: object | null = null;
  const openApiDocument = () => (document ??= generateDocument(registry));
  app.get('/v2/openapi.json', (c) => c.json(openApiDocument()));

  registerTracking(app, deps);
  app.use('/v2/*', authenticate(deps, { allowApiKeys: true }), rateLimit(deps));
  app.use('/internal/*', authenticate(deps, { allowApiKeys: false }), rateLimit(deps));
  app.use('/v1/*', authenticateV1(deps), rateLimit(deps));
  for (const endpoint of [...v2Endpoints, ...internalEndpoints, ...v1Endpoints]) registerEndpoint(app, registry, routes, deps, endpoint);

  app.notFound((c) => {
    const allowed = routes.filter((route) => route.pattern.test(c.req.path)).map((route) => route.method);
    if (allowed.length) {
      return c.json(envelopeBody(c, `method ${c.req.method} is not allowed on this path`), 405, { Allow: [...new Set(allowed)].join(', ') });
    }
    return c.json(envelopeBody(c, 'not found'), 404);
  });

  app.onError((error, c) => {
    if (!(error instanceof AppError)) {
      deps.logger.error({ err: error, method: c.req.method, path: c.req.path }, 'unexpected error in API request');
    }
    return errorResponse(c, error, envelopeOf(c.req.path));
  });

  return { app, openApiDocument };
}

function envelopeBody(c: Context, message: string) {
  return envelopeOf(c.req.path) === 'v1' ? { status: message } : { message };
}

function generateDocument(registry: OpenAPIRegistry): object {
  registry.registerComponent('securitySchemes', 'BearerAuth', { type: 'http', scheme: 'bearer', description: 'aha-sk-... API key' });
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
