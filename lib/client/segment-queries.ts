'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SegmentFilter } from '@/lib/core/segments/schemas';
import { useQuery } from './use-query';
import { callEndpoint, type ResponseOf } from './endpoints';

const COLLECTION = '/v2/accounts/{account_id}/segments';
const ITEM = '/v2/accounts/{account_id}/segments/{segment_id}';
const CONTACTS = '/v2/accounts/{account_id}/segments/{segment_id}/contacts';
const PREVIEW = '/v2/accounts/{account_id}/segments/preview';

export type SegmentObject = ResponseOf<`GET ${typeof ITEM}`>;
export type SegmentPreview = ResponseOf<`POST ${typeof PREVIEW}`>;

export function useSegments(accountId: string, query = 'limit=100', options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['segments', accountId, query],
    queryFn: () => callEndpoint(`GET ${COLLECTION}`, { account_id: accountId }, { query }),
    ...options,
  });
}

export function useSegment(accountId: string, segmentId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['segment', accountId, segmentId],
    queryFn: () => callEndpoint(`GET ${ITEM}`, { account_id: accountId, segment_id: segmentId }),
    ...options,
  });
}

export function useSegmentContacts(accountId: string, segmentId: string, query: string) {
  return useQuery({
    queryKey: ['segment-contacts', accountId, segmentId, query],
    queryFn: () => callEndpoint(`GET ${CONTACTS}`, { account_id: accountId, segment_id: segmentId }, { query }),
  });
}

/** The builder's live count and first contacts; callers debounce the filter, the key caches each one. */
export function useSegmentPreview(accountId: string, filter: SegmentFilter | null) {
  const key = JSON.stringify(filter);
  return useQuery({
    queryKey: ['segment-preview', accountId, key],
    queryFn: () =>
      callEndpoint(`POST ${PREVIEW}`, { account_id: accountId }, { body: { filter: filter as SegmentFilter } }),
    enabled: filter !== null,
    placeholderData: (previous) => previous,
    retry: false,
  });
}

function useSegmentMutation<TInput, TResult>(accountId: string, request: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () => {
      for (const key of ['segments', 'segment', 'segment-contacts'])
        void client.invalidateQueries({ queryKey: [key, accountId] });
    },
  });
}

export function useSaveSegment(accountId: string) {
  return useSegmentMutation(
    accountId,
    ({ id, name, filter }: { id: string | null; name: string; filter: SegmentFilter }) =>
      id
        ? callEndpoint(`PUT ${ITEM}`, { account_id: accountId, segment_id: id }, { body: { name, filter } })
        : callEndpoint(`POST ${COLLECTION}`, { account_id: accountId }, { body: { name, filter } }),
  );
}

export function useDeleteSegment(accountId: string) {
  return useSegmentMutation(accountId, (id: string) =>
    callEndpoint(`DELETE ${ITEM}`, { account_id: accountId, segment_id: id }),
  );
}
