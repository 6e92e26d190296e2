import { getBounceStatistics } from '@/lib/core/statistics/get-bounce-statistics';
import { getDeliverabilityStatistics } from '@/lib/core/statistics/get-deliverability-statistics';
import { getDeliveryTimeStatistics } from '@/lib/core/statistics/get-delivery-time-statistics';
import { getProviderStatistics } from '@/lib/core/statistics/get-provider-statistics';
import {
  bounceStatisticsResponseSchema,
  deliverabilityStatisticsResponseSchema,
  deliveryTimeStatisticsResponseSchema,
  providerStatisticsResponseSchema,
  statisticsQuerySchema,
} from '@/lib/core/statistics/schemas';
import type { Endpoint } from '../endpoint';

// Rate limited separately: 1 request per second, burst 1, per account (lib/api/middleware/rate-limit.ts).
const reports = '/v2/accounts/{account_id}/statistics/transactional' as const;
const tags = ['Statistics'];
const query = statisticsQuerySchema;

export const statisticsEndpoints = [
  {
    method: 'get',
    path: `${reports}/deliverability` as const,
    verb: getDeliverabilityStatistics,
    status: 200,
    summary: 'Deliverability statistics: outcomes per time bucket',
    tags,
    query,
    response: deliverabilityStatisticsResponseSchema,
    input: ({ query }) => query,
  },
  {
    method: 'get',
    path: `${reports}/bounce` as const,
    verb: getBounceStatistics,
    status: 200,
    summary: 'Bounce statistics: bounces per classification and time bucket',
    tags,
    query,
    response: bounceStatisticsResponseSchema,
    input: ({ query }) => query,
  },
  {
    method: 'get',
    path: `${reports}/delivery-time` as const,
    verb: getDeliveryTimeStatistics,
    status: 200,
    summary: 'Delivery time statistics: average delivery time per time bucket and recipient domain',
    tags,
    query,
    response: deliveryTimeStatisticsResponseSchema,
    input: ({ query }) => query,
  },
  {
    method: 'get',
    path: `${reports}/providers` as const,
    verb: getProviderStatistics,
    status: 200,
    summary: 'Mailbox provider statistics: outcomes, opens and delivery time per provider',
    description:
      'Mailstead extension: the whole window per mailbox provider (gmail, microsoft, yahoo, apple, other), each recipient domain placed by its MX hosts as delivery last resolved them. Accepts the same query as the other reports.',
    isExtension: true,
    tags,
    query,
    response: providerStatisticsResponseSchema,
    input: ({ query }) => query,
  },
] satisfies Endpoint[];
