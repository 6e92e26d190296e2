'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import type { SubAccountUsageHistory } from '@/lib/core/sub-accounts/get-sub-account-usage-history';
import { apiRequest } from './api';
import { callEndpoint, type RequestOf, type ResponseOf } from './endpoints';
import { queryKeys } from './queries';

export type { SubAccountUsageHistory };

const COLLECTION = '/v2/accounts/{account_id}/sub-accounts';
const ITEM = '/v2/accounts/{account_id}/sub-accounts/{sub_account_id}';

export type SubAccountObject = ResponseOf<`GET ${typeof ITEM}`>;
export type SubAccountUsage = ResponseOf<`GET ${typeof COLLECTION}/usage`>;
export type CreateSubAccountInput = RequestOf<`POST ${typeof COLLECTION}`>;
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
        const page = await callEndpoint(
          `GET ${COLLECTION}`,
          { account_id: accountId },
          { query: new URLSearchParams({ limit: '100', ...(after ? { after } : {}) }) },
        );
        all.push(...page.data);
        after = page.pagination.has_more ? page.pagination.next_cursor : undefined;
      } while (after);
      return all;
    },
  });
}

export function useSubAccount(accountId: string, subId: string) {
  return useQuery({
    queryKey: keys.one(accountId, subId),
    queryFn: () => callEndpoint(`GET ${ITEM}`, { account_id: accountId, sub_account_id: subId }),
  });
}

/** Twelve UTC months of a sub account's usage, the current one last (an /internal extension). */
export function useSubAccountUsageHistory(accountId: string, subId: string, options: { enabled: boolean }) {
  return useQuery({
    queryKey: [...keys.one(accountId, subId), 'usage-history'],
    queryFn: () =>
      apiRequest<SubAccountUsageHistory>(
        `/internal/accounts/${accountId}/sub-accounts/${subId}/usage-history?months=12`,
      ),
    enabled: options.enabled,
  });
}

export function useSubAccountsUsage(accountId: string, options: { enabled: boolean }) {
  return useQuery({
    queryKey: keys.usage(accountId),
    queryFn: () => callEndpoint(`GET ${COLLECTION}/usage`, { account_id: accountId }),
    enabled: options.enabled,
  });
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
  return useSubAccountMutation(accountId, (body: CreateSubAccountInput) =>
    callEndpoint(`POST ${COLLECTION}`, { account_id: accountId }, { body }),
  );
}

export function useSuspendSubAccount(accountId: string) {
  return useSubAccountMutation(accountId, ({ id, reason }: { id: string; reason: string }) =>
    callEndpoint(`POST ${ITEM}/suspend`, { account_id: accountId, sub_account_id: id }, { body: { reason } }),
  );
}

export function useUnsuspendSubAccount(accountId: string) {
  return useSubAccountMutation(accountId, (id: string) =>
    callEndpoint(`POST ${ITEM}/unsuspend`, { account_id: accountId, sub_account_id: id }),
  );
}

export function useDeleteSubAccount(accountId: string) {
  return useSubAccountMutation(accountId, (id: string) =>
    callEndpoint(`DELETE ${ITEM}`, { account_id: accountId, sub_account_id: id }),
  );
}
