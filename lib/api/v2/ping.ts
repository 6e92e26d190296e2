import { ping } from '@/lib/core/system/ping';
import type { Endpoint } from '../endpoint';
import { successResponseSchema } from '../schemas';

export const pingEndpoints: Endpoint[] = [
  { method: 'get', path: '/v2/ping', verb: ping, status: 200, summary: 'Ping', tags: ['Utility'], response: successResponseSchema },
];
