'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { triggerWebhookResponseSchema } from '@/lib/core/webhooks/schemas';
import { apiRequest } from './api';
import { deliveryKeys } from './delivery-queries';
import type { ListEnvelope, WebhookObject } from './types';

const webhookPath = (accountId: string, webhookId?: string) => `/v2/accounts/${accountId}/webhooks${webhookId ? `/${webhookId}` : ''}`;

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
    onSuccess: (_result, { id }) => void client.invalidateQueries({ queryKey: deliveryKeys.list(accountId, { kind: 'webhook', id }) }),
  });
}
