'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './api';
import type { ContactListObject, ListEnvelope, MembershipObject, SubscriptionStatus } from './types';

export const listsPath = (accountId: string, listId?: string) => `/v2/accounts/${accountId}/lists${listId ? `/${listId}` : ''}`;
const membersPath = (accountId: string, listId: string, idOrEmail?: string) => `${listsPath(accountId, listId)}/members${idOrEmail ? `/${encodeURIComponent(idOrEmail)}` : ''}`;

/** The API's cap on contacts in one bulk add. */
export const MEMBERS_PER_REQUEST = 1000;

export type ListInput = { name: string; description?: string | null };

export function useLists(accountId: string, query = 'limit=100', options: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: ['lists', accountId, query], queryFn: () => apiRequest<ListEnvelope<ContactListObject>>(`${listsPath(accountId)}?${query}`), ...options });
}

export function useList(accountId: string, listId: string) {
  return useQuery({ queryKey: ['list', accountId, listId], queryFn: () => apiRequest<ContactListObject>(listsPath(accountId, listId)) });
}

/** `query`: `subscription_status`, `after`, `before`, `limit`; contacts are always included (names and emails to show). */
export function useListMembers(accountId: string, listId: string, query: string) {
  return useQuery({
    queryKey: ['list-members', accountId, listId, query],
    queryFn: () => apiRequest<ListEnvelope<MembershipObject>>(`${membersPath(accountId, listId)}?include_contacts=true&${query}`),
  });
}

function useListMutation<TInput, TResult>(accountId: string, request: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () => {
      for (const key of ['lists', 'list', 'list-members', 'contact-lists']) void client.invalidateQueries({ queryKey: [key, accountId] });
    },
  });
}

export function useCreateList(accountId: string) {
  return useListMutation(accountId, (body: ListInput) => apiRequest<ContactListObject>(listsPath(accountId), { method: 'POST', body }));
}

export function useUpdateList(accountId: string) {
  return useListMutation(accountId, ({ id, ...body }: Partial<ListInput> & { id: string }) => apiRequest<ContactListObject>(listsPath(accountId, id), { method: 'PUT', body }));
}

export function useDeleteList(accountId: string) {
  return useListMutation(accountId, (id: string) => apiRequest<{ message: string }>(listsPath(accountId, id), { method: 'DELETE' }));
}

export type AddMembersOutcome = { added: number; batches: number };

/**
 * Adds contacts (ids or emails) to a list, 1,000 per request (the API's cap), in order. A failing
 * batch stops the run: the error says how many were added before it.
 */
export function useAddMembers(accountId: string) {
  return useListMutation(accountId, async ({ listId, contacts, status }: { listId: string; contacts: string[]; status?: SubscriptionStatus }): Promise<AddMembersOutcome> => {
    let added = 0;
    let batches = 0;
    for (let start = 0; start < contacts.length; start += MEMBERS_PER_REQUEST) {
      const batch = contacts.slice(start, start + MEMBERS_PER_REQUEST);
      try {
        await apiRequest(membersPath(accountId, listId), { method: 'POST', body: { contacts: batch, ...(status ? { subscription_status: status } : {}) } });
      } catch (error) {
        if (added > 0 && error instanceof Error) error.message = `${error.message} (the first ${added.toLocaleString()} were added)`;
        throw error;
      }
      added += batch.length;
      batches += 1;
    }
    return { added, batches };
  });
}

export function useUpdateMember(accountId: string) {
  return useListMutation(accountId, ({ listId, contactId, status }: { listId: string; contactId: string; status: SubscriptionStatus }) =>
    apiRequest<MembershipObject>(membersPath(accountId, listId, contactId), { method: 'PUT', body: { subscription_status: status } }),
  );
}

export function useRemoveMember(accountId: string) {
  return useListMutation(accountId, ({ listId, contactId }: { listId: string; contactId: string }) => apiRequest<{ message: string }>(membersPath(accountId, listId, contactId), { method: 'DELETE' }));
}
