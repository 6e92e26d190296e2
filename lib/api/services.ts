import type { Hono } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { Principal } from '@/lib/auth/principal';
import type { Services } from '@/lib/core/context';
import type { RateLimiter } from './rate-limiter';
import type { SessionSettings } from './session';

export type ApiDeps = Services & { rateLimiter: RateLimiter; session: SessionSettings };

export type ApiEnv = { Bindings: HttpBindings; Variables: { principal: Principal } };

export type ApiApp = Hono<ApiEnv>;
