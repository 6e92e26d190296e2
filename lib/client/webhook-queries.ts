'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import { deliveryKeys } from './delivery-queries';
import { callEndpoint, type RequestOf } from './endpoints';

const COLLECTION = '/v2/accounts/{account_id}/webhooks';
const ITEM = '/v2/accounts/{account_id}/webhooks/{webhook_id}';

/** What create sends (the contract's fields); update sends only what changed. */
export type WebhookInput = RequestOf<`POST ${typeof COLLECTION}`>;

export function useWebhooks(accountId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['webhooks', accountId],
    queryFn: () => callEndpoint(`GET ${COLLECTION}`, { account_id: accountId }, { query: 'limit=100' }),
    refetchInterval: 30_000,
    ...options,
  });
}

export function useWebhook(accountId: string, webhookId: string) {
  return useQuery({
    queryKey: ['webhook', accountId, webhookId],
    queryFn: () => callEndpoint(`GET ${ITEM}`, { account_id: accountId, webhook_id: webhookId }),
    refetchInterval: 15_000,
  });
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
  return useWebhookMutation(accountId, (body: WebhookInput) =>
    callEndpoint(`POST ${COLLECTION}`, { account_id: accountId }, { body }),
  );
}

export function useUpdateWebhook(accountId: string) {
  return useWebhookMutation(accountId, ({ id, ...body }: RequestOf<`PUT ${typeof ITEM}`> & { id: string }) =>
    callEndpoint(`PUT ${ITEM}`, { account_id: accountId, webhook_id: id }, { body }),
  );
}

export function useDeleteWebhook(accountId: string) {
  return useWebhookMutation(accountId, (id: string) =>
    callEndpoint(`DELETE ${ITEM}`, { account_id: accountId, webhook_id: id }),
  );
}

export type WebhookEventType = RequestOf<`POST ${typeof ITEM}/trigger`>['events'][number];

/** Sample events of the given types, sent to the webhook now (the CLI's `webhooks trigger`). */
export function useTriggerWebhook(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, events }: { id: string; events: WebhookEventType[] }) =>
      callEndpoint(`POST ${ITEM}/trigger`, { account_id: accountId, webhook_id: id }, { body: { events } }),
    onSuccess: (_result, { id }) =>
      void client.invalidateQueries({ queryKey: deliveryKeys.list(accountId, { kind: 'webhook', id }) }),
  });
}
