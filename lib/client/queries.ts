'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './api';
import type { AccountObject, ApiKeyObject, CurrentUser, ListEnvelope } from './types';

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

export function useApiKeys(accountId: string) {
  return useQuery({
    queryKey: queryKeys.apiKeys(accountId),
    queryFn: () => apiRequest<ListEnvelope<ApiKeyObject>>(`/v2/accounts/${accountId}/api-keys?limit=100`),
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
