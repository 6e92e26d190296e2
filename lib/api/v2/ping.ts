import { ping } from '@/lib/core/system/ping';
import type { Endpoint } from '../endpoint';
import { successResponseSchema } from '../schemas';

export const pingEndpoints = [
  {
    method: 'get',
    path: '/v2/ping' as const,
    verb: ping,
    status: 200,
    summary: 'Ping',
    tags: ['Utility'],
    response: successResponseSchema,
  },
] satisfies Endpoint[];
