import type { Hono } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { Logger } from 'pino';
import type { Principal } from '@/lib/auth/principal';
import type { Services } from '@/lib/core/context';
import type { RateLimiter } from './rate-limiter';
import type { SessionSettings } from './session';

export type ApiDeps = Services & { rateLimiter: RateLimiter; session: SessionSettings };

/** Per request: the caller, the request id (also in `X-Request-Id`) and a logger that stamps it on every line. */
export type ApiEnv = { Bindings: HttpBindings; Variables: { principal: Principal; requestId: string; logger: Logger } };

export type ApiApp = Hono<ApiEnv>;
