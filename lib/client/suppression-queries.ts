'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import { callEndpoint, type RequestOf } from './endpoints';
import type { SuppressionObject } from './types';

const COLLECTION = '/v2/accounts/{account_id}/suppressions';

export type SuppressionInput = RequestOf<`POST ${typeof COLLECTION}`>;

const KIND_SCAN_PAGES = 20;

/**
 * `query` carries the list's filters and cursor (`email`, `domain`, `after`, `before`, `limit`).
 * The API has no filter by reason, so with `kind` the list is paged forward here until a page's worth
 * of matches is found (at most 20 pages at a time); the cursor then continues after the last page read.
 */
export function useSuppressions(accountId: string, query: string, kind: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['suppressions', accountId, query, kind],
    queryFn: async () => {
      if (!kind) return callEndpoint(`GET ${COLLECTION}`, { account_id: accountId }, { query });
      const params = new URLSearchParams(query);
      const wanted = Number(params.get('limit') ?? 50);
      params.set('limit', '100');
      params.delete('before');
      const found: SuppressionObject[] = [];
      for (let page = 0; page < KIND_SCAN_PAGES; page++) {
        const list = await callEndpoint(`GET ${COLLECTION}`, { account_id: accountId }, { query: params });
        found.push(...list.data.filter((suppression) => suppression.kind === kind));
        if (!list.pagination.has_more || !list.pagination.next_cursor)
          return { object: 'list' as const, data: found, pagination: { has_more: false } };
        params.set('after', list.pagination.next_cursor);
        if (found.length >= wanted) break;
      }
      return {
        object: 'list' as const,
        data: found,
        pagination: { has_more: true, next_cursor: params.get('after') ?? undefined },
      };
    },
    ...options,
  });
}

function useSuppressionMutation<TInput, TResult>(accountId: string, request: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () => client.invalidateQueries({ queryKey: ['suppressions', accountId] }),
  });
}

export function useCreateSuppression(accountId: string) {
  return useSuppressionMutation(accountId, (body: SuppressionInput) =>
    callEndpoint(`POST ${COLLECTION}`, { account_id: accountId }, { body }),
  );
}

/** Removes an address's suppression: for one domain, or (without `domain`) every one it has. */
export function useDeleteSuppression(accountId: string) {
  return useSuppressionMutation(accountId, ({ email, domain }: { email: string; domain?: string | null }) => {
    const query = new URLSearchParams({ email, ...(domain ? { domain } : {}) });
    return callEndpoint(`DELETE ${COLLECTION}`, { account_id: accountId }, { query });
  });
}

export function useWipeSuppressions(accountId: string) {
  return useSuppressionMutation(accountId, ({ domain }: { domain?: string }) =>
    callEndpoint(
      `DELETE ${COLLECTION}/all`,
      { account_id: accountId },
      { query: domain ? new URLSearchParams({ domain }) : undefined },
    ),
  );
}

/** What a wipe leaves in place: entries the operator protected, and complaints (a person said no). */
export const KINDS_KEPT_BY_WIPE: readonly SuppressionObject['kind'][] = ['protected', 'complaint'];
const TALLY_PAGES = 50;

/**
 * How many suppressions a wipe would remove and how many it keeps, counted by paging the list (there
 * is no count endpoint). Stops after 5,000 entries and says so.
 */
export function useSuppressionTally(accountId: string, domain: string, options: { enabled: boolean }) {
  return useQuery({
    queryKey: ['suppressions', accountId, 'tally', domain],
    queryFn: async () => {
      const tally = { removed: 0, kept: 0, isComplete: true };
      let after: string | undefined;
      for (let page = 0; page < TALLY_PAGES; page++) {
        const query = new URLSearchParams({ limit: '100', ...(domain ? { domain } : {}), ...(after ? { after } : {}) });
        const list = await callEndpoint(`GET ${COLLECTION}`, { account_id: accountId }, { query });
        for (const suppression of list.data)
          tally[KINDS_KEPT_BY_WIPE.includes(suppression.kind) ? 'kept' : 'removed'] += 1;
        after = list.pagination.has_more ? list.pagination.next_cursor : undefined;
        if (!after) return tally;
      }
      return { ...tally, isComplete: false };
    },
    staleTime: 0,
    ...options,
  });
}
