'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { createSubAccountSchema, subAccountSchema, subAccountUsageSchema } from '@/lib/core/sub-accounts/schemas';
import type { SubAccountUsageHistory } from '@/lib/core/sub-accounts/get-sub-account-usage-history';
import { apiRequest } from './api';
import { queryKeys } from './queries';

export type { SubAccountUsageHistory };

export type SubAccountObject = z.output<typeof subAccountSchema>;
export type SubAccountUsage = z.output<typeof subAccountUsageSchema>;
export type CreateSubAccountInput = z.input<typeof createSubAccountSchema>;

type Page<T> = { object: 'list'; data: T[]; pagination: { has_more: boolean; next_cursor?: string } };

const subAccountsPath = (accountId: string, suffix = '') => `/v2/accounts/${accountId}/sub-accounts${suffix}`;
const keys = {
  list: (accountId: string) => ['sub-accounts', accountId],
  usage: (accountId: string) => ['sub-accounts-usage', accountId],
  one: (accountId: string, subId?: string) => (subId ? ['sub-account', accountId, subId] : ['sub-account', accountId]),
};

/** Every page: a partner's sub accounts fit in a few pages of 100. */
export function useSubAccounts(accountId: string) {
  return useQuery({
    queryKey: keys.list(accountId),
    queryFn: async () => {
      const all: SubAccountObject[] = [];
      let after: string | undefined;
      do {
        const page: Page<SubAccountObject> = await apiRequest(`${subAccountsPath(accountId)}?limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`);
        all.push(...page.data);
        after = page.pagination.has_more ? page.pagination.next_cursor : undefined;
      } while (after);
      return all;
    },
  });
}

export function useSubAccount(accountId: string, subId: string) {
  return useQuery({ queryKey: keys.one(accountId, subId), queryFn: () => apiRequest<SubAccountObject>(subAccountsPath(accountId, `/${subId}`)) });
}

/** Twelve UTC months of a sub account's usage, the current one last (an /internal extension). */
export function useSubAccountUsageHistory(accountId: string, subId: string, options: { enabled: boolean }) {
  return useQuery({
    queryKey: [...keys.one(accountId, subId), 'usage-history'],
    queryFn: () => apiRequest<SubAccountUsageHistory>(`/internal/accounts/${accountId}/sub-accounts/${subId}/usage-history?months=12`),
    enabled: options.enabled,
  });
}

export function useSubAccountsUsage(accountId: string, options: { enabled: boolean }) {
  return useQuery({ queryKey: keys.usage(accountId), queryFn: () => apiRequest<SubAccountUsage>(subAccountsPath(accountId, '/usage')), enabled: options.enabled });
}

/** A change to one sub account can change the list and the usage (a delete moves it to "removed"). */
function useSubAccountMutation<Input, Result>(accountId: string, mutationFn: (input: Input) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.list(accountId) });
      void client.invalidateQueries({ queryKey: keys.usage(accountId) });
      void client.invalidateQueries({ queryKey: keys.one(accountId) });
      // A suspended or deleted sub account changes what the switcher offers.
      void client.invalidateQueries({ queryKey: queryKeys.me });
    },
  });
}

export function useCreateSubAccount(accountId: string) {
  return useSubAccountMutation(accountId, (body: CreateSubAccountInput) => apiRequest<SubAccountObject>(subAccountsPath(accountId), { method: 'POST', body }));
}

export function useSuspendSubAccount(accountId: string) {
  return useSubAccountMutation(accountId, ({ id, reason }: { id: string; reason: string }) => apiRequest<SubAccountObject>(subAccountsPath(accountId, `/${id}/suspend`), { method: 'POST', body: { reason } }));
}

export function useUnsuspendSubAccount(accountId: string) {
  return useSubAccountMutation(accountId, (id: string) => apiRequest<SubAccountObject>(subAccountsPath(accountId, `/${id}/unsuspend`), { method: 'POST' }));
}

export function useDeleteSubAccount(accountId: string) {
  return useSubAccountMutation(accountId, (id: string) => apiRequest<{ message: string }>(subAccountsPath(accountId, `/${id}`), { method: 'DELETE' }));
}
