'use client';

import { useQuery } from './use-query';
import { ApiError, apiRequest } from './api';
import type {
  BounceBucket,
  DeliverabilitySettings,
  DeliverabilityBucket,
  DeliveryTimeBucket,
  PlainList,
  ProviderPacing,
  ProviderStatistics,
} from './types';

const REPORTS = {
  deliverability: 'deliverability',
  bounce: 'bounce',
  'delivery-time': 'delivery-time',
  providers: 'providers',
} as const;
type Report = keyof typeof REPORTS;
type BucketOf<R extends Report> = R extends 'deliverability'
  ? DeliverabilityBucket
  : R extends 'bounce'
    ? BounceBucket
    : R extends 'providers'
      ? ProviderStatistics
      : DeliveryTimeBucket;

/**
 * Statistics have a tight rate limit of their own: a 429 is worth a second try a moment later, every
 * other refusal is final (as everywhere in the dashboard).
 */
const retryRateLimited = (failures: number, error: Error) =>
  (error instanceof ApiError ? error.status === 429 || error.status >= 500 : true) && failures < 3;

/** One of the three transactional reports, through the same /v2 endpoint API keys use. */
export function useStatisticsReport<R extends Report>(
  accountId: string,
  report: R,
  query: string,
  options: { enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: ['statistics', accountId, report, query],
    queryFn: () =>
      apiRequest<PlainList<BucketOf<R>>>(
        `/v2/accounts/${accountId}/statistics/transactional/${REPORTS[report]}?${query}`,
      ),
    retry: retryRateLimited,
    retryDelay: (attempt) => 1100 * (attempt + 1),
    refetchInterval: 60_000,
    ...options,
  });
}

export function useDeliverabilitySettings(accountId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['deliverability-settings', accountId],
    queryFn: () => apiRequest<DeliverabilitySettings>(`/internal/accounts/${accountId}/deliverability-settings`),
    staleTime: 5 * 60_000,
    ...options,
  });
}

/** How fast mail goes to each mailbox provider now (provider pacing); refreshed every 15 s. */
export function useProviderPacing(accountId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['provider-pacing', accountId],
    queryFn: () => apiRequest<PlainList<ProviderPacing>>(`/v2/accounts/${accountId}/deliverability/pacing`),
    refetchInterval: 15_000,
    ...options,
  });
}
