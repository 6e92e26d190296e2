'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { triggerWebhookResponseSchema } from '@/lib/core/webhooks/schemas';
import { apiRequest } from './api';
import type { ListEnvelope, WebhookDelivery, WebhookDeliveryDetail, WebhookObject } from './types';

const webhookPath = (accountId: string, webhookId?: string) => `/v2/accounts/${accountId}/webhooks${webhookId ? `/${webhookId}` : ''}`;
const deliveriesPath = (accountId: string, webhookId: string) => `/internal/accounts/${accountId}/webhooks/${webhookId}/deliveries`;

/** What create and update send: the contract's fields (update sends only what changed). */
export type WebhookInput = Partial<Omit<WebhookObject, 'object' | 'id' | 'created_at' | 'updated_at' | 'success_count' | 'error_count' | 'errors_since_last_success' | 'last_request_at' | 'disabled_reason' | 'disabled_at'>>;

export function useWebhooks(accountId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: ['webhooks', accountId], queryFn: () => apiRequest<ListEnvelope<WebhookObject>>(`${webhookPath(accountId)}?limit=100`), refetchInterval: 30_000, ...options });
}

export function useWebhook(accountId: string, webhookId: string) {
  return useQuery({ queryKey: ['webhook', accountId, webhookId], queryFn: () => apiRequest<WebhookObject>(webhookPath(accountId, webhookId)), refetchInterval: 15_000 });
}

function useWebhookMutation<TInput, TResult>(accountId: string, request: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['webhooks', accountId] });
      void client.invalidateQueries({ queryKey: ['webhook', accountId] });
    },
  });
}

export function useCreateWebhook(accountId: string) {
  return useWebhookMutation(accountId, (body: WebhookInput) => apiRequest<WebhookObject & { secret: string }>(webhookPath(accountId), { method: 'POST', body }));
}

export function useUpdateWebhook(accountId: string) {
  return useWebhookMutation(accountId, ({ id, ...body }: WebhookInput & { id: string }) => apiRequest<WebhookObject>(webhookPath(accountId, id), { method: 'PUT', body }));
}

export function useDeleteWebhook(accountId: string) {
  return useWebhookMutation(accountId, (id: string) => apiRequest<{ message: string }>(webhookPath(accountId, id), { method: 'DELETE' }));
}

/** Sample events of the given types, sent to the webhook now (the CLI's `webhooks trigger`). */
export function useTriggerWebhook(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, events }: { id: string; events: string[] }) => apiRequest<z.infer<typeof triggerWebhookResponseSchema>>(`${webhookPath(accountId, id)}/trigger`, { method: 'POST', body: { events } }),
    onSuccess: (_result, { id }) => void client.invalidateQueries({ queryKey: ['webhook-deliveries', accountId, id] }),
  });
}

export function useWebhookDeliveries(accountId: string, webhookId: string, cursor: string | null, options: { refetchInterval?: number } = {}) {
  const query = new URLSearchParams({ limit: '25', ...(cursor ? { after: cursor } : {}) });
  return useQuery({
    queryKey: ['webhook-deliveries', accountId, webhookId, cursor],
    queryFn: () => apiRequest<ListEnvelope<WebhookDelivery>>(`${deliveriesPath(accountId, webhookId)}?${query}`),
    ...options,
  });
}

export function useWebhookDelivery(accountId: string, webhookId: string, deliveryId: string | null) {
  return useQuery({
    queryKey: ['webhook-delivery', accountId, webhookId, deliveryId],
    queryFn: () => apiRequest<WebhookDeliveryDetail>(`${deliveriesPath(accountId, webhookId)}/${deliveryId}`),
    enabled: deliveryId !== null,
    refetchInterval: (query) => (query.state.data && ['pending', 'retrying'].includes(query.state.data.status) ? 3000 : false),
  });
}

export function useResendWebhookDelivery(accountId: string, webhookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => apiRequest<{ message: string }>(`${deliveriesPath(accountId, webhookId)}/${deliveryId}/resend`, { method: 'POST' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['webhook-deliveries', accountId, webhookId] });
      void client.invalidateQueries({ queryKey: ['webhook-delivery', accountId, webhookId] });
      void client.invalidateQueries({ queryKey: ['webhook', accountId, webhookId] });
    },
  });
}
