'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import { apiRequest } from './api';
import type { ListEnvelope, WebhookDelivery, WebhookDeliveryDetail } from './types';

/** Whose delivery log: a webhook's (events) or a route's (inbound mail). Both go through one outbox. */
export type DeliveryTarget = { kind: 'webhook' | 'route'; id: string };

const deliveriesPath = (accountId: string, target: DeliveryTarget) =>
  `/internal/accounts/${accountId}/${target.kind}s/${target.id}/deliveries`;

export const deliveryKeys = {
  list: (accountId: string, target: DeliveryTarget) => ['deliveries', accountId, target.kind, target.id] as const,
  one: (accountId: string, target: DeliveryTarget) => ['delivery', accountId, target.kind, target.id] as const,
};

export function useDeliveries(
  accountId: string,
  target: DeliveryTarget,
  cursor: string | null,
  options: { refetchInterval?: number } = {},
) {
  const query = new URLSearchParams({ limit: '25', ...(cursor ? { after: cursor } : {}) });
  return useQuery({
    queryKey: [...deliveryKeys.list(accountId, target), cursor],
    queryFn: () => apiRequest<ListEnvelope<WebhookDelivery>>(`${deliveriesPath(accountId, target)}?${query}`),
    ...options,
  });
}

export function useDelivery(accountId: string, target: DeliveryTarget, deliveryId: string | null) {
  return useQuery({
    queryKey: [...deliveryKeys.one(accountId, target), deliveryId],
    queryFn: () => apiRequest<WebhookDeliveryDetail>(`${deliveriesPath(accountId, target)}/${deliveryId}`),
    enabled: deliveryId !== null,
    refetchInterval: (query) =>
      query.state.data && ['pending', 'retrying'].includes(query.state.data.status) ? 3000 : false,
  });
}

/** "Send again"; the webhook's or route's own query is refreshed too (its counters move). */
export function useResendDelivery(accountId: string, target: DeliveryTarget) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      apiRequest<{ message: string }>(`${deliveriesPath(accountId, target)}/${deliveryId}/resend`, { method: 'POST' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: deliveryKeys.list(accountId, target) });
      void client.invalidateQueries({ queryKey: deliveryKeys.one(accountId, target) });
      void client.invalidateQueries({ queryKey: [target.kind, accountId, target.id] });
    },
  });
}
