'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './api';
import type { AccountObject, AccountOverview, ApiKeyObject, CurrentUser, DomainObject, ListEnvelope, MessageDetails, MessageObject } from './types';

export const queryKeys = {
  me: ['me'] as const,
  account: (accountId: string) => ['account', accountId] as const,
  apiKeys: (accountId: string) => ['api-keys', accountId] as const,
};

export function useCurrentUser() {
  return useQuery({ queryKey: queryKeys.me, queryFn: () => apiRequest<CurrentUser>('/internal/me') });
}

export function useAccount(accountId: string) {
  return useQuery({ queryKey: queryKeys.account(accountId), queryFn: () => apiRequest<AccountObject>(`/v2/accounts/${accountId}`) });
}

export function useUpdateAccount(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<AccountObject>) => apiRequest<AccountObject>(`/v2/accounts/${accountId}`, { method: 'PUT', body }),
    onSuccess: (account) => {
      client.setQueryData(queryKeys.account(accountId), account);
      void client.invalidateQueries({ queryKey: queryKeys.me });
    },
  });
}

export function useApiKeys(accountId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.apiKeys(accountId),
    queryFn: () => apiRequest<ListEnvelope<ApiKeyObject>>(`/v2/accounts/${accountId}/api-keys?limit=100`),
    ...options,
  });
}

type ApiKeyInput = { label: string; scopes: string[]; ip_allow_list: string[] };

export function useCreateApiKey(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiKeyInput) => apiRequest<ApiKeyObject & { secret_key: string }>(`/v2/accounts/${accountId}/api-keys`, { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys(accountId) }),
  });
}

export function useUpdateApiKey(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: Partial<ApiKeyInput> & { id: string }) =>
      apiRequest<ApiKeyObject>(`/v2/accounts/${accountId}/api-keys/${id}`, { method: 'PUT', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys(accountId) }),
  });
}

export function useDeleteApiKey(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<{ message: string }>(`/v2/accounts/${accountId}/api-keys/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys(accountId) }),
  });
}

const domainPath = (accountId: string, name?: string) => `/v2/accounts/${accountId}/domains${name ? `/${encodeURIComponent(name)}` : ''}`;

export function useDomains(accountId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: ['domains', accountId], queryFn: () => apiRequest<ListEnvelope<DomainObject>>(`${domainPath(accountId)}?limit=100`), ...options });
}

export function useDomain(accountId: string, name: string) {
  return useQuery({ queryKey: ['domain', accountId, name], queryFn: () => apiRequest<DomainObject>(domainPath(accountId, name)) });
}

function useDomainMutation<TInput>(accountId: string, request: (input: TInput) => Promise<DomainObject>) {
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
  return useDomainMutation(accountId, (body: { domain: string; sending_type?: string }) => apiRequest<DomainObject>(domainPath(accountId), { method: 'POST', body }));
}

export function useUpdateDomain(accountId: string, name: string) {
  return useDomainMutation(accountId, (body: Record<string, unknown>) => apiRequest<DomainObject>(domainPath(accountId, name), { method: 'PUT', body }));
}

export function useCheckDomainDns(accountId: string, name: string) {
  return useDomainMutation(accountId, () => apiRequest<DomainObject>(`${domainPath(accountId, name)}/check-dns`, { method: 'POST' }));
}

export function useRotateDkim(accountId: string, name: string) {
  return useDomainMutation(accountId, () => apiRequest<DomainObject>(`${domainPath(accountId, name)}/rotate-dkim`, { method: 'POST' }));
}

export function useDeleteDomain(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiRequest<{ message: string }>(domainPath(accountId, name), { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['domains', accountId] }),
  });
}

export function useSetApiKeySandbox(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, sandbox }: { id: string; sandbox: boolean }) =>
      apiRequest<ApiKeyObject>(`/internal/accounts/${accountId}/api-keys/${id}/sandbox`, { method: 'PUT', body: { sandbox } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys(accountId) }),
  });
}

export function useMessages(accountId: string, query: string, options: { refetchInterval?: number; enabled?: boolean } = {}) {
  return useQuery({ queryKey: ['messages', accountId, query], queryFn: () => apiRequest<ListEnvelope<MessageObject>>(`/v2/accounts/${accountId}/messages?${query}`), ...options });
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
    queryFn: () => apiRequest<AccountOverview>(`/internal/accounts/${accountId}/overview?today_from=${encodeURIComponent(localMidnight())}`),
    refetchInterval: 30_000,
    ...options,
  });
}

const messagePath = (accountId: string, messageId: string) => `/v2/accounts/${accountId}/messages/${encodeURIComponent(messageId)}`;

export function useMessageDetails(accountId: string, messageId: string) {
  return useQuery({
    queryKey: ['message-details', accountId, messageId],
    queryFn: () => apiRequest<MessageDetails>(`/internal/accounts/${accountId}/messages/${encodeURIComponent(messageId)}/details`),
  });
}

export function useCancelMessage(accountId: string, messageId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<{ message: string }>(`${messagePath(accountId, messageId)}/cancel`, { method: 'DELETE' }),
    onSettled: () => {
      for (const key of ['message', 'message-details', 'message-events']) void client.invalidateQueries({ queryKey: [key, accountId, messageId] });
      void client.invalidateQueries({ queryKey: ['messages', accountId] });
    },
  });
}

export function useMessage(accountId: string, messageId: string) {
  return useQuery({ queryKey: ['message', accountId, messageId], queryFn: () => apiRequest<MessageObject>(messagePath(accountId, messageId)) });
}

export function useMessageEvents(accountId: string, messageId: string) {
  return useQuery({
    queryKey: ['message-events', accountId, messageId],
    queryFn: () => apiRequest<ListEnvelope<{ id: string; type: string; created_at: string; payload: Record<string, unknown> }>>(`/internal/accounts/${accountId}/messages/${encodeURIComponent(messageId)}/events`),
  });
}

export function useUnpauseDomain(accountId: string, name: string) {
  return useDomainMutation(accountId, () => apiRequest<DomainObject>(`${domainPath(accountId, name)}/unpause`, { method: 'POST' }));
}

export type V1KeyObject = { id: string; label: string; hint: string; last_used_at: string | null; created_at: string };

export function useV1Keys(accountId: string) {
  return useQuery({ queryKey: ['v1-keys', accountId], queryFn: () => apiRequest<ListEnvelope<V1KeyObject>>(`/internal/accounts/${accountId}/v1-keys`) });
}

export function useCreateV1Key(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (label: string) => apiRequest<V1KeyObject & { key: string }>(`/internal/accounts/${accountId}/v1-keys`, { method: 'POST', body: { label } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['v1-keys', accountId] }),
  });
}

export function useDeleteV1Key(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<{ message: string }>(`/internal/accounts/${accountId}/v1-keys/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['v1-keys', accountId] }),
  });
}
