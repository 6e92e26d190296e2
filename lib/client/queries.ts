'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import { apiRequest } from './api';
import { callEndpoint, type RequestOf, type ResponseOf } from './endpoints';
import type { AccountOverview, ApiKeyObject, CurrentUser, ListEnvelope, MessageDetails } from './types';

const ACCOUNT = '/v2/accounts/{account_id}';
const API_KEYS = '/v2/accounts/{account_id}/api-keys';
const API_KEY = '/v2/accounts/{account_id}/api-keys/{key_id}';
const DOMAINS = '/v2/accounts/{account_id}/domains';
const DOMAIN = '/v2/accounts/{account_id}/domains/{domain}';

export const queryKeys = {
  me: ['me'] as const,
  account: (accountId: string) => ['account', accountId] as const,
  apiKeys: (accountId: string) => ['api-keys', accountId] as const,
};

export function useCurrentUser() {
  return useQuery({ queryKey: queryKeys.me, queryFn: () => apiRequest<CurrentUser>('/internal/me') });
}

export function useAccount(accountId: string) {
  return useQuery({
    queryKey: queryKeys.account(accountId),
    queryFn: () => callEndpoint(`GET ${ACCOUNT}`, { account_id: accountId }),
  });
}

export function useUpdateAccount(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RequestOf<`PUT ${typeof ACCOUNT}`>) =>
      callEndpoint(`PUT ${ACCOUNT}`, { account_id: accountId }, { body }),
    onSuccess: (account) => {
      client.setQueryData(queryKeys.account(accountId), account);
      void client.invalidateQueries({ queryKey: queryKeys.me });
    },
  });
}

export function useApiKeys(accountId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.apiKeys(accountId),
    queryFn: () => callEndpoint(`GET ${API_KEYS}`, { account_id: accountId }, { query: 'limit=100' }),
    ...options,
  });
}

type ApiKeyInput = RequestOf<`POST ${typeof API_KEYS}`>;

export function useCreateApiKey(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiKeyInput) => callEndpoint(`POST ${API_KEYS}`, { account_id: accountId }, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys(accountId) }),
  });
}

export function useUpdateApiKey(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: RequestOf<`PUT ${typeof API_KEY}`> & { id: string }) =>
      callEndpoint(`PUT ${API_KEY}`, { account_id: accountId, key_id: id }, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys(accountId) }),
  });
}

export function useDeleteApiKey(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callEndpoint(`DELETE ${API_KEY}`, { account_id: accountId, key_id: id }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys(accountId) }),
  });
}

export function useDomains(accountId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['domains', accountId],
    queryFn: () => callEndpoint(`GET ${DOMAINS}`, { account_id: accountId }, { query: 'limit=100' }),
    ...options,
  });
}

export function useDomain(accountId: string, name: string) {
  return useQuery({
    queryKey: ['domain', accountId, name],
    queryFn: () => callEndpoint(`GET ${DOMAIN}`, { account_id: accountId, domain: name }),
  });
}

function useDomainMutation<TInput>(
  accountId: string,
  request: (input: TInput) => Promise<ResponseOf<`GET ${typeof DOMAIN}`>>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (domain) => {
      client.setQueryData(['domain', accountId, domain.domain], domain);
      void client.invalidateQueries({ queryKey: ['domains', accountId] });
    },
  });
}

export function useCreateDomain(accountId: string) {
  return useDomainMutation(accountId, (body: RequestOf<`POST ${typeof DOMAINS}`>) =>
    callEndpoint(`POST ${DOMAINS}`, { account_id: accountId }, { body }),
  );
}

export function useUpdateDomain(accountId: string, name: string) {
  return useDomainMutation(accountId, (body: RequestOf<`PUT ${typeof DOMAIN}`>) =>
    callEndpoint(`PUT ${DOMAIN}`, { account_id: accountId, domain: name }, { body }),
  );
}

export function useCheckDomainDns(accountId: string, name: string) {
  return useDomainMutation(accountId, () =>
    callEndpoint(`POST ${DOMAIN}/check-dns`, { account_id: accountId, domain: name }),
  );
}

export function useRotateDkim(accountId: string, name: string) {
  return useDomainMutation(accountId, () =>
    callEndpoint(`POST ${DOMAIN}/rotate-dkim`, { account_id: accountId, domain: name }),
  );
}

export function useDeleteDomain(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => callEndpoint(`DELETE ${DOMAIN}`, { account_id: accountId, domain: name }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['domains', accountId] }),
  });
}

export function useSetApiKeySandbox(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, sandbox }: { id: string; sandbox: boolean }) =>
      apiRequest<ApiKeyObject>(`/internal/accounts/${accountId}/api-keys/${id}/sandbox`, {
        method: 'PUT',
        body: { sandbox },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys(accountId) }),
  });
}

export function useMessages(
  accountId: string,
  query: string,
  options: { refetchInterval?: number; enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: ['messages', accountId, query],
    queryFn: () => callEndpoint('GET /v2/accounts/{account_id}/messages', { account_id: accountId }, { query }),
    ...options,
  });
}

/** The start of the viewer's day, so that "today" on the Overview is their today. */
function localMidnight(): string {
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  return midnight.toISOString();
}

export function useAccountOverview(accountId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['overview', accountId],
    queryFn: () =>
      apiRequest<AccountOverview>(
        `/internal/accounts/${accountId}/overview?today_from=${encodeURIComponent(localMidnight())}`,
      ),
    refetchInterval: 30_000,
    ...options,
  });
}

const MESSAGE = '/v2/accounts/{account_id}/messages/{message_id}';

export function useMessageDetails(accountId: string, messageId: string) {
  return useQuery({
    queryKey: ['message-details', accountId, messageId],
    queryFn: () =>
      apiRequest<MessageDetails>(`/internal/accounts/${accountId}/messages/${encodeURIComponent(messageId)}/details`),
  });
}

export function useCancelMessage(accountId: string, messageId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(`DELETE ${MESSAGE}/cancel`, { account_id: accountId, message_id: messageId }),
    onSettled: () => {
      for (const key of ['message', 'message-details', 'message-events'])
        void client.invalidateQueries({ queryKey: [key, accountId, messageId] });
      void client.invalidateQueries({ queryKey: ['messages', accountId] });
    },
  });
}

export function useMessage(accountId: string, messageId: string) {
  return useQuery({
    queryKey: ['message', accountId, messageId],
    queryFn: () => callEndpoint(`GET ${MESSAGE}`, { account_id: accountId, message_id: messageId }),
  });
}

export function useMessageEvents(accountId: string, messageId: string) {
  return useQuery({
    queryKey: ['message-events', accountId, messageId],
    queryFn: () =>
      apiRequest<ListEnvelope<{ id: string; type: string; created_at: string; payload: Record<string, unknown> }>>(
        `/internal/accounts/${accountId}/messages/${encodeURIComponent(messageId)}/events`,
      ),
  });
}

export function useUnpauseDomain(accountId: string, name: string) {
  return useDomainMutation(accountId, () =>
    callEndpoint(`POST ${DOMAIN}/unpause`, { account_id: accountId, domain: name }),
  );
}

export type V1KeyObject = { id: string; label: string; hint: string; last_used_at: string | null; created_at: string };

export function useV1Keys(accountId: string) {
  return useQuery({
    queryKey: ['v1-keys', accountId],
    queryFn: () => apiRequest<ListEnvelope<V1KeyObject>>(`/internal/accounts/${accountId}/v1-keys`),
  });
}

export function useCreateV1Key(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (label: string) =>
      apiRequest<V1KeyObject & { key: string }>(`/internal/accounts/${accountId}/v1-keys`, {
        method: 'POST',
        body: { label },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['v1-keys', accountId] }),
  });
}

export function useDeleteV1Key(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<{ message: string }>(`/internal/accounts/${accountId}/v1-keys/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['v1-keys', accountId] }),
  });
}

/** Today's warm-up of a domain: day of the plan, and per provider the limit, sent and held. */
export function useDomainWarmup(accountId: string, name: string) {
  return useQuery({
    queryKey: ['domain-warmup', accountId, name],
    queryFn: () => callEndpoint(`GET ${DOMAIN}/warmup`, { account_id: accountId, domain: name }),
    refetchInterval: 30_000,
  });
}

/** The measured Gmail/Yahoo rules of a domain (last 30 days), refreshed with the page. */
export function useDomainProviderChecklist(accountId: string, name: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['domain-provider-checklist', accountId, name],
    queryFn: () => callEndpoint(`GET ${DOMAIN}/provider-checklist`, { account_id: accountId, domain: name }),
    refetchInterval: 60_000,
    ...options,
  });
}
