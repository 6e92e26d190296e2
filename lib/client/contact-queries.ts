'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './api';
import type { AttributeDefinition, ContactObject, ListEnvelope, MembershipObject } from './types';

export const contactsPath = (accountId: string, idOrEmail?: string) => `/v2/accounts/${accountId}/contacts${idOrEmail ? `/${encodeURIComponent(idOrEmail)}` : ''}`;
const attributesPath = (accountId: string, key?: string) => `/internal/accounts/${accountId}/contact-attributes${key ? `/${encodeURIComponent(key)}` : ''}`;

/** What create and update send; update sends only what changed (the API keeps omitted fields). */
export type ContactInput = { email?: string; first_name?: string | null; last_name?: string | null; attributes?: Record<string, unknown> };

/** `query` carries filters and cursor: `search`, `unsubscribed`, `list_id`, `attribute_key` with `attribute_value`, `after`, `before`, `limit`. */
export function useContacts(accountId: string, query: string, options: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: ['contacts', accountId, query], queryFn: () => apiRequest<ListEnvelope<ContactObject>>(`${contactsPath(accountId)}?${query}`), ...options });
}

export function useContact(accountId: string, contactId: string) {
  return useQuery({ queryKey: ['contact', accountId, contactId], queryFn: () => apiRequest<ContactObject>(contactsPath(accountId, contactId)) });
}

export function useContactMemberships(accountId: string, contactId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['contact-lists', accountId, contactId],
    queryFn: () => apiRequest<ListEnvelope<MembershipObject>>(`${contactsPath(accountId, contactId)}/lists?limit=100`),
    ...options,
  });
}

export type SubscriptionEvent = { object: 'contact_subscription_event'; type: 'unsubscribed' | 'resubscribed'; source: string; list_id: string | null; created_at: string };

/** A contact's subscription history (R3: unsubscribing keeps it), newest first; dashboard only. */
export function useSubscriptionEvents(accountId: string, contactId: string) {
  return useQuery({
    queryKey: ['contact-history', accountId, contactId],
    queryFn: () => apiRequest<{ data: SubscriptionEvent[] }>(`/internal/accounts/${accountId}/contacts/${encodeURIComponent(contactId)}/subscription-events`),
    select: (list) => list.data,
  });
}

function useContactMutation<TInput, TResult>(accountId: string, request: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    // A contact in the answer goes into the cache before the caller continues: the contact page keys
    // its form on updated_at, and a remount from a later refetch would wipe what the user typed since.
    onSuccess: (result) => {
      const updated = result as Partial<ContactObject> | null;
      if (updated?.object !== 'contact') return;
      client.setQueriesData<ContactObject>({ queryKey: ['contact', accountId] }, (old) => (old?.id === updated.id ? (updated as ContactObject) : old));
    },
    onSettled: () => {
      for (const key of ['contacts', 'contact', 'contact-lists', 'contact-history', 'lists', 'list', 'list-members']) void client.invalidateQueries({ queryKey: [key, accountId] });
    },
  });
}

export function useCreateContact(accountId: string) {
  return useContactMutation(accountId, (body: ContactInput) => apiRequest<ContactObject>(contactsPath(accountId), { method: 'POST', body }));
}

export function useUpdateContact(accountId: string) {
  return useContactMutation(accountId, ({ id, ...body }: ContactInput & { id: string }) => apiRequest<ContactObject>(contactsPath(accountId, id), { method: 'PUT', body }));
}

export function useSetUnsubscribed(accountId: string) {
  return useContactMutation(accountId, ({ id, unsubscribed }: { id: string; unsubscribed: boolean }) =>
    apiRequest<ContactObject>(`${contactsPath(accountId, id)}/${unsubscribed ? 'unsubscribe' : 'resubscribe'}`, { method: 'POST' }),
  );
}

export function useDeleteContact(accountId: string) {
  return useContactMutation(accountId, (id: string) => apiRequest<{ message: string }>(contactsPath(accountId, id), { method: 'DELETE' }));
}

export type BulkOutcome = { done: number; failed: { id: string; message: string }[] };

const BULK_PARALLEL = 4;

/**
 * Unsubscribe or delete many contacts: the API acts on one contact per request, so the selection is
 * worked through a few at a time, and what failed is reported instead of stopping at the first error.
 */
export function useBulkContactAction(accountId: string) {
  return useContactMutation(accountId, async ({ ids, action }: { ids: string[]; action: 'unsubscribe' | 'delete' }): Promise<BulkOutcome> => {
    const outcome: BulkOutcome = { done: 0, failed: [] };
    const queue = [...ids];
    const work = async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        const request = action === 'delete' ? apiRequest(contactsPath(accountId, id), { method: 'DELETE' }) : apiRequest(`${contactsPath(accountId, id)}/unsubscribe`, { method: 'POST' });
        await request.then(
          () => (outcome.done += 1),
          (error: Error) => outcome.failed.push({ id, message: error.message }),
        );
      }
    };
    await Promise.all(Array.from({ length: BULK_PARALLEL }, work));
    return outcome;
  });
}

export function useAttributeDefinitions(accountId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['contact-attributes', accountId],
    queryFn: () => apiRequest<{ data: AttributeDefinition[] }>(attributesPath(accountId)),
    select: (list) => list.data,
    ...options,
  });
}

function useAttributeMutation<TInput, TResult>(accountId: string, request: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: request, onSettled: () => client.invalidateQueries({ queryKey: ['contact-attributes', accountId] }) });
}

export function useCreateAttributeDefinition(accountId: string) {
  return useAttributeMutation(accountId, (body: Pick<AttributeDefinition, 'key' | 'type' | 'label'>) => apiRequest<AttributeDefinition>(attributesPath(accountId), { method: 'POST', body }));
}

export function useUpdateAttributeDefinition(accountId: string) {
  return useAttributeMutation(accountId, ({ key, ...body }: Pick<AttributeDefinition, 'key'> & Partial<Pick<AttributeDefinition, 'type' | 'label'>>) =>
    apiRequest<AttributeDefinition>(attributesPath(accountId, key), { method: 'PUT', body }),
  );
}

export function useDeleteAttributeDefinition(accountId: string) {
  return useAttributeMutation(accountId, (key: string) => apiRequest<{ message: string }>(attributesPath(accountId, key), { method: 'DELETE' }));
}
